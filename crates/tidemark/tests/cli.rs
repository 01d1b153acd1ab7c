//! The `tidemark` command as a person or a script runs it.

mod serve;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use serve::Served;

fn tidemark(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(args)
        .current_dir(dir)
        .env_remove("TIDEMARK_DATABASE_URL")
        .env_remove("RUST_LOG")
        .output()
        .expect("runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("utf-8")
}

#[test]
fn every_command_has_help() {
    let dir = tempfile::tempdir().expect("dir");
    for args in [
        vec!["--help"],
        vec!["serve", "--help"],
        vec!["migrate", "--help"],
        vec!["accounts", "--help"],
        vec!["accounts", "create", "--help"],
        vec!["accounts", "list", "--help"],
        vec!["keys", "--help"],
        vec!["keys", "create", "--help"],
        vec!["keys", "list", "--help"],
        vec!["keys", "revoke", "--help"],
        vec!["openapi", "--help"],
        vec!["infer", "--help"],
    ] {
        let text = stdout(&tidemark(dir.path(), &args));
        assert!(text.contains("Usage:"), "{args:?}: {text}");
    }
}

#[test]
fn infer_prints_one_json_line_per_number_and_fails_on_refused_ones() {
    let dir = tempfile::tempdir().expect("dir");
    let text = stdout(&tidemark(
        dir.path(),
        &["infer", "msku 305438-8", "MEDUN4194175"],
    ));
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["number"], "msku 305438-8");
    assert_eq!(lines[0]["validation"]["parsed_number"], "MSKU3054388");
    assert_eq!(lines[0]["shipping_line"]["selected"]["scac"], "MAEU");
    assert_eq!(lines[1]["number_type"], "bill_of_lading");
    assert_eq!(lines[1]["shipping_line"]["decision"], "auto_select");
    assert!(
        std::fs::read_dir(dir.path()).expect("dir").next().is_none(),
        "offline: no database is created"
    );

    let long = "9".repeat(65);
    let refused = tidemark(dir.path(), &["infer", &long, "TRKU10023023"]);
    assert!(!refused.status.success());
    let text = String::from_utf8(refused.stdout).expect("utf-8");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(lines[0]["error"]["code"], "too_long");
    assert_eq!(
        lines[1]["shipping_line"]["selected"]["scac"], "TRKU",
        "later numbers still answered"
    );
    assert!(String::from_utf8_lossy(&refused.stderr).contains("1 number(s) refused"));
    assert!(
        !tidemark(dir.path(), &["infer"]).status.success(),
        "a number is required"
    );
}

#[test]
fn keys_are_created_listed_and_revoked_by_scripts() {
    let dir = tempfile::tempdir().expect("dir");
    let migrated = tidemark(dir.path(), &["migrate"]);
    assert!(migrated.status.success());
    assert!(dir.path().join("tidemark.db").exists());

    // A mistyped account name is refused, not created.
    let refused = tidemark(dir.path(), &["keys", "create", "--account", "acme"]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("no account is named"));
    let key = stdout(&tidemark(
        dir.path(),
        &["keys", "create", "--account", "acme", "--create-account"],
    ));
    let key = key.trim();
    assert!(
        key.starts_with("tdm_") && key.len() == 44 && !key.contains(char::is_whitespace),
        "only the key: {key:?}"
    );

    let accounts = stdout(&tidemark(dir.path(), &["accounts", "list"]));
    assert!(accounts.contains("acme"), "{accounts}");
    let listed = stdout(&tidemark(dir.path(), &["keys", "list"]));
    assert!(
        listed.contains(&key[..12]) && !listed.contains(key),
        "the prefix, never the key: {listed}"
    );

    let second = stdout(&tidemark(
        dir.path(),
        &["keys", "create", "--account", "acme"],
    ));
    assert_ne!(second.trim(), key);
    let revoked = stdout(&tidemark(dir.path(), &["keys", "revoke", key]));
    assert!(revoked.contains(&key[..12]));
    let listed = stdout(&tidemark(
        dir.path(),
        &["keys", "list", "--account", "acme"],
    ));
    let line = listed
        .lines()
        .find(|l| l.starts_with(&key[..12]))
        .expect("listed");
    assert!(!line.ends_with('-'), "shows the revocation time: {line}");

    let missing = tidemark(dir.path(), &["keys", "revoke", "tdm_NOPENOPE"]);
    assert!(!missing.status.success());
    let duplicate = tidemark(dir.path(), &["accounts", "create", "acme"]);
    assert!(!duplicate.status.success());
}

#[test]
fn commands_other_than_serve_and_migrate_never_create_a_database() {
    let dir = tempfile::tempdir().expect("dir");
    for args in [
        &["accounts", "list"][..],
        &["keys", "list"],
        &["keys", "create", "--account", "acme", "--create-account"],
    ] {
        let output = tidemark(dir.path(), args);
        assert!(!output.status.success(), "{args:?}");
        let message = String::from_utf8_lossy(&output.stderr);
        assert!(message.contains("tidemark migrate"), "{args:?}: {message}");
        assert!(!dir.path().join("tidemark.db").exists(), "{args:?}");
    }
}

#[test]
fn an_unreachable_postgresql_is_named_at_once() {
    let dir = tempfile::tempdir().expect("dir");
    // Nothing listens on port 9 of loopback.
    let started = std::time::Instant::now();
    let output = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["accounts", "list"])
        .current_dir(dir.path())
        .env(
            "TIDEMARK_DATABASE_URL",
            "postgres://postgres@127.0.0.1:9/test",
        )
        .output()
        .expect("runs");
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.to_lowercase().contains("connection refused"),
        "{message}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn printing_into_a_closed_pipe_is_quiet() {
    let dir = tempfile::tempdir().expect("dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .arg("openapi")
        .current_dir(dir.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    // The reader takes nothing and goes away, as `| head -0` would.
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("waits");
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn a_bad_setting_is_a_clear_error() {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::write(
        dir.path().join("tidemark.toml"),
        "[limits]\nbody_bytez = 5\n",
    )
    .expect("write");
    let output = tidemark(dir.path(), &["migrate"]);
    assert!(!output.status.success());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(message.contains("body_bytez"), "{message}");
}

/// Asked to, the sandbox serves every line, and the start-up log says so; a configured
/// endpoint keeps its line.
#[tokio::test]
async fn the_sandbox_serves_every_line_only_when_asked() {
    let mut server = Served::start(
        &["--sandbox-all-carriers"],
        &[(
            "TIDEMARK_CARRIERS__ENDPOINTS__MAEU__BASE_URL",
            "http://127.0.0.1:9/maersk",
        )],
    );
    let response = server.create("MEDU1234567", "MSCU").await;
    assert_eq!(response.status(), 201);
    let lines = server.get("/v2/shipping_lines?search=MAEU").await;
    assert_eq!(lines["data"][0]["attributes"]["tracking_source"], "carrier");
    assert!(server.stop().success());
    let log = server.log();
    assert!(log.contains("MAEU -> http://127.0.0.1:9/maersk"), "{log}");
    assert!(log.contains("every other SCAC -> sandbox"), "{log}");
}

/// `tidemark serve` on a fresh directory: creates the database, prints a key once,
/// serves a create with that key, and stops cleanly on SIGTERM.
#[tokio::test]
async fn serve_starts_from_nothing_and_stops_on_sigterm() {
    let mut server = Served::start(&[], &[]);
    let dir = server.dir.path().to_owned();
    assert!(dir.join("tidemark.db").exists());
    assert!(dir.join("tidemark.db-wal").exists(), "WAL mode");

    // No invented data by default: a real line without an endpoint is refused, saying how
    // to configure it.
    let response = server.create("MEDU1234567", "MSCU").await;
    assert_eq!(response.status(), 422);
    let body: serde_json::Value = response.json().await.expect("JSON");
    assert_eq!(
        body["errors"][0]["code"], "carrier_not_configured",
        "{body}"
    );
    assert_eq!(
        body["errors"][0]["source"]["pointer"],
        "/data/attributes/scac"
    );
    assert!(server.log().contains("TEST -> sandbox"), "{}", server.log());

    // Zero-config tracking: the built-in sandbox carrier answers, and the request is
    // found within moments.
    let created: serde_json::Value = server
        .create("TEST-TR-JOURNEY", "TEST")
        .await
        .json()
        .await
        .expect("JSON");
    let id = created["data"]["id"].as_str().expect("id");
    let current = server.decided(id).await;
    assert_eq!(
        current["data"]["attributes"]["status"], "created",
        "{current}"
    );
    assert!(current["data"]["relationships"]["tracked_object"]["data"]["id"].is_string());

    assert!(server.stop().success());

    // A second start finds the account and prints no new key.
    let again = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["accounts", "list"])
        .current_dir(&dir)
        .env_remove("TIDEMARK_DATABASE_URL")
        .output()
        .expect("runs");
    assert_eq!(
        String::from_utf8_lossy(&again.stdout)
            .lines()
            .filter(|l| l.contains("default"))
            .count(),
        1
    );
}

/// A receiver on loopback that answers 200 and keeps the headers of what it got; the
/// watch counts them.
async fn header_receiver() -> (
    String,
    std::sync::Arc<std::sync::Mutex<Vec<axum::http::HeaderMap>>>,
    tokio::sync::watch::Receiver<usize>,
) {
    use axum::http::HeaderMap;
    use std::sync::{Arc, Mutex};

    let got: Arc<Mutex<Vec<HeaderMap>>> = Arc::default();
    let (count, counted) = tokio::sync::watch::channel(0);
    let app = axum::Router::new().route(
        "/hook",
        axum::routing::post({
            let got = Arc::clone(&got);
            move |headers: HeaderMap| async move {
                let mut got = got.lock().expect("lock");
                got.push(headers);
                count.send_replace(got.len());
                "ok"
            }
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}/hook"), got, counted)
}

/// At its most verbose, `tidemark serve` logs no secret: not an API key (good or bad),
/// not a webhook's secret or its custom header values, not a signature it sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn secrets_never_reach_the_logs() {
    let (url, got, mut counted) = header_receiver().await;
    let mut server = Served::start(
        &["--webhook-allowed-networks", "127.0.0.0/8"],
        &[("RUST_LOG", "trace")],
    );
    let base = format!("http://{}", server.address);
    let client = reqwest::Client::new();
    let post = |path: &str, key: &str, body: serde_json::Value| {
        client
            .post(format!("{base}{path}"))
            .header("Authorization", format!("Token {key}"))
            .header("Content-Type", "application/vnd.api+json")
            .body(body.to_string())
            .send()
    };
    let header_value = "Bearer receiver-token-8c1f2e77";
    let created = post(
        "/v2/webhooks",
        &server.key,
        serde_json::json!({"data": {"type": "webhook", "attributes": {
            "url": url, "headers": [{"name": "Authorization", "value": header_value}]}}}),
    )
    .await
    .expect("request");
    assert_eq!(created.status(), 201);
    let created: serde_json::Value = created.json().await.expect("JSON");
    let webhook = created["data"]["id"].as_str().expect("id").to_owned();
    let secret = created["data"]["attributes"]["secret"]
        .as_str()
        .expect("secret")
        .to_owned();
    let tested = post(
        &format!("/v2/webhooks/{webhook}/test"),
        &server.key,
        serde_json::json!({"data": {"type": "webhook_test",
            "attributes": {"event": "tracking_request.succeeded"}}}),
    )
    .await
    .expect("request");
    assert_eq!(tested.status(), 200);
    let tracked = post(
        "/v2/tracking_requests",
        &server.key,
        serde_json::json!({"data": {"type": "tracking_request", "attributes": {
            "request_type": "bill_of_lading", "request_number": "TEST-TR-SUCCEEDED", "scac": "TEST"}}}),
    )
    .await
    .expect("request");
    assert_eq!(tracked.status(), 201);
    let wrong_key = "tdm_WrongWrongWrongWrongWrongWrongWrong1234";
    let refused = post("/v2/webhooks", wrong_key, serde_json::json!({}))
        .await
        .expect("request");
    assert_eq!(refused.status(), 401);

    // The test, the success and its milestones arrive.
    tokio::time::timeout(Duration::from_secs(30), counted.wait_for(|n| *n >= 3))
        .await
        .expect("deliveries within 30 s")
        .expect("the receiver runs");
    assert!(server.stop().success());

    let log = server.log();
    assert!(log.contains("webhook delivery"), "deliveries are logged");
    assert!(log.contains("webhook test"), "tests are logged");
    let mut secrets = vec![
        server.key.clone(),
        server.key["tdm_".len()..].to_owned(),
        wrong_key.to_owned(),
        secret.clone(),
        secret["whsec_".len()..].to_owned(),
        header_value.to_owned(),
        "receiver-token-8c1f2e77".to_owned(),
    ];
    for headers in got.lock().expect("lock").iter() {
        for name in ["webhook-signature", "x-tidemark-signature"] {
            let value = headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .expect("signed");
            secrets.push(value.trim_start_matches("v1,").to_owned());
        }
        assert_eq!(
            headers.get("authorization").and_then(|v| v.to_str().ok()),
            Some(header_value)
        );
    }
    for secret in &secrets {
        assert!(
            !log.contains(secret.as_str()),
            "a secret in the logs: {secret}"
        );
    }
}
