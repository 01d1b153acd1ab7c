//! [`TestApp`]: Tidemark built by production's own builder
//! ([`tidemark::application::Application::build`]) over a fresh database, with a carrier
//! simulator on loopback as its sandbox, served on `127.0.0.1:0`, and the workers left in
//! the test's hands ([`TestApp::drain`], [`TestApp::deliver`]).

use std::sync::Arc;

use carrier_sim::{SimConfig, Simulator};
use tidemark::application::{Application, Seams};
use tidemark::config::Config;
use tidemark::settings::Settings;
use tidemark_domain::{Account, AccountId, AccountName, ApiKey, Clock, ManualClock, SystemClock};
use tidemark_store::Store;
use tidemark_store::testing::{Backend, TestDatabase};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::Simulated;
use crate::simulated::sandbox_at;

mod client;
mod world;

pub use client::JSON_API;

/// A running application, its database, its simulated world, an account and its key.
pub struct TestApp {
    /// Where the API answers: `http://127.0.0.1:PORT`.
    pub base: String,
    /// The key of [`TestApp::account`].
    pub key: String,
    /// The account the test acts as.
    pub account: Account,
    /// The application's database.
    pub store: Arc<dyn Store>,
    /// An HTTP client.
    pub client: reqwest::Client,
    /// The sandbox carrier (its clock: `sim.clock()`).
    pub sim: Simulator,
    /// The simulator's base URL; its admin API takes the key [`crate::SIM_ADMIN_KEY`].
    pub sim_url: String,
    /// The simulated world's clock, which the application reads when built with
    /// [`Spawn::world_clock`] (as [`TestApp::tracking`] is); [`TestApp::advance`] moves it
    /// with the simulator's.
    pub clock: Arc<ManualClock>,
    /// The database, kept for as long as the test runs.
    pub database: TestDatabase,
    /// What the application was built from.
    pub settings: Settings,
    /// Cancelled when the test app is dropped; cancelled earlier, it stops the server.
    pub shutdown: CancellationToken,
    /// The HTTP server's task.
    pub server: Option<JoinHandle<std::io::Result<()>>>,
    app: Application,
    app_clock: Arc<dyn Clock>,
}

/// How a [`TestApp`] is to be built: [`TestApp::build`], then [`Spawn::spawn`].
pub struct Spawn {
    database: Database,
    sim: SimConfig,
    clock: Reads,
    configure: Vec<Configure>,
    /// Whether the simulator's vessels report on an AIS feed the application reads.
    ais: bool,
}

/// A change to the settings, knowing where the parties answer.
type Configure = Box<dyn FnOnce(&mut Config, &Places)>;

/// The database the application opens.
enum Database {
    Fresh(Backend),
    Given(TestDatabase),
}

/// The clock the application reads.
enum Reads {
    System,
    World,
    Given(Arc<dyn Clock>),
}

/// Where the parties of a test answer, for settings that name them.
#[derive(Debug, Clone)]
pub struct Places {
    /// The simulator's base URL.
    pub sim: String,
    /// The application's base URL (where carriers and terminals push).
    pub app: String,
}

/// The settings every test starts from: production's defaults, with every SCAC served by
/// the sandbox (tests create requests for real carriers' numbers, which the defaults
/// refuse as not configured).
#[must_use]
pub fn test_config() -> Config {
    let mut config = Config::default();
    config.sandbox.all_carriers = true;
    config
}

impl TestApp {
    /// How to build one on `backend`, with [`test_config`] and the world of
    /// [`crate::sim_config`]`(3)`.
    #[must_use]
    pub fn build(backend: Backend) -> Spawn {
        Self::over(Database::Fresh(backend))
    }

    /// How to build one over `database`, as the test prepared it (capped, or reached
    /// through a relay).
    #[must_use]
    pub fn on(database: TestDatabase) -> Spawn {
        Self::over(Database::Given(database))
    }

    fn over(database: Database) -> Spawn {
        Spawn {
            database,
            sim: crate::sim_config(3),
            clock: Reads::System,
            configure: Vec::new(),
            ais: false,
        }
    }

    /// An application with the test settings, reading the system clock.
    pub async fn spawn(backend: Backend) -> Self {
        Self::build(backend).spawn().await
    }

    /// An application with the test settings whose "now" is the simulated world's, which
    /// the test moves ([`TestApp::advance`]) before it works the jobs due
    /// ([`TestApp::drain`]).
    pub async fn tracking(backend: Backend) -> Self {
        Self::build(backend).world_clock().spawn().await
    }

    /// The application itself: its workers, its store.
    #[must_use]
    pub fn application(&self) -> &Application {
        &self.app
    }

    /// Another process over the same database, world and clock, with these settings
    /// changed by `configure` (a restart, or a second process beside this one). It serves
    /// nothing until the test spawns its HTTP; its workers are the test's to run.
    ///
    /// # Panics
    /// When it cannot be built.
    pub async fn another_process(&self, configure: impl FnOnce(&mut Config)) -> Application {
        let mut config = self.settings.config.clone();
        configure(&mut config);
        let settings = Settings::parse(config).expect("valid settings");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let seams = Seams {
            clock: Arc::clone(&self.app_clock),
            listener: Some(listener),
            sandbox: Some(sandbox_at(
                &self.sim_url,
                settings.config.sandbox.connection.clone(),
            )),
            shutdown: self.shutdown.child_token(),
        };
        Application::build(&settings, seams)
            .await
            .expect("another process")
    }

    /// Creates an account with one key; returns both.
    ///
    /// # Panics
    /// When the store fails.
    pub async fn new_account(&self, name: &str) -> (Account, String) {
        let account = Account {
            id: AccountId::new(),
            name: AccountName::parse(name).expect("valid name"),
            created_at: self.app_clock.now(),
        };
        self.store.create_account(&account).await.expect("account");
        let key = ApiKey::generate(account.id, account.created_at);
        self.store.insert_api_key(&key.record).await.expect("key");
        (account, key.secret.expose().to_owned())
    }
}

impl Spawn {
    /// Changes the settings (after [`test_config`]).
    #[must_use]
    pub fn config(self, configure: impl FnOnce(&mut Config) + 'static) -> Self {
        self.config_at(move |config, _| configure(config))
    }

    /// Changes the settings, knowing where the simulator and the application answer.
    #[must_use]
    pub fn config_at(mut self, configure: impl FnOnce(&mut Config, &Places) + 'static) -> Self {
        self.configure.push(Box::new(configure));
        self
    }

    /// Carriers reached at endpoints: `endpoints` is the `[carriers]` table in TOML, with
    /// `{sim}` for the simulator's URL and `{app}` for the application's; the sandbox serves
    /// `TEST` alone beside them.
    ///
    /// # Panics
    /// When `endpoints` is not a `[carriers]` table.
    #[must_use]
    pub fn carriers(self, endpoints: &'static str) -> Self {
        self.config_at(move |config, at| {
            let endpoints = endpoints
                .replace("{sim}", &at.sim)
                .replace("{app}", &at.app);
            config.carriers = toml::from_str(&endpoints).expect("a [carriers] table");
            config.sandbox.all_carriers = false;
        })
    }

    /// The simulator's terminals are asked to push to the application (it subscribes).
    #[must_use]
    pub fn pushed(self) -> Self {
        self.config_at(|config, at| config.terminals.callback_base_url = Some(at.app.clone()))
    }

    /// Changes the simulated world.
    #[must_use]
    pub fn simulator(mut self, configure: impl FnOnce(&mut SimConfig)) -> Self {
        configure(&mut self.sim);
        self
    }

    /// The application reads `clock`.
    #[must_use]
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = Reads::Given(clock);
        self
    }

    /// The simulator's vessels report their positions on an AIS feed (every 50 ms), which
    /// the application reads as the sandbox's, writing every 10 ms.
    #[must_use]
    pub fn vessels_on_ais(mut self) -> Self {
        self.ais = true;
        self.config(|config| config.ais.flush = std::time::Duration::from_millis(10))
    }

    /// The application reads the simulated world's clock.
    #[must_use]
    pub fn world_clock(mut self) -> Self {
        self.clock = Reads::World;
        self
    }

    /// Builds and serves it, and creates the account `acme` with a key.
    ///
    /// # Panics
    /// When any part cannot start.
    pub async fn spawn(self) -> TestApp {
        let database = match self.database {
            Database::Given(database) => database,
            Database::Fresh(backend) => TestDatabase::create(backend).await,
        };
        let Simulated { sim, url, clock } = Simulated::start(self.sim).await;
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let places = Places {
            sim: url.clone(),
            app: base.clone(),
        };
        let mut config = test_config();
        config.database_url = tidemark::config::DatabaseUrl(database.options.url.clone());
        config.database.sqlite_max_bytes = database.options.sqlite_max_bytes;
        for configure in self.configure {
            configure(&mut config, &places);
        }
        let settings = Settings::parse(config).expect("valid settings");
        let app_clock = match self.clock {
            Reads::System => Arc::new(SystemClock),
            Reads::World => Arc::clone(&clock) as Arc<dyn Clock>,
            Reads::Given(given) => given,
        };
        let shutdown = CancellationToken::new();
        let mut sandbox = sandbox_at(&url, settings.config.sandbox.connection.clone());
        if self.ais {
            let every = std::time::Duration::from_millis(50);
            let feed = sim
                .clone()
                .spawn_ais(every)
                .await
                .expect("the AIS feed listens");
            sandbox.ais_feed = Some(feed);
        }
        let seams = Seams {
            clock: Arc::clone(&app_clock),
            listener: Some(listener),
            sandbox: Some(sandbox),
            shutdown: shutdown.clone(),
        };
        let mut app = Application::build(&settings, seams)
            .await
            .expect("the application builds");
        let server = app.spawn_http();
        // The AIS reader, when the test gives it feeds, reads them as production does.
        drop(app.spawn_ais());
        let store = Arc::clone(app.store());
        let mut test = TestApp {
            base,
            key: String::new(),
            account: placeholder(app_clock.as_ref()),
            store,
            client: reqwest::Client::new(),
            sim,
            sim_url: url,
            clock,
            database,
            settings,
            shutdown,
            server,
            app,
            app_clock,
        };
        let (account, key) = test.new_account("acme").await;
        test.account = account;
        test.key = key;
        test
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

fn placeholder(clock: &dyn Clock) -> Account {
    Account {
        id: AccountId::new(),
        name: AccountName::parse("placeholder").expect("valid"),
        created_at: clock.now(),
    }
}
