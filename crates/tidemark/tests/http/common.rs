//! `TestApp`: the real router served on 127.0.0.1:0 over a fresh database, and a client.

use std::sync::Arc;

use reqwest::{Method, RequestBuilder, Response};
use serde_json::{Value, json};
use tidemark::app;
use tidemark_api::{ApiConfig, CarrierCallbacks};
use tidemark_domain::{Account, AccountId, AccountName, ApiKey, Clock};
use tidemark_store::Store;
use tidemark_store::testing::{Backend, TestDatabase};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

pub const JSON_API: &str = "application/vnd.api+json";

pub struct TestApp {
    pub base: String,
    pub key: String,
    pub account: Account,
    pub store: Arc<dyn Store>,
    pub client: reqwest::Client,
    pub shutdown: CancellationToken,
    pub server: Option<JoinHandle<std::io::Result<()>>>,
    pub database: TestDatabase,
}

impl TestApp {
    /// An app with the contract's default settings (always `Some`).
    pub async fn spawn(backend: Backend) -> Option<Self> {
        Self::spawn_with(backend, all_carriers()).await
    }

    pub async fn spawn_with(backend: Backend, config: ApiConfig) -> Option<Self> {
        Self::spawn_on(backend, config, app::system_clock()).await
    }

    /// An app whose "now" comes from `clock`.
    pub async fn spawn_on(
        backend: Backend,
        config: ApiConfig,
        clock: Arc<dyn Clock>,
    ) -> Option<Self> {
        Self::spawn_served(backend, config, clock, app::ServerSettings::default()).await
    }

    /// An app served with `server`'s settings (timeouts).
    pub async fn spawn_served(
        backend: Backend,
        config: ApiConfig,
        clock: Arc<dyn Clock>,
        server: app::ServerSettings,
    ) -> Option<Self> {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        Self::spawn_receiving(backend, config, clock, (listener, server), |_| None).await
    }

    /// An app served on `listener`, taking the pushes of lines and terminals with what
    /// `callbacks` makes over its store.
    pub async fn spawn_receiving(
        backend: Backend,
        config: ApiConfig,
        clock: Arc<dyn Clock>,
        (listener, server): (tokio::net::TcpListener, app::ServerSettings),
        callbacks: impl FnOnce(Arc<dyn Store>) -> Option<Arc<dyn CarrierCallbacks>>,
    ) -> Option<Self> {
        let database = TestDatabase::create(backend).await;
        Self::spawn_on_database(database, config, clock, (listener, server), callbacks).await
    }

    /// An app with the contract's default settings on `database`, as the test prepared it
    /// (capped, or reached through a relay).
    pub async fn on_database(database: TestDatabase) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let server = (listener, app::ServerSettings::default());
        Self::spawn_on_database(
            database,
            all_carriers(),
            app::system_clock(),
            server,
            |_| None,
        )
        .await
        .expect("app")
    }

    /// [`Self::spawn_receiving`] on `database`, as the test prepared it.
    pub async fn spawn_on_database(
        database: TestDatabase,
        config: ApiConfig,
        clock: Arc<dyn Clock>,
        (listener, server): (tokio::net::TcpListener, app::ServerSettings),
        callbacks: impl FnOnce(Arc<dyn Store>) -> Option<Arc<dyn CarrierCallbacks>>,
    ) -> Option<Self> {
        let store = database.connect().await;
        let callbacks = callbacks(Arc::clone(&store));
        let sender = app::webhook_sender(
            tidemark_workers::DispatcherSettings {
                networks: Arc::new(config.webhook_networks.clone()),
                ..tidemark_workers::DispatcherSettings::default()
            },
            Arc::clone(&clock),
        )
        .expect("webhook sender");
        let state = tidemark_api::AppState::new(
            Arc::clone(&store),
            app::carriers(None).expect("carriers"),
            config,
            Arc::clone(&clock),
            sender,
        );
        let router = tidemark_api::router(state.with_callbacks(callbacks));
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let shutdown = CancellationToken::new();
        let server = tokio::spawn(app::serve(listener, router, shutdown.clone(), server));
        let mut test = Self {
            base,
            key: String::new(),
            account: placeholder_account(clock.as_ref()),
            store,
            client: reqwest::Client::new(),
            shutdown,
            server: Some(server),
            database,
        };
        let (account, key) = test.new_account("acme").await;
        test.account = account;
        test.key = key;
        Some(test)
    }

    /// Creates an account with one key; returns both.
    pub async fn new_account(&self, name: &str) -> (Account, String) {
        let account = Account {
            id: AccountId::new(),
            name: AccountName::parse(name).expect("valid name"),
            created_at: tidemark_domain::SystemClock.now(),
        };
        self.store.create_account(&account).await.expect("account");
        let key = ApiKey::generate(account.id, account.created_at);
        self.store.insert_api_key(&key.record).await.expect("key");
        (account, key.secret.expose().to_owned())
    }

    /// The tracking request `document` (an answer of the API) is about, as stored now.
    pub async fn stored_request(&self, document: &Value) -> tidemark_domain::TrackingRequest {
        let id = document["data"]["id"].as_str().expect("an id");
        let id = tidemark_domain::TrackingRequestId::parse(id).expect("a request's id");
        self.store
            .tracking_request(self.account.id, id)
            .await
            .expect("read")
            .expect("stored")
    }

    pub fn request(&self, method: Method, path: &str, key: Option<&str>) -> RequestBuilder {
        let builder = self.client.request(method, format!("{}{path}", self.base));
        match key {
            Some(key) => builder.header("Authorization", format!("Token {key}")),
            None => builder,
        }
    }

    /// `method` on `path` with this app's key and no body.
    pub async fn call(&self, method: Method, path: &str) -> Response {
        self.request(method, path, Some(&self.key))
            .send()
            .await
            .expect("request")
    }

    pub async fn get(&self, path: &str) -> Response {
        self.call(Method::GET, path).await
    }

    /// `GET path`, asserting the answer came within `bound`.
    pub async fn get_within(&self, path: &str, bound: std::time::Duration) -> Response {
        let started = std::time::Instant::now();
        let response = self.get(path).await;
        let took = started.elapsed();
        assert!(
            took < bound,
            "{path} answered after {took:?}, beyond {bound:?}"
        );
        response
    }

    pub async fn get_as(&self, key: &str, path: &str) -> Response {
        self.request(Method::GET, path, Some(key))
            .send()
            .await
            .expect("request")
    }

    pub async fn post_json(&self, path: &str, key: &str, body: &Value) -> Response {
        self.request(Method::POST, path, Some(key))
            .header("Content-Type", JSON_API)
            .body(body.to_string())
            .send()
            .await
            .expect("request")
    }

    pub async fn create(&self, body: &Value) -> Response {
        self.post_json("/v2/tracking_requests", &self.key, body)
            .await
    }

    pub async fn patch(&self, path: &str, body: &Value) -> Response {
        self.request(Method::PATCH, path, Some(&self.key))
            .header("Content-Type", JSON_API)
            .body(body.to_string())
            .send()
            .await
            .expect("request")
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.shutdown.cancel();
    }
}

fn placeholder_account(clock: &dyn Clock) -> Account {
    Account {
        id: AccountId::new(),
        name: AccountName::parse("placeholder").expect("valid"),
        created_at: clock.now(),
    }
}

/// The API's settings with every SCAC served by the sandbox (`sandbox.all_carriers`, as
/// an operator asks for demos): tests create requests for real carriers' numbers, which
/// the default settings refuse as not configured.
pub fn all_carriers() -> ApiConfig {
    ApiConfig {
        coverage: tidemark_domain::Coverage::new([], tidemark_domain::SandboxScope::AllCarriers),
        ..ApiConfig::default()
    }
}

/// A create body.
pub fn tracking_request(kind: &str, number: &str, scac: &str) -> Value {
    json!({"data": {"type": "tracking_request", "attributes": {
        "request_type": kind, "request_number": number, "scac": scac}}})
}

/// The body as JSON, after checking the JSON:API media type.
pub async fn document(response: Response) -> Value {
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let text = response.text().await.expect("body");
    assert_eq!(content_type, JSON_API, "content type of {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Asserts a JSON:API error answer and returns its error objects.
pub async fn errors(response: Response, status: u16) -> Vec<Value> {
    assert_eq!(response.status().as_u16(), status, "status");
    let body = document(response).await;
    let errors = body["errors"].as_array().cloned().unwrap_or_default();
    assert!(!errors.is_empty(), "no errors in {body}");
    for error in &errors {
        assert_eq!(error["status"], status.to_string(), "{error}");
        for member in ["title", "detail", "code"] {
            assert!(
                error[member].as_str().is_some_and(|s| !s.is_empty()),
                "{member} missing in {error}"
            );
        }
    }
    errors
}

/// `(code, pointer)` of each error.
pub fn codes(errors: &[Value]) -> Vec<(String, String)> {
    errors
        .iter()
        .map(|e| {
            let source = &e["source"];
            let at = source["pointer"]
                .as_str()
                .or(source["parameter"].as_str())
                .or(source["header"].as_str());
            (
                e["code"].as_str().unwrap_or_default().to_owned(),
                at.unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The admin key of the tracking tests' simulator.
pub use tidemark_testkit::SIM_ADMIN_KEY;

pub mod relay;
mod tracking;
pub use tracking::{Tracking, with_tracking};

/// Runs `case` with a fresh app on `backend` that sends webhooks to loopback receivers
/// (`tidemark_testkit::Receiver`), and knows every carrier.
pub async fn with_receivers<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let config = ApiConfig {
        webhook_networks: tidemark_domain::webhook::Networks::parse_list("127.0.0.0/8")
            .expect("networks"),
        ..all_carriers()
    };
    if let Some(app) = TestApp::spawn_with(backend, config).await {
        case(app).await;
    }
}

/// Runs `case` with a fresh app on `backend` (skipped when the backend is unavailable).
pub async fn with_app<F, Fut>(backend: Backend, case: F)
where
    F: FnOnce(TestApp) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    if let Some(app) = TestApp::spawn(backend).await {
        case(app).await;
    }
}
