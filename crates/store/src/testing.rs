//! Fresh, isolated databases for tests: a new SQLite file or a new PostgreSQL database
//! per test, removed when the test ends.
//!
//! PostgreSQL tests read `TIDEMARK_TEST_DATABASE_URL` (a server URL whose database the
//! test user may create databases from). Without it, the crates' build scripts compile the
//! PostgreSQL cases as ignored, so the runner reports them as skipped; the store's
//! `the_postgresql_suite_runs_in_ci` fails when `CI` is set without it. With it, an
//! unreachable server fails the test.

use std::sync::Arc;

use sqlx::Connection;
use sqlx::postgres::PgConnection;

use crate::{ConnectOptions, Store};

/// Which backend a test runs against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in a temporary directory.
    Sqlite,
    /// A fresh database on the server of `TIDEMARK_TEST_DATABASE_URL`.
    Postgres,
}

/// A database that exists for one test.
#[derive(Debug)]
pub struct TestDatabase {
    /// Options to connect to it.
    pub options: ConnectOptions,
    _dir: Option<tempfile::TempDir>,
    postgres: Option<(String, String)>,
}

/// The variable that names the PostgreSQL server for tests.
pub const POSTGRES_URL_VAR: &str = "TIDEMARK_TEST_DATABASE_URL";

impl TestDatabase {
    /// Creates a fresh database.
    ///
    /// # Panics
    /// When PostgreSQL is not configured, or configured but unreachable.
    pub async fn create(backend: Backend) -> Self {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("a temporary directory");
                let url = format!("sqlite://{}", dir.path().join("tidemark.db").display());
                Self {
                    options: ConnectOptions::new(url),
                    _dir: Some(dir),
                    postgres: None,
                }
            }
            Backend::Postgres => {
                // The PostgreSQL cases are compiled as ignored without the variable (see
                // the build scripts), so one that runs was asked for: it needs a server.
                let server = std::env::var(POSTGRES_URL_VAR)
                    .ok()
                    .filter(|url| !url.is_empty())
                    .unwrap_or_else(|| {
                        panic!(
                            "{POSTGRES_URL_VAR} is not set: the PostgreSQL cases run only against a server"
                        )
                    });
                let name = format!("tidemark_test_{}", uuid::Uuid::now_v7().simple());
                let mut admin = PgConnection::connect(&server)
                    .await
                    .unwrap_or_else(|error| {
                        panic!("{POSTGRES_URL_VAR}={server} is unreachable: {error}")
                    });
                sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
                    .execute(&mut admin)
                    .await
                    .expect("CREATE DATABASE");
                let url = database_url(&server, &name);
                Self {
                    options: ConnectOptions::new(url),
                    _dir: None,
                    postgres: Some((server, name)),
                }
            }
        }
    }

    /// Connects with migrations applied.
    ///
    /// # Panics
    /// When the database cannot be opened.
    pub async fn connect(&self) -> Arc<dyn Store> {
        crate::connect(&self.options)
            .await
            .expect("test database opens")
    }

    /// Damages the database: `table` is renamed away, so every statement naming it fails as
    /// it would on a broken server. Tests of internal errors provoke them this way, through
    /// the real store.
    ///
    /// # Panics
    /// When the database cannot be reached or the table does not exist.
    pub async fn break_table(&self, table: &str) {
        let sql = format!("ALTER TABLE {table} RENAME TO {table}_broken");
        let renamed = if self.postgres.is_some() {
            execute::<PgConnection>(&self.options.url, sql).await
        } else {
            execute::<sqlx::SqliteConnection>(&self.options.url, sql).await
        };
        renamed.expect("the table is renamed");
    }

    /// Forgets the list columns of every container (migration `0026_container_list_filters`),
    /// as a database written before them holds its boxes.
    ///
    /// # Panics
    /// When the database cannot be reached.
    pub async fn underive_containers(&self) {
        let sql = "UPDATE containers SET terminal_code = NULL, hold_names = NULL, \
                   pickup_lfd_day = NULL, pickup_lfd_order = NULL"
            .to_owned();
        let done = if self.postgres.is_some() {
            execute::<PgConnection>(&self.options.url, sql).await
        } else {
            execute::<sqlx::SqliteConnection>(&self.options.url, sql).await
        };
        done.expect("the columns are forgotten");
    }

    /// Damages the database another way: every delete from `table` fails, while reads and
    /// other writes still work, as on a server whose disk refuses some pages.
    ///
    /// # Panics
    /// When the database cannot be reached or the table does not exist.
    pub async fn refuse_deletes(&self, table: &str) {
        let refused = if self.postgres.is_some() {
            let sql = format!(
                "CREATE FUNCTION {table}_refuse_deletes() RETURNS trigger LANGUAGE plpgsql \
                 AS $$ BEGIN RAISE EXCEPTION 'deletes from {table} are refused'; END $$; \
                 CREATE TRIGGER {table}_refuses_deletes BEFORE DELETE ON {table} \
                 FOR EACH ROW EXECUTE FUNCTION {table}_refuse_deletes();"
            );
            execute::<PgConnection>(&self.options.url, sql).await
        } else {
            let sql = format!(
                "CREATE TRIGGER {table}_refuses_deletes BEFORE DELETE ON {table} \
                 BEGIN SELECT RAISE(ABORT, 'deletes from {table} are refused'); END;"
            );
            execute::<sqlx::SqliteConnection>(&self.options.url, sql).await
        };
        refused.expect("the trigger is made");
    }
}

/// Runs `sql` on a connection of its own to `url`.
impl TestDatabase {
    /// Cuts every connection to this PostgreSQL database, as a server restart does: the
    /// server ends them (`pg_terminate_backend`), and the store's pooled connections find
    /// out at their next statement. Nothing on SQLite, which has no server.
    ///
    /// # Panics
    /// When the server cannot be reached.
    pub async fn cut_connections(&self) {
        let Some((server, name)) = &self.postgres else {
            return;
        };
        let sql = format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = '{name}' AND pid <> pg_backend_pid()"
        );
        execute::<PgConnection>(server, sql)
            .await
            .expect("the connections are cut");
    }
}

async fn execute<C>(url: &str, sql: String) -> Result<(), sqlx::Error>
where
    C: Connection,
    for<'c> &'c mut C: sqlx::Executor<'c, Database = C::Database>,
{
    let mut connection = C::connect(url).await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql))
        .execute(&mut connection)
        .await?;
    Ok(())
}

/// Replaces the database name in a PostgreSQL URL.
fn database_url(server: &str, name: &str) -> String {
    let (base, query) = server
        .split_once('?')
        .map_or((server, None), |(b, q)| (b, Some(q)));
    let authority_end = base.find("://").map_or(0, |i| i + 3);
    let base = match base[authority_end..].find('/') {
        Some(slash) => &base[..authority_end + slash],
        None => base,
    };
    match query {
        Some(query) => format!("{base}/{name}?{query}"),
        None => format!("{base}/{name}"),
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let Some((server, name)) = self.postgres.take() else {
            return;
        };
        // Drop runs outside async code; a short-lived runtime on its own thread removes the database.
        let statement = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
        let dropped = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .ok()?;
            runtime.block_on(async {
                let mut admin = PgConnection::connect(&server).await.ok()?;
                sqlx::raw_sql(sqlx::AssertSqlSafe(statement))
                    .execute(&mut admin)
                    .await
                    .ok()
            })
        })
        .join();
        if !matches!(dropped, Ok(Some(_))) {
            eprintln!("could not drop test database {name}");
        }
    }
}

/// Writes `next` over the stored `read` through the production commit, as the lifecycle's
/// decisions are written: tests set states the way the tracker and the API do.
///
/// # Panics
/// When the commit fails or finds the request changed since `read` was read.
pub async fn commit_request(
    store: &dyn Store,
    read: &tidemark_domain::TrackingRequest,
    next: tidemark_domain::TrackingRequest,
) -> tidemark_domain::TrackingRequest {
    let change = tidemark_domain::tracking::Change::to(read, next.clone());
    let outcome = store
        .commit_tracking(None, &change)
        .await
        .expect("committed");
    assert_eq!(
        outcome,
        crate::CommitOutcome::Committed,
        "the request was as read"
    );
    next
}

/// [`commit_request`] changing only the status.
pub async fn commit_status(
    store: &dyn Store,
    read: &tidemark_domain::TrackingRequest,
    status: tidemark_domain::RequestStatus,
) -> tidemark_domain::TrackingRequest {
    let next = tidemark_domain::TrackingRequest {
        status,
        ..read.clone()
    };
    commit_request(store, read, next).await
}

/// Declares each named test case twice, once per backend, as `sqlite::<case>` and
/// `postgres::<case>`: `backends!(run, case_a, case_b)` calls `run(backend, super::case_a)`.
/// `run` prepares what the cases take (a store, an app, a harness) on that backend. The
/// PostgreSQL half is reported as skipped, not passed, when the crate's build script did not
/// find `TIDEMARK_TEST_DATABASE_URL` (the `tidemark_postgres_tests` cfg).
#[macro_export]
macro_rules! backends {
    ($run:ident, $($case:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn $case() {
                super::$run($crate::testing::Backend::Sqlite, super::$case).await;
            })*
        }
        mod postgres {
            $(#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[cfg_attr(not(tidemark_postgres_tests), ignore = "set TIDEMARK_TEST_DATABASE_URL to run the PostgreSQL suite")]
            async fn $case() {
                super::$run($crate::testing::Backend::Postgres, super::$case).await;
            })*
        }
    };
}

#[cfg(test)]
mod tests {
    use super::database_url;

    #[test]
    fn the_database_name_is_replaced_in_any_url_shape() {
        assert_eq!(
            database_url("postgres://u@h:5432/test", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            database_url("postgres://u@h:5432", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            database_url("postgres://u@h/test?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
    }
}
