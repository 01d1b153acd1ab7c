//! Driving Debian's Chromium over WebDriver for the browser test: `chromedriver` in a
//! process group of its own, a headless browser with a profile of its own, and the few
//! page actions the test repeats.

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use tidemark_testkit::poll_until;

pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
pub(crate) const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// `chromedriver` in a process group of its own, killed with its browsers when dropped.
pub(crate) struct Driver {
    child: Child,
    url: String,
}

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.child.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.child.wait();
    }
}

/// Starts `chromedriver`.
///
/// # Panics
/// When it or Chromium is missing (the test is compiled as ignored without them, unless
/// `TIDEMARK_REQUIRE_BROWSER` demands it).
pub(crate) fn driver() -> Driver {
    let installed = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    assert!(installed, "{CHROMIUM} or {CHROMEDRIVER} is missing");
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let child = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("chromedriver starts");
    Driver {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

/// A headless Chromium session that fetches nothing beyond loopback.
pub(crate) async fn browser(driver: &Driver, profile: &Path) -> Client {
    let mut capabilities = serde_json::Map::new();
    capabilities.insert("browserName".into(), json!("chrome"));
    capabilities.insert(
        "goog:chromeOptions".into(),
        json!({"binary": CHROMIUM, "args": [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--window-size=1280,1000",
            format!("--user-data-dir={}", profile.display()),
        ]}),
    );
    // chromedriver takes a moment to listen: ask until it answers, for at most 20 s.
    let client = std::cell::RefCell::new(None);
    let last = std::cell::RefCell::new(String::new());
    poll_until(
        Instant::now(),
        Duration::from_secs(20),
        || format!("no WebDriver session: {}", last.borrow()),
        || async {
            match ClientBuilder::new(HttpConnector::new())
                .capabilities(capabilities.clone())
                .connect(&driver.url)
                .await
            {
                Ok(connected) => *client.borrow_mut() = Some(connected),
                Err(error) => *last.borrow_mut() = error.to_string(),
            }
            client.borrow().is_some()
        },
    )
    .await;
    client.into_inner().expect("connected")
}

/// Where screenshots go: the asked directory, else a temporary one.
pub(crate) fn shots(temporary: &Path) -> PathBuf {
    std::env::var_os("TIDEMARK_CONSOLE_SCREENSHOTS")
        .map_or_else(|| temporary.to_owned(), PathBuf::from)
}

pub(crate) async fn shoot(client: &Client, dir: &Path, name: &str) {
    let png = client.screenshot().await.expect("screenshot");
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::create_dir_all(dir).expect("screenshot directory");
    std::fs::write(dir.join(format!("{name}.png")), png).expect("screenshot written");
}

/// The text of the first `css` element, waiting up to 10 s for it to appear (a click
/// that submits a form returns before the next page is there).
pub(crate) async fn text(client: &Client, css: &str) -> String {
    client
        .wait()
        .at_most(Duration::from_secs(10))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|error| panic!("{css}: {error}"))
        .text()
        .await
        .expect("text")
}

/// Clicks the element `locator` finds.
pub(crate) async fn click(client: &Client, locator: Locator<'_>) {
    client
        .find(locator)
        .await
        .unwrap_or_else(|error| panic!("{locator:?}: {error}"))
        .click()
        .await
        .expect("clicked");
}

/// Whether `css` shows text containing `wanted` now (an element gone stale shows nothing).
async fn showing(client: &Client, css: &str, wanted: &str) -> bool {
    match client.find(Locator::Css(css)).await {
        Ok(element) => element.text().await.is_ok_and(|t| t.contains(wanted)),
        Err(_) => false,
    }
}

/// Waits until `css` shows text containing `wanted`, for at most ten seconds: after a
/// click that loads another page, the element found first may be the old page's, gone
/// (stale) by the time it is read.
pub(crate) async fn shows(client: &Client, css: &str, wanted: &str) {
    poll_until(
        Instant::now(),
        Duration::from_secs(10),
        || format!("{css} never showed {wanted:?}"),
        || showing(client, css, wanted),
    )
    .await;
}

/// Reloads the page until `css` shows text containing `wanted`, for at most `limit`.
pub(crate) async fn reload_until(client: &Client, css: &str, wanted: &str, limit: Duration) {
    let from = Instant::now();
    poll_until(
        from,
        limit,
        || format!("{css} never showed {wanted:?}"),
        || async {
            client.refresh().await.expect("reload");
            showing(client, css, wanted).await
        },
    )
    .await;
}

/// Waits, without reloading, until `css` shows text containing `wanted` (the page's live
/// regions update it), for at most `limit`; the page is the same one throughout.
pub(crate) async fn live_until(client: &Client, css: &str, wanted: &str, limit: Duration) {
    client
        .execute("window.__notReloaded = true; return true;", vec![])
        .await
        .expect("script");
    poll_until(
        Instant::now(),
        limit,
        || format!("{css} never showed {wanted:?} by itself"),
        || showing(client, css, wanted),
    )
    .await;
    let same = client
        .execute("return window.__notReloaded === true;", vec![])
        .await
        .expect("script");
    assert_eq!(same, serde_json::Value::Bool(true), "the page was reloaded");
}
