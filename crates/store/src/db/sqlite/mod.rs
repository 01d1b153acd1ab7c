//! The embedded driver: one SQLite file in WAL mode.
//!
//! Writes go through one thread owning the one read-write connection, group-committed
//! (`writer`): SQLite has one writer at a time, and one connection avoids lock contention
//! and `SQLITE_BUSY` between our own writers. Reads use read-only connections run on the
//! calling thread (`readers`), which WAL mode never blocks. Migrations run through sqlx
//! before either opens.

mod anchor;
mod readers;
mod statement;
mod writer;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use rusqlite::{Connection, OpenFlags};
use sqlx::ConnectOptions as _;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode};

use crate::db::{Backend, Cost, Dialect, Query, Row, Unit, Written};
use crate::{ConnectOptions, Store, StoreError};

/// SQLite's `synchronous` setting in WAL mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    /// Every commit is flushed to disk before it returns: an acknowledged write survives
    /// a power cut. The default.
    #[default]
    Full,
    /// Commits survive a crash of Tidemark but may be lost on a power cut or OS crash.
    Normal,
}

/// SQLite's SQL where it differs. SQLite has no UUID function: ids are random UUIDs
/// made of random bytes.
static DIALECT: Dialect = Dialect {
    least: "MIN",
    greatest: "MAX",
    new_uuid: "lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || \
         substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || \
         substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))",
    skip_locked: false,
    writable_ctes: false,
    lock_accounts: None,
    request_counts: true,
    counts_folded: false,
    no_index: "+",
    ascii_only: "",
};

/// The SQLite store.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    read: Arc<readers::Readers>,
    writer: writer::Writer,
    fullness: Arc<crate::db::fullness::Fullness>,
}

impl SqliteStore {
    /// Opens (creating if missing) the database file named by `options.url`.
    ///
    /// # Errors
    /// When the file cannot be opened or a migration fails.
    pub async fn connect(options: &ConnectOptions) -> Result<Self, StoreError> {
        let base = SqliteConnectOptions::from_str(&options.url)?;
        let path = base.get_filename().to_owned();
        if !options.create && path != std::path::Path::new(":memory:") && !path.exists() {
            return Err(StoreError::Missing(path.display().to_string()));
        }
        let mut migrator = base
            .create_if_missing(options.create)
            .journal_mode(SqliteJournalMode::Wal)
            .busy_timeout(Duration::from_secs(5))
            .connect()
            .await?;
        if options.migrate {
            sqlx::migrate!("./migrations/sqlite")
                .run(&mut migrator)
                .await?;
        }
        sqlx::Connection::close(migrator).await?;

        let connection = Connection::open_with_flags(
            &path,
            OpenFlags::SQLITE_OPEN_READ_WRITE
                | OpenFlags::SQLITE_OPEN_NO_MUTEX
                | OpenFlags::SQLITE_OPEN_URI,
        )?;
        connection.busy_timeout(Duration::from_secs(5))?;
        connection.set_prepared_statement_cache_capacity(128);
        connection.execute_batch(match options.sqlite_synchronous {
            Synchronous::Full => {
                "PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;"
            }
            Synchronous::Normal => {
                "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY;"
            }
        })?;
        if let Some(bytes) = options.sqlite_max_bytes {
            let page: i64 = connection.query_row("PRAGMA page_size", [], |row| row.get(0))?;
            let pages = bytes.div_ceil(u64::try_from(page).unwrap_or(4096).max(1));
            connection.execute_batch(&format!("PRAGMA max_page_count = {pages};"))?;
        }
        let read = readers::Readers::new(
            path,
            usize::try_from(options.max_connections).unwrap_or(8),
            options.sqlite_cache_kib,
        );
        let anchor = anchor::Anchor::new(read.open()?);
        let fullness = Arc::default();
        let store = Self {
            read: Arc::new(read),
            writer: writer::Writer::start(connection, anchor, Arc::clone(&fullness))?,
            fullness,
        };
        if options.migrate {
            crate::lists::derive_underived(&store).await?;
        }
        Ok(store)
    }
}

#[async_trait]
impl Backend for SqliteStore {
    fn dialect(&self) -> &'static Dialect {
        &DIALECT
    }

    async fn read(&self, queries: &[Query], cost: Cost) -> Result<Vec<Vec<Row>>, StoreError> {
        let read = |connection: &Connection| {
            if let [query] = queries {
                return Ok(vec![statement::run(connection, query)?.rows]);
            }
            // One read transaction, so a page and its total agree.
            let transaction = connection.unchecked_transaction()?;
            let mut results = Vec::with_capacity(queries.len());
            for query in queries {
                results.push(statement::run(&transaction, query)?.rows);
            }
            transaction.finish()?;
            Ok(results)
        };
        match cost {
            Cost::Point => self.read.point(read).await,
            Cost::Scan => self.read.scan(read).await,
        }
    }

    async fn write(&self, unit: Unit) -> Result<Written, StoreError> {
        self.writer.write(unit).await
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn ping(&self) -> Result<(), StoreError> {
        self.read
            .point(|connection| Ok(connection.query_row("SELECT 1", [], |_| Ok(()))?))
            .await
    }

    fn backend(&self) -> &'static str {
        "sqlite"
    }

    fn storage_full(&self) -> bool {
        self.fullness.is_full()
    }

    fn storage_refusals(&self) -> u64 {
        self.fullness.refusals()
    }
}

#[cfg(test)]
mod tests {
    use tidemark_domain::{Account, AccountId, AccountName, Timestamp};

    use super::*;
    use crate::AccountStore as _;

    /// The writer lets go of its read anchor before writing (`anchor`): held across the
    /// writes on an older snapshot, it would keep the new frames from the database file.
    #[tokio::test]
    async fn after_writes_every_frame_can_be_checkpointed() {
        let dir = tempfile::tempdir().expect("a directory");
        let path = dir.path().join("tidemark.db");
        let options = ConnectOptions::new(format!("sqlite://{}", path.display()));
        let store = SqliteStore::connect(&options).await.expect("the store");
        for index in 0..3 {
            let account = Account {
                id: AccountId::new(),
                name: AccountName::parse(&format!("anchor {index}")).expect("a name"),
                created_at: Timestamp::from_datetime(time::OffsetDateTime::UNIX_EPOCH),
            };
            store.create_account(&account).await.expect("written");
        }
        let outside = Connection::open(&path).expect("another connection");
        outside.busy_timeout(Duration::ZERO).expect("no wait");
        let (busy, log, done): (i64, i64, i64) = outside
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })
            .expect("a checkpoint");
        assert_eq!(busy, 0);
        assert!(log > 0, "the writes are in the WAL");
        assert_eq!(done, log, "every frame reached the database file");
    }
}
