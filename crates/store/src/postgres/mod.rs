//! The scale-out backend: PostgreSQL, shared safely by any number of Tidemark processes.

mod accounts;
mod jobs;
mod tracking;
mod tracking_requests;

use std::time::Duration;

use async_trait::async_trait;
use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgPool};
use tidemark_domain::Timestamp;
use time::OffsetDateTime;

use crate::{ConnectOptions, Store, StoreError};

/// The PostgreSQL store.
#[derive(Debug, Clone)]
pub struct PgStore {
    pool: PgPool,
}

impl PgStore {
    /// Connects to the database named by `options.url`.
    ///
    /// # Errors
    /// When the server cannot be reached or a migration fails.
    pub async fn connect(options: &ConnectOptions) -> Result<Self, StoreError> {
        // One attempt first: the pool would retry a refused connection until its acquire
        // timeout, and the real cause would arrive ten seconds late as "pool timed out".
        sqlx::PgConnection::connect(&options.url)
            .await?
            .close()
            .await?;
        let pool = PgPoolOptions::new()
            .test_before_acquire(false)
            .max_connections(options.max_connections.max(1))
            .acquire_timeout(Duration::from_secs(10))
            .connect(&options.url)
            .await?;
        if options.migrate {
            // sqlx takes an advisory lock, so processes starting together migrate once.
            sqlx::migrate!("./migrations/postgres").run(&pool).await?;
        }
        Ok(Self { pool })
    }
}

#[async_trait]
impl Store for PgStore {
    async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    fn backend(&self) -> &'static str {
        "postgres"
    }
}

fn time_of(at: OffsetDateTime) -> Timestamp {
    Timestamp::from_datetime(at)
}

fn is_unique_violation(error: &sqlx::Error, constraint: &str) -> bool {
    match error {
        sqlx::Error::Database(db) => {
            db.is_unique_violation() && db.constraint() == Some(constraint)
        }
        _ => false,
    }
}
