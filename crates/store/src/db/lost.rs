//! Connections PostgreSQL dropped: which failures mean the connection is gone, and which
//! pooled connections to test before handing them out after a loss.
//!
//! A server that restarts ends every connection the pool holds, and the pool learns of it
//! only when it next uses one. The first statement on each then fails. So once a loss is
//! seen, every connection opened before it is pinged before it is handed out (a dead one is
//! dropped and another taken), for [`SUSPECT_FOR`]; the rest of the time a pooled
//! connection is handed out untested, saving a round trip per request.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sqlx::Connection as _;
use sqlx::PgConnection;
use sqlx::pool::PoolConnectionMetadata;

/// How long after a loss the connections opened before it are tested before use.
pub(crate) const SUSPECT_FOR: Duration = Duration::from_secs(30);

/// Whether `error` means the connection is gone (a broken socket, the server closing it
/// or shutting down: SQLSTATE classes 08 and 57P) rather than a refused statement.
pub(crate) fn connection_lost(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Io(_) | sqlx::Error::Protocol(_) => true,
        sqlx::Error::Database(database) => database
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
        _ => false,
    }
}

/// When the pool last lost a connection, shared by the pool's acquire hook.
#[derive(Debug, Clone)]
pub(crate) struct Losses {
    started: Instant,
    /// Milliseconds from `started` to the last loss, plus one (0: none yet).
    last: Arc<AtomicU64>,
}

impl Losses {
    pub(crate) fn new() -> Self {
        Self {
            started: Instant::now(),
            last: Arc::new(AtomicU64::new(0)),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Notes a lost connection now.
    pub(crate) fn note(&self) {
        self.last
            .store(self.now().saturating_add(1), Ordering::Relaxed);
    }

    /// Whether a pooled connection of this `age` was opened before a loss of the last
    /// [`SUSPECT_FOR`], and so may be dead.
    pub(crate) fn suspects(&self, age: Duration) -> bool {
        suspect(self.last.load(Ordering::Relaxed), self.now(), age)
    }

    /// The pool's acquire hook: a suspect connection is pinged, and dropped when it does
    /// not answer (the pool then takes another or opens one).
    pub(crate) async fn check(
        &self,
        connection: &mut PgConnection,
        meta: PoolConnectionMetadata,
    ) -> bool {
        if !self.suspects(meta.age) {
            return true;
        }
        connection.ping().await.is_ok()
    }
}

/// Whether a connection of `age` is suspect at `now`, the last loss noted as `last` (both
/// milliseconds from the pool's start; `last` plus one, 0 for none).
fn suspect(last: u64, now: u64, age: Duration) -> bool {
    if last == 0 {
        return false;
    }
    let since = Duration::from_millis(now.saturating_sub(last - 1));
    since < SUSPECT_FOR && age > since
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_connections_older_than_a_recent_loss_are_suspect() {
        let second = Duration::from_secs(1);
        assert!(!suspect(0, 60_000, second * 3600), "no loss yet");
        // A loss noted at 10 s, looked at 20 ms later.
        let (last, now) = (10_001, 10_020);
        assert!(suspect(last, now, second), "opened before the loss");
        assert!(
            !suspect(last, now, Duration::from_millis(5)),
            "opened after it"
        );
        // A loss longer ago than SUSPECT_FOR no longer makes anything suspect.
        let later = 10_000 + u64::try_from(SUSPECT_FOR.as_millis()).unwrap_or(0) + 1;
        assert!(!suspect(last, later, SUSPECT_FOR * 2));
    }

    #[test]
    fn a_broken_socket_is_a_lost_connection_and_a_refused_statement_is_not() {
        let broken = sqlx::Error::Io(std::io::Error::from(std::io::ErrorKind::ConnectionReset));
        assert!(connection_lost(&broken));
        assert!(!connection_lost(&sqlx::Error::RowNotFound));
        assert!(!connection_lost(&sqlx::Error::PoolTimedOut));
    }
}
