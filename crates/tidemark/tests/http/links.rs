//! Absolute links (api.md §1 "Links"): every link an answer carries is a URL a client can
//! follow as it is: on the host the request named, on the proxy's forwarded host only when
//! the operator trusts it, and on the configured public URL when there is one, in the
//! webhook notifications' frozen records too.

use reqwest::Method;
use serde_json::Value;
use tidemark_store::testing::Backend;

use crate::common::{TestApp, document, tracking_request, with_app};
use crate::shipments::track;

tidemark_store::backends!(with_app, a_client_pages_by_following_links_next_as_urls,);

async fn a_client_pages_by_following_links_next_as_urls(app: TestApp) {
    let mut created = Vec::new();
    for number in ["MEDU1000001", "MEDU1000002", "MEDU1000003"] {
        let response = app
            .create(&tracking_request("bill_of_lading", number, "MSCU"))
            .await;
        let location = response.headers()["location"]
            .to_str()
            .expect("a Location")
            .to_owned();
        let body = document(response).await;
        let id = body["data"]["id"].as_str().expect("an id").to_owned();
        let own = app.link(&format!("/v2/tracking_requests/{id}"));
        assert_eq!(location, own);
        assert_eq!(body["data"]["links"]["self"], own.as_str());
        created.push(id);
    }
    let mut seen = Vec::new();
    let mut next = Some(app.link("/v2/tracking_requests?page[size]=1"));
    while let Some(url) = next.take() {
        assert!(
            url.starts_with(&app.link("/v2/tracking_requests?")),
            "{url}"
        );
        let page = document(app.get(&url).await).await;
        for link in ["self", "first", "last", "current"] {
            let value = page["links"][link].as_str().unwrap_or_default();
            assert!(value.starts_with(&app.link("/")), "{link}: {value}");
        }
        seen.extend(
            page["data"]
                .as_array()
                .expect("data")
                .iter()
                .map(|r| r["id"].as_str().expect("id").to_owned()),
        );
        next = page["links"]["next"].as_str().map(str::to_owned);
        assert!(seen.len() <= created.len(), "the pages end");
    }
    seen.sort();
    created.sort();
    assert_eq!(seen, created);

    // A client's forwarded headers are not believed by default.
    let page = forwarded(&app, "/v2/tracking_requests").await;
    let own = page["links"]["self"].as_str().unwrap_or_default();
    assert!(own.starts_with(&app.link("/v2/")), "{own}");
}

/// `GET path` as a proxy forwards it from `https://track.example.com`.
async fn forwarded(app: &TestApp, path: &str) -> Value {
    document(
        app.request(Method::GET, path, Some(&app.key))
            .header("X-Forwarded-Proto", "https")
            .header("X-Forwarded-Host", "track.example.com")
            .send()
            .await
            .expect("request"),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_names_the_links_host() {
    let app = TestApp::build(Backend::Sqlite)
        .config(|config| config.http.trust_forwarded_headers = true)
        .spawn()
        .await;
    let page = forwarded(&app, "/v2/tracking_requests?page[size]=5").await;
    assert_eq!(
        page["links"]["self"],
        "https://track.example.com/v2/tracking_requests?page%5Bnumber%5D=1&page%5Bsize%5D=5"
    );
    // Without them, the host the request named.
    let page = document(app.get("/v2/tracking_requests").await).await;
    let own = page["links"]["self"].as_str().unwrap_or_default();
    assert!(own.starts_with(&app.link("/v2/")), "{own}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_url_is_the_base_of_every_link_and_of_notifications() {
    let app = TestApp::build(Backend::Sqlite)
        .world_clock()
        .config(|config| {
            config.http.public_url = Some("https://example.com/tidemark/".to_owned());
            config.http.trust_forwarded_headers = true;
        })
        .spawn()
        .await;
    let subscribed = app
        .post_json(
            "/v2/webhooks",
            &app.key,
            &serde_json::json!({"data": {"type": "webhook",
                "attributes": {"url": "https://hooks.example.com/tidemark"}}}),
        )
        .await;
    assert_eq!(subscribed.status(), 201);
    let request = track(&app, "TEST-TR-SUCCEEDED", "TEST").await;
    let id = request["data"]["id"].as_str().expect("id");
    let base = "https://example.com/tidemark";
    assert_eq!(
        request["data"]["links"]["self"],
        format!("{base}/v2/tracking_requests/{id}")
    );
    let page = forwarded(&app, "/v2/containers").await;
    let container = &page["data"][0];
    assert!(
        container["relationships"]["transport_events"]["links"]["related"]
            .as_str()
            .is_some_and(|link| link.starts_with(&format!("{base}/v2/containers/"))),
        "{container}"
    );
    let root = document(app.get("/").await).await;
    assert_eq!(root["links"]["api"], format!("{base}/v2"));
    // The records frozen into notifications when the event was recorded, too.
    let claimed = app.claim_due().await;
    let succeeded = claimed
        .iter()
        .find(|c| c.notification.event == "tracking_request.succeeded")
        .expect("the success, recorded for the webhook");
    assert!(!succeeded.included.is_empty());
    for record in &succeeded.included {
        let own = record["links"]["self"].as_str().unwrap_or_default();
        assert!(own.starts_with(base), "{own}");
    }
}
