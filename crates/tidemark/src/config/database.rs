//! `database_url` and `[database]`: where the data lives, and the pool's settings. The URL's
//! password never reaches `Debug` output or logs.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A database URL; `Debug` hides any password in it.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct DatabaseUrl(pub String);

impl DatabaseUrl {
    /// The URL with any password replaced by `***`, for logs.
    #[must_use]
    pub fn redacted(&self) -> String {
        let url = &self.0;
        let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
            return url.clone();
        };
        let rest = &url[scheme_end..];
        let authority_end = rest.find('/').unwrap_or(rest.len());
        match rest[..authority_end].rfind('@') {
            Some(at) => {
                let user_info = &rest[..at];
                let user = user_info.split(':').next().unwrap_or_default();
                let password = if user_info.contains(':') { ":***" } else { "" };
                format!("{}{user}{password}{}", &url[..scheme_end], &rest[at..])
            }
            None => url.clone(),
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

/// SQLite's `synchronous` level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SqliteSynchronous {
    /// Every commit reaches the disk before it is acknowledged.
    Full,
    /// Commits survive a process crash, not a power cut.
    Normal,
}

/// Database pool settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    /// Most pooled connections (for SQLite, read connections: at most this many reads run
    /// at once, the others wait their turn).
    pub max_connections: u32,
    /// Each SQLite read connection's page cache, in KiB: with `max_connections`, what the
    /// readers may hold.
    pub sqlite_cache_kib: u32,
    /// SQLite durability level.
    pub sqlite_synchronous: SqliteSynchronous,
    /// The largest the SQLite file may grow, in bytes: writes beyond are refused (507
    /// `storage_full`) as on a full disk, while reads go on. None: the disk's own limit.
    pub sqlite_max_bytes: Option<u64>,
}

impl Default for DatabaseConfig {
    fn default() -> Self {
        Self {
            max_connections: 8,
            sqlite_cache_kib: 2_000,
            sqlite_synchronous: SqliteSynchronous::Full,
            sqlite_max_bytes: None,
        }
    }
}
