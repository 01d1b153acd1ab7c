//! The `tidemark` command as a person or a script runs it.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

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
        &["infer", "msku 123456-5", "MEDUN4194175"],
    ));
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["number"], "msku 123456-5");
    assert_eq!(lines[0]["validation"]["parsed_number"], "MSKU1234565");
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

    let key = stdout(&tidemark(
        dir.path(),
        &["keys", "create", "--account", "acme"],
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

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
    }
}

/// `tidemark serve` on a fresh directory: creates the database, prints a key once,
/// serves a create with that key, and stops cleanly on SIGTERM.
#[tokio::test]
async fn serve_starts_from_nothing_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().expect("dir");
    let mut server = Server(
        Command::new(env!("CARGO_BIN_EXE_tidemark"))
            .args(["serve", "--listen", "127.0.0.1:0"])
            .current_dir(dir.path())
            .env_remove("TIDEMARK_DATABASE_URL")
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starts"),
    );
    let stderr = BufReader::new(server.0.stderr.take().expect("stderr"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if let Some(rest) = line.split("listening on http://").nth(1) {
                let _ = tx.send(
                    rest.split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                );
            }
        }
    });
    let address = rx
        .recv_timeout(Duration::from_secs(30))
        .expect("the server reports its address");
    let mut out = BufReader::new(server.0.stdout.take().expect("stdout"));
    let mut key = None;
    let mut line = String::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while key.is_none() && Instant::now() < deadline {
        line.clear();
        if out.read_line(&mut line).expect("read") == 0 {
            break;
        }
        key = line
            .split_whitespace()
            .find(|w| w.starts_with("tdm_"))
            .map(str::to_owned);
    }
    let key = key.expect("the first key is printed");
    assert!(dir.path().join("tidemark.db").exists());
    assert!(dir.path().join("tidemark.db-wal").exists(), "WAL mode");

    let response = reqwest::Client::new()
        .post(format!("http://{address}/v2/tracking_requests"))
        .header("Authorization", format!("Token {key}"))
        .header("Content-Type", "application/vnd.api+json")
        .body(r#"{"data":{"type":"tracking_request","attributes":{"request_type":"bill_of_lading","request_number":"MEDU1234567","scac":"MSCU"}}}"#)
        .send()
        .await
        .expect("request");
    assert_eq!(response.status(), 201);

    // Zero-config tracking: the built-in sandbox carrier answers, and the request is
    // found within moments.
    let client = reqwest::Client::new();
    let created: serde_json::Value = client
        .post(format!("http://{address}/v2/tracking_requests"))
        .header("Authorization", format!("Token {key}"))
        .header("Content-Type", "application/vnd.api+json")
        .body(r#"{"data":{"type":"tracking_request","attributes":{"request_type":"bill_of_lading","request_number":"TEST-TR-JOURNEY","scac":"TEST"}}}"#)
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON");
    let id = created["data"]["id"].as_str().expect("id").to_owned();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let current: serde_json::Value = client
            .get(format!("http://{address}/v2/tracking_requests/{id}"))
            .header("Authorization", format!("Token {key}"))
            .send()
            .await
            .expect("request")
            .json()
            .await
            .expect("JSON");
        let status = current["data"]["attributes"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        if status == "created" {
            assert!(current["data"]["relationships"]["tracked_object"]["data"]["id"].is_string());
            break;
        }
        assert_eq!(status, "pending", "{current}");
        assert!(Instant::now() < deadline, "still pending after 20 s");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let pid = server.0.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill")
            .success()
    );
    let mut child = std::mem::replace(
        &mut server.0,
        Command::new("true").spawn().expect("placeholder"),
    );
    let (done, exited) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait());
    });
    let status = exited
        .recv_timeout(Duration::from_secs(10))
        .unwrap_or_else(|_| {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
            panic!("did not stop within 10 s of SIGTERM")
        });
    assert!(status.expect("waited").success());

    // A second start finds the account and prints no new key.
    let again = Command::new(env!("CARGO_BIN_EXE_tidemark"))
        .args(["accounts", "list"])
        .current_dir(dir.path())
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
