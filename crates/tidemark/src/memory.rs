//! How the process gives memory back: jemalloc's purging, set from `[memory]`.
//!
//! A busy process frees as much as it allocates, and an allocator that keeps freed pages
//! for reuse grows to its busiest moment and stays there. jemalloc returns pages unused for
//! `return_freed_after` to the system, from a background thread of its own, so the
//! resident set falls back when the load does (bench/memory.sh).

use std::time::Duration;

use serde::{Deserialize, Serialize};
use tikv_jemalloc_ctl::{Access as _, AsName as _};

/// `[memory]`: how long freed memory is kept for reuse.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, default)]
pub struct MemoryConfig {
    /// Freed pages unused this long are returned to the system (jemalloc's dirty decay);
    /// shorter returns memory sooner for a little more work under load.
    #[serde(with = "humantime_serde")]
    pub return_freed_after: Duration,
}

impl Default for MemoryConfig {
    fn default() -> Self {
        Self {
            return_freed_after: Duration::from_secs(1),
        }
    }
}

/// The allocator's controls set, each a NUL-terminated name: the defaults of arenas made
/// later, then every arena now (4096 is jemalloc's `MALLCTL_ARENAS_ALL`).
const DIRTY: [&str; 2] = ["arenas.dirty_decay_ms\0", "arena.4096.dirty_decay_ms\0"];
const MUZZY: [&str; 2] = ["arenas.muzzy_decay_ms\0", "arena.4096.muzzy_decay_ms\0"];

/// Applies `config` to the allocator: purging on a background thread, freed pages
/// returned after `return_freed_after`, in every arena and the ones made later. Where
/// jemalloc is not the allocator or refuses a setting, says so and goes on.
pub fn apply(config: &MemoryConfig) {
    let decay_ms = isize::try_from(config.return_freed_after.as_millis()).unwrap_or(isize::MAX);
    let mut refused = Vec::new();
    let settings = DIRTY.iter().map(|name| (name, decay_ms));
    // Muzzy pages (returned lazily) are returned at once instead: what RSS counts.
    for (name, value) in settings.chain(MUZZY.iter().map(|name| (name, 0))) {
        if name.name().write(value).is_err() {
            refused.push(name.trim_end_matches('\0'));
        }
    }
    if tikv_jemalloc_ctl::background_thread::write(true).is_err() {
        refused.push("background_thread");
    }
    if refused.is_empty() {
        tracing::debug!(return_freed_after = ?config.return_freed_after, "allocator set");
    } else {
        tracing::warn!(
            ?refused,
            "the allocator refused settings; freed memory may be kept"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_reach_the_allocator() {
        apply(&MemoryConfig {
            return_freed_after: Duration::from_millis(750),
        });
        let decay: isize = DIRTY[0].name().read().expect("jemalloc answers");
        assert_eq!(decay, 750);
        assert!(tikv_jemalloc_ctl::background_thread::read().expect("jemalloc answers"));
    }
}
