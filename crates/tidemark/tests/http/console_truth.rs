//! What the console shows is what the data says (api.md §4): the overview's lists are
//! disjoint (a box that left or a held box is never "available"), voyage times are local to
//! their port, a last free day is a local date that counts down, a late arrival says so,
//! superseded estimates fold into an ETA history, and a webhook failing every delivery
//! says so.

use reqwest::header::COOKIE;
use tidemark_domain::Clock;
use tidemark_domain::local_time::Zone;
use tidemark_domain::webhook::{Attempt, Settlement};

use crate::common::{TestApp, document, with_tracking};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    the_overview_lists_are_disjoint_and_times_are_local,
    a_webhook_failing_every_delivery_says_so,
    superseded_estimates_fold_into_the_eta_history,
);

/// The console page at `path`, signed in with the app's key; it must answer 200.
pub(crate) async fn page(t: &TestApp, path: &str) -> String {
    let response = reqwest::Client::new()
        .get(format!("{}{path}", t.base))
        .header(COOKIE, format!("tidemark_session={}", t.key))
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 200, "{path}");
    response.text().await.expect("a page")
}

/// The rows of the overview's list titled `title`: the text between its heading and the
/// next section.
fn section<'a>(page: &'a str, title: &str) -> &'a str {
    let start = page
        .find(title)
        .unwrap_or_else(|| panic!("{title} in {page}"));
    let rest = &page[start..];
    &rest[..rest.find("</section>").unwrap_or(rest.len())]
}

async fn the_overview_lists_are_disjoint_and_times_are_local(t: TestApp) {
    let request = track(&t, "TEST-TR-RELEASE-TAKEN-BACK", "TEST").await;
    t.advance(time::Duration::hours(2));
    t.drain().await;
    let numbers: Vec<String> = document(t.get("/v2/containers").await).await["data"]
        .as_array()
        .expect("containers")
        .iter()
        .map(|c| {
            c["attributes"]["number"]
                .as_str()
                .expect("a number")
                .to_owned()
        })
        .collect();
    let overview = page(&t, "/console").await;
    for number in &numbers {
        assert!(section(&overview, "Available for pickup").contains(number.as_str()));
        assert!(!section(&overview, "On hold").contains(number.as_str()));
    }
    // Held by customs while the terminal's flag still says available: on hold only.
    t.advance(time::Duration::hours(8));
    t.drain().await;
    let overview = page(&t, "/console").await;
    for number in &numbers {
        assert!(!section(&overview, "Available for pickup").contains(number.as_str()));
        assert!(section(&overview, "On hold").contains(number.as_str()));
    }

    let shipment = request["data"]["relationships"]["tracked_object"]["data"]["id"]
        .as_str()
        .expect("a shipment");
    let html = page(&t, &format!("/console/shipments/{shipment}")).await;
    // The arrival in its port's local time, as the IANA rules have it there.
    let api = document(t.get(&format!("/v2/shipments/{shipment}")).await).await;
    let zone_name = api["data"]["attributes"]["pod_timezone"]
        .as_str()
        .expect("the port of discharge's zone")
        .to_owned();
    let eta = api["data"]["attributes"]["pod_eta_at"]
        .as_str()
        .and_then(|at| tidemark_domain::Timestamp::parse_rfc3339(at).ok())
        .expect("an estimate");
    let local = Zone::named(&zone_name).expect("a zone").local(eta);
    let shown = format!("{} {} {}", local.date, local.time, local.abbreviation);
    assert!(html.contains(&shown), "{shown} in {html}");
    assert!(html.contains("UTC\">"), "UTC on hover");
    assert!(html.contains("Against the first estimate"), "{html}");
    let container = document(t.get("/v2/containers").await).await["data"][0]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let html = page(&t, &format!("/console/containers/{container}")).await;
    let zone = format!("({zone_name})");
    assert!(
        html.contains(&zone),
        "the last free day is the port's: {html}"
    );
    assert!(html.contains("tone-warn"), "on hold, in amber: {html}");
}

async fn a_webhook_failing_every_delivery_says_so(t: TestApp) {
    t.subscribe("https://hooks.example.com/nobody-home").await;
    track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let webhooks = page(&t, "/console/webhooks").await;
    assert!(
        !webhooks.contains("every delivery failing"),
        "nothing attempted yet"
    );
    // Every delivery is attempted and refused, and retried later, as a dispatcher
    // records a receiver's 503.
    let claimed = t.claim_due().await;
    assert!(!claimed.is_empty());
    let attempt = Attempt {
        at: t.clock.now(),
        status_code: Some(503),
        error: None,
        latency_ms: 12,
        response_body: None,
    };
    let retry = Settlement::Retry(t.clock.now() + std::time::Duration::from_secs(60));
    let long_ago = tidemark_domain::Timestamp::from_datetime(
        t.clock.now().as_datetime() - time::Duration::days(1),
    );
    for notification in &claimed {
        assert!(
            t.store
                .settle_notification(notification, &attempt, &retry, long_ago)
                .await
                .expect("settled")
        );
    }
    let webhooks = page(&t, "/console/webhooks").await;
    assert!(webhooks.contains("every delivery failing"), "{webhooks}");
    let counted = format!("{} of {}", claimed.len(), claimed.len());
    assert!(webhooks.contains(&counted), "{counted} in {webhooks}");
}

async fn superseded_estimates_fold_into_the_eta_history(t: TestApp) {
    track(&t, "TEST-TR-JOURNEY", "TEST").await;
    let estimates = async || {
        let Some(first) = document(t.get("/v2/containers").await).await["data"][0]["id"]
            .as_str()
            .map(str::to_owned)
        else {
            return 0;
        };
        let path = format!("/v2/containers/{first}/transport_events");
        document(t.get(&path).await).await["data"]
            .as_array()
            .expect("events")
            .iter()
            .filter(|e| {
                e["attributes"]["event"]
                    .as_str()
                    .is_some_and(|name| name.contains(".estimated."))
            })
            .count()
    };
    // The voyage plays out; the line revises its estimates on the way.
    for _ in 0..80 {
        if estimates().await >= 2 {
            break;
        }
        t.advance(time::Duration::hours(12));
        t.drain().await;
    }
    let count = estimates().await;
    assert!(
        count >= 2,
        "the sandbox's line revises its estimates: {count}"
    );
    let shipment = document(t.get("/v2/shipments").await).await["data"][0]["id"]
        .as_str()
        .expect("a shipment")
        .to_owned();
    let html = page(&t, &format!("/console/shipments/{shipment}")).await;
    assert!(
        html.contains(&format!("ETA history ({count} estimates)")),
        "{html}"
    );
    // The timeline keeps the milestones and one current expectation, never the estimates.
    let timeline = &html[..html.find("ETA history").expect("a history")];
    let timeline = &timeline[timeline.rfind("<ol>").expect("a timeline")..];
    assert!(!timeline.contains("Estimated"), "{timeline}");
}
