//! `tidemark carriers list` and `tidemark carriers check` against a simulator playing
//! Hapag-Lloyd's header pair: a working carrier, refused credentials, a closed port, a
//! plain-HTTP port asked in TLS, and a carrier with no endpoint.

use std::path::Path;

use super::{stdout, tidemark};

/// A simulator on loopback taking Hapag-Lloyd's header pair; its base URL. The runtime
/// serving it is returned to keep it alive.
fn simulator() -> (tokio::runtime::Runtime, String) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let mut config = tidemark_testkit::sim_config(1);
    config.header_credentials = vec![vec![
        ("X-IBM-Client-Id".into(), "hl-id".into()),
        ("X-IBM-Client-Secret".into(), "hl-secret".into()),
    ]];
    let base = runtime
        .block_on(carrier_sim::Simulator::new(config).spawn())
        .expect("listens");
    (runtime, base)
}

fn configure(dir: &Path, base_url: &str, secret: &str) {
    let text = format!(
        "[carriers.endpoints.HLCU]\nprofile = \"hapag-lloyd\"\nbase_url = \"{base_url}/HLCU\"\nclient_id = \"hl-id\"\nclient_secret = \"{secret}\"\n"
    );
    std::fs::write(dir.join("tidemark.toml"), text).expect("written");
}

#[test]
fn list_says_how_each_carrier_is_reached() {
    let dir = tempfile::tempdir().expect("dir");
    configure(dir.path(), "https://api.hlag.com/hlag/external", "s3cret");
    let text = stdout(&tidemark(dir.path(), &["carriers", "list"]));
    let line = text
        .lines()
        .find(|l| l.starts_with("HLCU"))
        .expect("HLCU listed");
    for part in [
        "hapag-lloyd",
        "2.2",
        "headers X-IBM-Client-Id + X-IBM-Client-Secret",
        "poll",
        "day 6000",
    ] {
        assert!(line.contains(part), "{part} in {line}");
    }
    assert!(!text.contains("s3cret"), "never a secret");
}

#[test]
fn check_says_what_is_wrong() {
    let (_runtime, base) = simulator();
    let dir = tempfile::tempdir().expect("dir");
    configure(dir.path(), &base, "hl-secret");
    let fine = stdout(&tidemark(dir.path(), &["carriers", "check", "HLCU"]));
    assert!(fine.contains("reached, authenticated"), "{fine}");

    let tls = base.replace("http://", "https://");
    let closed = "http://127.0.0.1:9";
    for (url, secret, expected) in [
        (base.as_str(), "wrong", "credentials were refused"),
        (closed, "hl-secret", "connection refused"),
        (tls.as_str(), "hl-secret", "TLS"),
    ] {
        configure(dir.path(), url, secret);
        let output = tidemark(dir.path(), &["carriers", "check", "HLCU"]);
        assert_eq!(output.status.code(), Some(1), "{url}");
        let said = String::from_utf8_lossy(&output.stderr);
        assert!(said.contains(expected), "{url}: {said}");
        assert!(!said.contains(secret) || secret == "hl-secret", "{said}");
    }
    let output = tidemark(dir.path(), &["carriers", "check", "MSCU"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no endpoint of its own"));
}
