//! The `tidemark` command as a person or a script runs it.

#[path = "cli/carriers.rs"]
mod carriers;
#[path = "cli/keys.rs"]
mod keys;
mod serve;
#[path = "cli/serving.rs"]
mod serving;
#[path = "cli/wake_ups.rs"]
mod wake_ups;

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
        vec!["carriers", "list", "--help"],
        vec!["carriers", "check", "--help"],
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
