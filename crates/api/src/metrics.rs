//! `/metrics` in the Prometheus text format (exposition format 0.0.4), for the process
//! that serves the API: its requests by route, method and status, and their latency; what
//! the workers in the process record (lookups by carrier and outcome, terminal checks by
//! terminal and outcome, webhook deliveries by webhook and outcome, each with its
//! latency); the process itself (`process_*`: memory, CPU, open files, threads) and its
//! build; and, read from the database at each scrape, the jobs due and how long the oldest
//! has waited, each webhook's notifications waiting and the oldest delivery owed, each
//! carrier's quota used today, tracking requests by status, and the boxes on hold or past
//! their last free day, whichever process does the work.
//!
//! Every family has its `# HELP` text, written once in `tidemark_wire::metrics`. The
//! recorder is the process's one global (`metrics`), so every crate records with the
//! `metrics` macros; it is installed by [`handle`] on first use.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request, State};
use axum::http::Method;
use axum::http::header::CONTENT_TYPE;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use metrics::{Counter, Histogram};
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tidemark_domain::JobKind;
use tidemark_wire::metrics::{self as families, Family, Kind};

use crate::AppState;

/// Latency buckets, in seconds: a millisecond to ten seconds.
const BUCKETS: [f64; 13] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The process's Prometheus recorder, installed on first use (a recorder another part of
/// the process installed first is left alone: this one then renders what it holds).
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let builder = PrometheusBuilder::new();
        let builder = match builder.set_buckets(&BUCKETS) {
            Ok(with_buckets) => with_buckets,
            Err(error) => {
                tracing::warn!(%error, "metrics: latency buckets refused; summaries instead");
                PrometheusBuilder::new()
            }
        };
        let recorder = builder.build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("metrics: another recorder was installed first");
        }
        families::ALL.iter().for_each(describe);
        process().describe();
        handle
    })
}

/// Gives `family` its `# HELP` text.
fn describe(family: &Family) {
    let (name, help) = (family.name, family.help);
    match family.kind {
        Kind::Counter => metrics::describe_counter!(name, help),
        Kind::Gauge => metrics::describe_gauge!(name, help),
        Kind::Histogram => metrics::describe_histogram!(name, help),
    }
}

/// The collector of the process's own figures (`process_*`).
fn process() -> &'static metrics_process::Collector {
    static COLLECTOR: OnceLock<metrics_process::Collector> = OnceLock::new();
    COLLECTOR.get_or_init(metrics_process::Collector::default)
}

/// Records each request: `tidemark_http_requests_total` and
/// `tidemark_http_request_duration_seconds`, by route pattern (`/v2/shipments/:id`: never
/// the raw path, so ids do not multiply the series), method and status.
pub async fn record(request: Request, next: Next) -> Response {
    let route = request.extensions().get::<MatchedPath>().cloned();
    let method = method_label(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16();
    let route = route.as_ref().map_or("unmatched", MatchedPath::as_str);
    let (count, latency) = handles(route, method, status);
    count.increment(1);
    latency.record(started.elapsed().as_secs_f64());
    response
}

/// A method as a label: the standard ones by name, any other as `other` (so a client
/// cannot multiply the series).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::PATCH => "PATCH",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}

/// A request's counter and latency histogram: registered once per thread and series, then
/// reused, so that a request builds no labels and takes no lock.
fn handles(route: &str, method: &'static str, status: u16) -> (Counter, Histogram) {
    type Series = HashMap<(&'static str, u16), (Counter, Histogram)>;
    thread_local! {
        static HANDLES: RefCell<HashMap<String, Series>> = RefCell::new(HashMap::new());
    }
    let register = || {
        handle();
        let label = label_of(route);
        (
            metrics::counter!(
                families::HTTP_REQUESTS.name,
                "route" => label.clone(), "method" => method, "status" => status.to_string()
            ),
            metrics::histogram!(
                families::HTTP_REQUEST_DURATION.name,
                "route" => label, "method" => method
            ),
        )
    };
    HANDLES.with_borrow_mut(|routes| {
        if let Some(series) = routes.get_mut(route) {
            return series
                .entry((method, status))
                .or_insert_with(register)
                .clone();
        }
        let series = routes.entry(route.to_owned()).or_default();
        series
            .entry((method, status))
            .or_insert_with(register)
            .clone()
    })
}

/// A route pattern as a label: `/v2/shipments/{id}` as `/v2/shipments/:id` (braces in a
/// label value trip some readers of the format).
fn label_of(pattern: &str) -> String {
    pattern.replace('{', ":").replace('}', "")
}

/// `GET /metrics`.
pub async fn scrape(State(state): State<AppState>) -> Response {
    let handle = handle();
    metrics::counter!(families::STORE_WRITES_RETRIED.name).absolute(state.store.writes_retried());
    metrics::counter!(families::STORAGE_FULL_REFUSALS.name)
        .absolute(state.store.storage_refusals());
    metrics::gauge!(
        families::BUILD_INFO.name,
        "version" => env!("CARGO_PKG_VERSION"), "backend" => state.store.backend()
    )
    .set(1.0);
    process().collect();
    if let Err(error) = from_database(&state).await {
        tracing::warn!(%error, "metrics: the database's figures could not be read");
    }
    handle.run_upkeep();
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        handle.render(),
    )
        .into_response()
}

/// A count as a gauge's value.
#[allow(clippy::cast_precision_loss, reason = "counts far below 2^52")]
const fn figure(count: u64) -> f64 {
    count as f64
}

/// The gauges read from the database: the job backlog, each webhook's backlog and the
/// oldest delivery owed, each carrier's quota used today, requests by status, and the boxes
/// on hold or past their last free day.
async fn from_database(state: &AppState) -> Result<(), tidemark_store::StoreError> {
    let now = state.clock.now();
    let waited = |since: Option<tidemark_domain::Timestamp>| {
        since.map_or(0.0, |at| now.seconds_since(at).max(0.0))
    };
    for kind in JobKind::ALL {
        let (due, oldest) = state.store.jobs_due(kind, now).await?;
        metrics::gauge!(families::JOBS_DUE.name, "kind" => kind.as_str()).set(figure(due));
        metrics::gauge!(families::JOBS_OLDEST_DUE.name, "kind" => kind.as_str())
            .set(waited(oldest));
    }
    for (webhook, waiting) in state.store.webhook_backlogs().await? {
        metrics::gauge!(families::WEBHOOK_BACKLOG.name, "webhook" => webhook.to_string())
            .set(figure(waiting));
    }
    let gauges = state.store.gauges(now).await?;
    for (status, count) in &gauges.requests {
        metrics::gauge!(families::TRACKING_REQUESTS.name, "status" => status.as_str())
            .set(figure(*count));
    }
    metrics::gauge!(families::CONTAINERS_ON_HOLD.name).set(figure(gauges.containers_on_hold));
    metrics::gauge!(families::CONTAINERS_PAST_LAST_FREE_DAY.name)
        .set(figure(gauges.containers_past_last_free_day));
    metrics::gauge!(families::WEBHOOK_OLDEST_PENDING.name)
        .set(waited(gauges.oldest_pending_delivery));
    let today = tidemark_domain::quota::Quota::day_of(now);
    let coverage = &state.config.coverage;
    for scac in coverage.endpoints() {
        let Some(endpoint) = coverage.endpoint(scac) else {
            continue;
        };
        let used = state
            .store
            .quota_state(scac)
            .await?
            .filter(|quota| quota.day == today)
            .map_or(0, |quota| quota.used);
        let carrier = scac.as_str().to_owned();
        metrics::gauge!(families::CARRIER_CALLS_TODAY.name, "carrier" => carrier.clone())
            .set(figure(u64::try_from(used).unwrap_or(0)));
        if let Some(per_day) = endpoint.quota.per_day {
            metrics::gauge!(families::CARRIER_CALLS_PER_DAY.name, "carrier" => carrier)
                .set(f64::from(per_day.get()));
        }
    }
    Ok(())
}
