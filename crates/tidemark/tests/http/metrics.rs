//! `/metrics`: the Prometheus text format, read back by an independent parser
//! (`prometheus-parse`) and checked by Prometheus's own linter (`promtool check metrics`,
//! from Debian's `prometheus`): requests by route pattern, method and status; the
//! tracker's lookups by carrier and outcome and its terminal checks; the jobs due, each
//! webhook's backlog, requests by status and boxes on hold, read from the database; the
//! process and its build; a `# HELP` for every family. (Carriers' quota use:
//! `carrier_profiles.rs`.)

use crate::common::{TestApp, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    metrics_tell_requests_lookups_and_the_backlog,
    every_family_explains_itself_and_the_operators_gauges_count_the_boxes,
);

/// Prometheus's own checker, from Debian's `prometheus` package.
const PROMTOOL: &str = "/usr/bin/promtool";

/// The value of the sample `name` whose labels include `labels`.
fn sample(scrape: &prometheus_parse::Scrape, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    scrape
        .samples
        .iter()
        .find(|s| {
            s.metric == name
                && labels
                    .iter()
                    .all(|(key, value)| s.labels.get(key) == Some(*value))
        })
        .map(|s| match s.value {
            prometheus_parse::Value::Counter(v)
            | prometheus_parse::Value::Gauge(v)
            | prometheus_parse::Value::Untyped(v) => v,
            prometheus_parse::Value::Histogram(ref buckets) => {
                buckets.last().map_or(0.0, |bucket| bucket.count)
            }
            prometheus_parse::Value::Summary(_) => 0.0,
        })
}

/// `/metrics` as text.
async fn text(t: &TestApp) -> String {
    let response = t.get("/metrics").await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .expect("text")
            .starts_with("text/plain; version=0.0.4")
    );
    response.text().await.expect("text")
}

async fn scrape(t: &TestApp) -> prometheus_parse::Scrape {
    let text = text(t).await;
    let lines = text.lines().map(|line| Ok(line.to_owned()));
    prometheus_parse::Scrape::parse(lines).expect("the Prometheus text format")
}

/// Requests counted by route pattern and timed, never by raw path; what was scraped after.
async fn requests_are_counted_by_route(t: &TestApp) -> prometheus_parse::Scrape {
    let before = scrape(t).await;
    let listed = |s: &prometheus_parse::Scrape| {
        sample(
            s,
            "tidemark_http_requests_total",
            &[
                ("route", "/v2/tracking_requests/:id"),
                ("method", "GET"),
                ("status", "404"),
            ],
        )
        .unwrap_or(0.0)
    };
    let missing = "/v2/tracking_requests/01937c7e-0000-7000-8000-000000000000";
    assert_eq!(t.get(missing).await.status(), 404);
    assert_eq!(t.get(missing).await.status(), 404);
    // Other tests in this process count too: at least the two asked here.
    let after = scrape(t).await;
    assert!(
        listed(&after) >= listed(&before) + 2.0,
        "by route pattern, never the id"
    );
    assert!(
        after
            .samples
            .iter()
            .all(|s| !s.labels.values().any(|v| v.contains("01937c7e"))),
        "no raw path in a label"
    );
    assert!(
        sample(
            &after,
            "tidemark_http_request_duration_seconds_count",
            &[("method", "GET")]
        )
        .is_some(),
        "latency, as a histogram"
    );
    after
}

async fn metrics_tell_requests_lookups_and_the_backlog(t: TestApp) {
    tidemark_api::metrics::handle();
    let after = requests_are_counted_by_route(&t).await;

    // A lookup of the sandbox's line, counted by carrier and outcome.
    let found = |s: &prometheus_parse::Scrape| {
        sample(
            s,
            "tidemark_lookups_total",
            &[("carrier", "TEST"), ("outcome", "found")],
        )
        .unwrap_or(0.0)
    };
    let counted = found(&after);
    t.subscribe("https://hooks.example.com/metrics").await;
    track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let tracked = scrape(&t).await;
    assert!(found(&tracked) >= counted + 1.0, "the lookup counted");
    // Its news waits for the dispatcher (not run here): the webhook's backlog.
    let waiting = tracked
        .samples
        .iter()
        .filter(|s| s.metric == "tidemark_webhook_backlog")
        .count();
    assert_eq!(waiting, 1, "one webhook, with notifications waiting");
    assert!(sample(&tracked, "tidemark_webhook_backlog", &[]).is_some_and(|n| n >= 1.0));

    // The backlog, read from the database: nothing due once drained; a request just
    // created is a lookup due.
    assert_eq!(
        sample(&tracked, "tidemark_jobs_due", &[("kind", "lookup")]),
        Some(0.0)
    );
    let retried = sample(&tracked, "tidemark_store_writes_retried_total", &[]);
    assert_eq!(
        retried,
        Some(0.0),
        "no write was cancelled and written again"
    );
    let created = t
        .create(&crate::common::tracking_request(
            "booking_number",
            "TEST-TR-JOURNEY",
            "TEST",
        ))
        .await;
    assert_eq!(created.status(), 201);
    let waiting = scrape(&t).await;
    assert_eq!(
        sample(&waiting, "tidemark_jobs_due", &[("kind", "lookup")]),
        Some(1.0)
    );
}

/// The families `text` declares with `# TYPE`, and those it explains with `# HELP`.
fn declared(text: &str) -> (Vec<&str>, Vec<&str>) {
    let named = |prefix: &str| {
        text.lines()
            .filter_map(|line| line.strip_prefix(prefix))
            .filter_map(|rest| rest.split_whitespace().next())
            .collect::<Vec<_>>()
    };
    (named("# TYPE "), named("# HELP "))
}

async fn every_family_explains_itself_and_the_operators_gauges_count_the_boxes(t: TestApp) {
    tidemark_api::metrics::handle();
    t.subscribe("https://hooks.example.com/metrics").await;
    // Customs holds the box after its release; its terminal is checked on the way.
    track(&t, "TEST-TR-RELEASE-TAKEN-BACK", "TEST").await;
    for _ in 0..10 {
        t.advance(time::Duration::hours(1));
        t.drain().await;
    }
    let text = text(&t).await;
    let (types, helps) = declared(&text);
    assert!(types.len() >= 20, "{types:?}");
    for family in &types {
        assert!(helps.contains(family), "{family} has no # HELP");
    }
    let scrape = scrape(&t).await;
    let value = |name: &str, labels: &[(&str, &str)]| sample(&scrape, name, labels);
    let containers = t.get("/v2/containers?filter[has_holds]=true").await;
    let held = crate::common::document(containers).await["meta"]["total"].clone();
    assert!(held.as_f64().is_some_and(|n| n >= 1.0), "{held}");
    assert_eq!(value("tidemark_containers_on_hold", &[]), held.as_f64());
    assert_eq!(
        value("tidemark_tracking_requests", &[("status", "created")]),
        Some(1.0)
    );
    assert_eq!(
        value("tidemark_tracking_requests", &[("status", "failed")]),
        Some(0.0),
        "every status is told, none as a missing series"
    );
    assert!(
        value("tidemark_containers_past_last_free_day", &[]).is_some(),
        "{text}"
    );
    assert!(
        value("tidemark_webhook_oldest_pending_seconds", &[]).is_some_and(|s| s > 0.0),
        "the deliveries wait for a dispatcher that is not run here"
    );
    assert!(
        value("tidemark_terminal_checks_total", &[("outcome", "answered")])
            .is_some_and(|n| n >= 1.0)
    );
    assert!(value("tidemark_build_info", &[]).is_some_and(|one| (one - 1.0).abs() < f64::EPSILON));
    assert!(value("process_resident_memory_bytes", &[]).is_some_and(|b| b > 0.0));
    promtool_finds_nothing(&text);
}

/// `promtool check metrics` reads `text` and reports nothing. Without Debian's
/// `prometheus` the check says it was skipped, unless `TIDEMARK_REQUIRE_PROMTOOL` is set
/// (as in `.ci/run`), when it fails.
fn promtool_finds_nothing(text: &str) {
    use std::io::Write;
    if !std::path::Path::new(PROMTOOL).exists() {
        assert!(
            std::env::var_os("TIDEMARK_REQUIRE_PROMTOOL").is_none(),
            "TIDEMARK_REQUIRE_PROMTOOL is set but {PROMTOOL} is missing"
        );
        eprintln!("skipped: install Debian's prometheus to check /metrics with promtool");
        return;
    }
    let mut child = std::process::Command::new(PROMTOOL)
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("promtool starts");
    child
        .stdin
        .take()
        .expect("its input")
        .write_all(text.as_bytes())
        .expect("the scrape written to promtool");
    let out = child.wait_with_output().expect("promtool ends");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "promtool: {said}");
    assert_eq!(said.trim(), "", "promtool reports nothing");
}
