//! The web console in headless Chromium, driven over WebDriver (`chromedriver`), against
//! `tidemark serve` with its sandbox: sign in, create a request for a sandbox number with
//! the carrier suggested as it is typed, watch it become `created`, open its shipment's
//! timeline and a container, redeliver a notification and send a test.
//!
//! Needs Debian's `chromium` and `chromium-driver`. Without them the test is compiled as
//! ignored and reported as skipped (`build/optional_tests.rs`), unless
//! `TIDEMARK_REQUIRE_BROWSER` is set (as in `.ci/run`), when it runs and fails.
//! `TIDEMARK_CONSOLE_SCREENSHOTS=<dir>` keeps a screenshot of each page there (the ones
//! in `docs/console/` were made so).

#[path = "browser/chrome.rs"]
mod chrome;
#[path = "browser/every_size.rs"]
mod every_size;
mod serve;
#[path = "browser/workspace.rs"]
mod workspace;

use std::time::{Duration, Instant};

use chrome::{browser, click, driver, live_until, reload_until, shoot, shots, shows, text};
use fantoccini::{Client, Locator};
use serde_json::json;
use serve::Served;
use tidemark_testkit::{Receiver, poll_until};

async fn sign_in(client: &Client, base: &str, key: &str) {
    client.goto(&format!("{base}/console")).await.expect("open");
    let url = client.current_url().await.expect("url");
    assert_eq!(
        url.path(),
        "/console/sign-in",
        "signed out, the console asks for a key"
    );
    client
        .find(Locator::Id("key"))
        .await
        .expect("key field")
        .send_keys(key)
        .await
        .expect("typed");
    click(client, Locator::Css("form button[type=submit]")).await;
    text(client, ".counts").await;
    assert_eq!(text(client, "h1").await, "Overview");
    let cookies = client.get_all_cookies().await.expect("cookies");
    let session = cookies
        .iter()
        .find(|cookie| cookie.name() == "tidemark_session")
        .expect("the session cookie");
    assert_eq!(session.http_only(), Some(true));
    assert_eq!(
        session.same_site().map(|same| same.to_string()).as_deref(),
        Some("Strict")
    );
    let seen = client
        .execute(
            "return [document.cookie, localStorage.length, sessionStorage.length];",
            vec![],
        )
        .await
        .expect("script");
    assert_eq!(
        seen,
        json!(["", 0, 0]),
        "no script can read the key, none is stored"
    );
}

/// Types a number into the create form, waits for the suggestion, and creates a
/// request for the sandbox number `number`.
async fn create(client: &Client, base: &str, number: &str) {
    client
        .goto(&format!("{base}/console/requests"))
        .await
        .expect("open");
    let field = client
        .find(Locator::Id("request_number"))
        .await
        .expect("field");
    field.send_keys("MSKU3054388").await.expect("typed");
    let from = Instant::now();
    poll_until(
        from,
        Duration::from_secs(10),
        || "no suggestion".into(),
        || async { text(client, "#suggestion").await.contains("Maersk (MAEU)") },
    )
    .await;
    let scac = client.find(Locator::Id("scac")).await.expect("scac");
    assert_eq!(
        scac.prop("value").await.expect("value").as_deref(),
        Some("MAEU")
    );
    field.clear().await.expect("cleared");
    field.send_keys(number).await.expect("typed");
    scac.clear().await.expect("cleared");
    scac.send_keys("TEST").await.expect("typed");
    client
        .find(Locator::Id("request_type"))
        .await
        .expect("type")
        .select_by_value("bill_of_lading")
        .await
        .expect("selected");
    click(client, Locator::Css("#create button[type=submit]")).await;
    shows(client, ".notice", "created").await;
}

/// Opens the webhook's log, waits for the request's success notification to be
/// delivered, redelivers it and sees it arrive again; then sends a test.
async fn redeliver(client: &Client, base: &str, receiver: &Receiver) {
    client
        .goto(&format!("{base}/console/webhooks"))
        .await
        .expect("open");
    click(client, Locator::Css("table a[href^='/console/webhooks/']")).await;
    let row = "#log tr[data-id]:last-child";
    text(client, "#log").await;
    reload_until(client, row, "succeeded", Duration::from_secs(30)).await;
    let id = client
        .find(Locator::Css(row))
        .await
        .expect("row")
        .attr("data-id")
        .await
        .expect("attribute")
        .expect("an id");
    let arrivals = || {
        receiver
            .got()
            .iter()
            .filter(|(headers, _)| headers.get("webhook-id").is_some_and(|v| v == id.as_str()))
            .count()
    };
    assert_eq!(arrivals(), 1);
    click(client, Locator::Css(&format!("{row} button"))).await;
    shows(client, ".notice", "due again").await;
    let from = Instant::now();
    poll_until(
        from,
        Duration::from_secs(15),
        || "not redelivered".into(),
        || async { arrivals() == 2 },
    )
    .await;
    client
        .find(Locator::Css("select[name=event]"))
        .await
        .expect("events")
        .select_by_value("container.transport.vessel_arrived")
        .await
        .expect("selected");
    click(client, Locator::Css("form[action$='/test'] button")).await;
    let result = text(client, "#test-result").await;
    assert!(
        result.contains("HTTP 200") && result.contains("delivered"),
        "{result}"
    );
}

/// The arrival is still expected, and voyage times are local to their port (the sandbox
/// loads in Asia), UTC on hover.
async fn times_are_local(client: &Client) {
    assert!(
        !client
            .find_all(Locator::Css(".timeline li.estimated"))
            .await
            .expect("steps")
            .is_empty(),
        "the arrival is still expected"
    );
    let first = client
        .find(Locator::Css(".timeline li.actual time"))
        .await
        .expect("a milestone's time");
    let shown = first.text().await.expect("text");
    let hover = first
        .attr("title")
        .await
        .expect("title")
        .unwrap_or_default();
    assert!(hover.ends_with(" UTC"), "{hover}");
    assert!(!shown.ends_with(" UTC"), "local, not UTC: {shown}");
}

/// The overview's lists never share a box: available means released, with no hold in
/// force, and not gone.
async fn the_overview_lists_are_disjoint(client: &Client) {
    let listed = async |title: &str| -> Vec<String> {
        let path = format!("//section[h2[starts-with(normalize-space(.), '{title}')]]//td/a");
        let mut numbers = Vec::new();
        for link in client.find_all(Locator::XPath(&path)).await.expect("rows") {
            numbers.push(link.text().await.expect("a number"));
        }
        numbers
    };
    let held = listed("On hold").await;
    let available = listed("Available for pickup").await;
    assert!(
        held.iter().all(|number| !available.contains(number)),
        "{held:?} and {available:?}"
    );
}

/// Finds the shipment by part of its number from the navigation's search box: the
/// shipments list, filtered, keeps the search in its form.
async fn find_and_list(client: &Client, base: &str) {
    client.goto(&format!("{base}/console")).await.expect("open");
    client
        .find(Locator::Css("header .search input[name=q]"))
        .await
        .expect("the search box")
        .send_keys("TR-HOLDS\u{E007}")
        .await
        .expect("typed");
    text(client, "#shipments").await;
    assert_eq!(text(client, "#total").await, "1 found");
    assert!(
        text(client, "#shipments tbody")
            .await
            .contains("TEST-TR-HOLDS")
    );
    let url = client.current_url().await.expect("url");
    assert_eq!(url.path(), "/console/shipments");
}

/// The API reference, rendered by the script built into the binary (this machine has no
/// route to the internet: the page renders with the network cut off).
async fn reference(client: &Client, base: &str, dir: &std::path::Path) {
    client.goto(&format!("{base}/docs")).await.expect("open");
    client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css("[id='tag/Tracking-requests']"))
        .await
        .expect("the reference renders its sections");
    let page = text(client, "body").await;
    assert!(
        page.contains("Create a tracking request"),
        "the operations are listed"
    );
    assert!(
        page.contains("tracking_request.succeeded"),
        "the deliveries are listed"
    );
    shoot(client, dir, "reference").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(tidemark_browser_tests),
    ignore = "install Debian's chromium and chromium-driver to run the browser test"
)]
async fn the_console_in_a_browser() {
    let driver = driver();
    let (receiver, url) = Receiver::start(&[]).await;
    let server = Served::start(&["--webhook-allowed-networks", "127.0.0.0/8"], &[]);
    let base = format!("http://{}", server.address);
    let hook = reqwest::Client::new()
        .post(format!("{base}/v2/webhooks"))
        .header("Authorization", format!("Token {}", server.key))
        .header("Content-Type", "application/vnd.api+json")
        .body(
            json!({"data": {"type": "webhook", "attributes": {"url": url, "active": true}}})
                .to_string(),
        )
        .send()
        .await
        .expect("webhook");
    assert_eq!(hook.status(), 201);
    // Two more requests, so that the overview has a failure and a last free day to show.
    for number in ["TEST-TR-FAILED", "TEST-TR-LFD-EXTENDED"] {
        assert_eq!(server.create(number, "TEST").await.status(), 201);
    }
    let temporary = tempfile::tempdir().expect("dir");
    let dir = shots(temporary.path());
    let client = browser(&driver, &temporary.path().join("profile")).await;

    sign_in(&client, &base, &server.key).await;
    create(&client, &base, "TEST-TR-HOLDS").await;
    // The list updates by itself while open: no reload.
    let created = "#requests tr[data-id] [data-status]";
    live_until(&client, created, "created", Duration::from_secs(60)).await;
    shoot(&client, &dir, "requests").await;

    click(&client, Locator::LinkText("TEST-TR-HOLDS")).await;
    text(&client, ".route").await;
    assert!(
        text(&client, "h1")
            .await
            .starts_with("Shipment TEST-TR-HOLDS")
    );
    assert!(text(&client, ".sandbox").await.starts_with("Simulated"));
    reload_until(&client, ".timeline", "actual", Duration::from_secs(30)).await;
    times_are_local(&client).await;
    // The voyage drawn, so that the audits of every size below read a page with a map.
    shows(&client, ".voyage-map svg", "POD").await;
    shoot(&client, &dir, "shipment").await;
    let shipment = client.current_url().await.expect("url").path().to_owned();

    click(&client, Locator::Css(".timeline h2 a")).await;
    text(&client, "a[href^='/console/shipments/']").await;
    assert!(text(&client, "h1").await.starts_with("Container "));
    reload_until(&client, "main", "customs", Duration::from_secs(30)).await;
    shoot(&client, &dir, "container").await;
    let container = client.current_url().await.expect("url").path().to_owned();

    find_and_list(&client, &base).await;
    shoot(&client, &dir, "shipments").await;
    client
        .goto(&format!("{base}/console/containers"))
        .await
        .expect("open");
    assert!(text(&client, "#total").await.ends_with("found"));
    text(&client, "a[href^='/console/containers/']").await;
    shoot(&client, &dir, "containers").await;

    redeliver(&client, &base, &receiver).await;
    shoot(&client, &dir, "webhook").await;
    // The page the test send answered on: the webhook's own page is its path without `/test`.
    let url = client.current_url().await.expect("url");
    let webhook = url.path().trim_end_matches("/test").to_owned();

    client.goto(&format!("{base}/console")).await.expect("open");
    shows(&client, ".counts", "created").await;
    the_overview_lists_are_disjoint(&client).await;
    shoot(&client, &dir, "overview").await;

    reference(&client, &base, &dir).await;
    workspace::track_many(&client, &base, temporary.path()).await;
    workspace::export(&client, &base).await;
    workspace::webhook_and_key(&client, &base).await;

    let pages = [
        ("/console".to_owned(), "overview"),
        ("/console/requests".to_owned(), "requests"),
        ("/console/shipments".to_owned(), "shipments"),
        ("/console/containers".to_owned(), "containers"),
        (shipment, "shipment"),
        (container, "container"),
        ("/console/webhooks".to_owned(), "webhooks"),
        (webhook, "webhook"),
        ("/console/keys".to_owned(), "keys"),
    ];
    every_size::every_page(&client, &base, &dir, &pages).await;
    client.close().await.expect("closed");
}
