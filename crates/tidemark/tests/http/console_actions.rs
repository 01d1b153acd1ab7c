//! A shipment's page offers what can be done to its tracking: stop, resume and refresh,
//! each by the API's own use case, answered on the page; a refusal says why with the API's
//! status.

use reqwest::StatusCode;
use reqwest::header::LOCATION;

use crate::common::{TestApp, document, with_tracking};
use crate::console::{csrf, post_form};
use crate::console_truth::page;
use crate::shipments::{shipment_id, track};

tidemark_store::backends!(
    with_tracking,
    a_shipment_is_stopped_resumed_and_refreshed_from_its_page,
);

/// The request's status as the API reads it.
async fn status(t: &TestApp, request: &str) -> String {
    document(t.get(&format!("/v2/tracking_requests/{request}")).await).await["data"]
        ["attributes"]["status"]
        .as_str()
        .expect("a status")
        .to_owned()
}

async fn a_shipment_is_stopped_resumed_and_refreshed_from_its_page(t: TestApp) {
    let tracked = track(&t, "TEST-TR-SUCCEEDED", "TEST").await;
    let request = tracked["data"]["id"].as_str().expect("id").to_owned();
    let shipment = shipment_id(&tracked);
    let path = format!("/console/shipments/{shipment}");
    let shown = page(&t, &path).await;
    assert!(
        shown.contains(&format!(r#"action="{path}/stop""#)),
        "{shown}"
    );
    assert!(shown.contains(&format!(r#"action="{path}/refresh""#)));
    assert!(!shown.contains(&format!(r#"action="{path}/resume""#)));
    let token = csrf(&t, &t.key).await;

    let refused = post_form(&t, &format!("{path}/stop"), &t.key, &[]).await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN, "no token, no stop");
    assert_eq!(status(&t, &request).await, "created");

    let stopped = post_form(&t, &format!("{path}/stop"), &t.key, &[("csrf", &token)]).await;
    assert_eq!(stopped.status(), StatusCode::SEE_OTHER);
    let to = stopped.headers()[LOCATION].to_str().expect("a location");
    assert_eq!(to, format!("{path}?done=stop"));
    assert_eq!(status(&t, &request).await, "tracking_stopped");
    let shown = page(&t, to).await;
    assert!(shown.contains("Tracking stopped"), "{shown}");
    assert!(shown.contains(&format!(r#"action="{path}/resume""#)));
    assert!(!shown.contains(&format!(r#"action="{path}/stop""#)));

    // A stopped shipment is not refreshed: the page says why, with the API's status.
    let refresh = post_form(&t, &format!("{path}/refresh"), &t.key, &[("csrf", &token)]).await;
    assert_eq!(refresh.status(), StatusCode::CONFLICT);
    let said = refresh.text().await.expect("a page");
    assert!(said.contains("resume it first"), "{said}");

    let resumed = post_form(&t, &format!("{path}/resume"), &t.key, &[("csrf", &token)]).await;
    assert_eq!(resumed.status(), StatusCode::SEE_OTHER);
    assert_eq!(status(&t, &request).await, "created");
    let refreshed = post_form(&t, &format!("{path}/refresh"), &t.key, &[("csrf", &token)]).await;
    assert_eq!(refreshed.status(), StatusCode::SEE_OTHER);
    assert!(
        page(&t, &format!("{path}?done=refresh"))
            .await
            .contains("The line is asked now")
    );
}
