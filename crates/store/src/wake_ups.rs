//! Wake-ups across processes: on PostgreSQL, triggers announce at commit a notification
//! due (`tidemark_notifications`) and a job scheduled (`tidemark_jobs`), and
//! [`ring_on_announcements`] turns each announcement into a ring of a worker's bell, so a
//! dispatcher or tracker in another process starts at once instead of at its next poll.
//! On SQLite one process serves the file and its workers ring each other in memory.

use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::Notify;

use crate::ConnectOptions;

/// What is announced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Announcement {
    /// A webhook notification due: the dispatcher's work.
    NotificationDue,
    /// A job scheduled: the tracker's work.
    JobScheduled,
}

impl Announcement {
    /// The channel.
    #[must_use]
    pub const fn channel(self) -> &'static str {
        match self {
            Self::NotificationDue => "tidemark_notifications",
            Self::JobScheduled => "tidemark_jobs",
        }
    }
}

/// How long to wait before listening again after the connection was lost.
const AGAIN: Duration = Duration::from_secs(1);

/// Rings `bell` at each `announcement` on the database of `options`, for as long as it
/// is polled; listening again after a lost connection (and ringing then, as something
/// may have been missed). On SQLite it never rings.
pub async fn ring_on_announcements(
    options: &ConnectOptions,
    announcement: Announcement,
    bell: Arc<Notify>,
) {
    let url = options.url.as_str();
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return std::future::pending().await;
    }
    loop {
        match PgListener::connect(url).await {
            Ok(mut listener) => match listener.listen(announcement.channel()).await {
                Ok(()) => {
                    bell.notify_one();
                    while listener.recv().await.is_ok() {
                        bell.notify_one();
                    }
                    tracing::warn!(
                        channel = announcement.channel(),
                        "lost the database's announcements; listening again"
                    );
                }
                Err(error) => {
                    tracing::warn!(%error, "cannot listen to the database's announcements")
                }
            },
            Err(error) => tracing::warn!(%error, "cannot listen to the database's announcements"),
        }
        tokio::time::sleep(AGAIN).await;
    }
}
