//! `/metrics`: the Prometheus text format, read back by an independent parser
//! (`prometheus-parse`): requests by route pattern, method and status; the tracker's
//! lookups by carrier and outcome; the jobs due and each webhook's backlog, read from the
//! database. (Carriers' quota use: `carrier_profiles.rs`.)

use crate::common::{Tracking, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(with_tracking, metrics_tell_requests_lookups_and_the_backlog);

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

async fn scrape(t: &Tracking) -> prometheus_parse::Scrape {
    let response = t.app.get("/metrics").await;
    assert_eq!(response.status(), 200);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .expect("text")
            .starts_with("text/plain; version=0.0.4")
    );
    let text = response.text().await.expect("text");
    let lines = text.lines().map(|line| Ok(line.to_owned()));
    prometheus_parse::Scrape::parse(lines).expect("the Prometheus text format")
}

/// Requests counted by route pattern and timed, never by raw path; what was scraped after.
async fn requests_are_counted_by_route(t: &Tracking) -> prometheus_parse::Scrape {
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
    assert_eq!(t.app.get(missing).await.status(), 404);
    assert_eq!(t.app.get(missing).await.status(), 404);
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

async fn metrics_tell_requests_lookups_and_the_backlog(t: Tracking) {
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
        .app
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
