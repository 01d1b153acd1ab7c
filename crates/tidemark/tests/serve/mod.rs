#![allow(
    dead_code,
    reason = "shared by several test binaries, each of which uses part of it"
)]
//! `tidemark serve` as a child process on a fresh directory: started, its address and
//! first key read from what it prints, its logs kept, and stopped with SIGTERM.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What an API process logs once it listens, before its address.
pub const LISTENING: &str = "listening on http://";

pub struct Served {
    child: Option<Child>,
    pub dir: tempfile::TempDir,
    pub address: String,
    pub key: String,
    log: Arc<Mutex<Vec<String>>>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Some(child) = self.child.as_mut() {
            let _ = child.kill();
        }
    }
}

impl Served {
    /// Starts `tidemark serve` with `args` and `env`, and waits until it listens and has
    /// printed its first key.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut served = Self::launch(args, env, LISTENING);
        let mut out = BufReader::new(
            served
                .child
                .as_mut()
                .and_then(|child| child.stdout.take())
                .expect("stdout"),
        );
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
        served.key = key.expect("the first key is printed");
        served
    }

    /// Starts `tidemark serve` over a database another process made (its account and key
    /// exist already, so none is printed): `key` is the one to use. It is started when
    /// its log says `ready` (`listening on http://` for the API; a worker-only process
    /// does not listen).
    pub fn start_sharing(
        args: &[&str],
        env: &[(&str, &str)],
        key: &str,
        ready: &'static str,
    ) -> Self {
        let mut served = Self::launch(args, env, ready);
        served.key = key.to_owned();
        served
    }

    /// Starts `tidemark serve` and waits until its log says `ready`.
    fn launch(args: &[&str], env: &[(&str, &str)], ready: &'static str) -> Self {
        let dir = tempfile::tempdir().expect("dir");
        let mut command = Command::new(env!("CARGO_BIN_EXE_tidemark"));
        command
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(args)
            .current_dir(dir.path())
            .env_remove("TIDEMARK_DATABASE_URL")
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (name, value) in env {
            command.env(name, value);
        }
        let mut child = command.spawn().expect("starts");
        let stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn({
            let log = Arc::clone(&log);
            move || {
                for line in stderr.lines().map_while(Result::ok) {
                    if let Some(rest) = line.split(ready).nth(1) {
                        let address = rest.split_whitespace().next().unwrap_or_default();
                        let _ = tx.send(address.trim_matches('"').to_owned());
                    }
                    log.lock().expect("lock").push(line);
                }
            }
        });
        let address = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server reports that it started");
        Self {
            child: Some(child),
            dir,
            address,
            key: String::new(),
            log,
            reader: Some(reader),
        }
    }

    /// Creates a bill-of-lading tracking request with the first key.
    pub async fn create(&self, number: &str, scac: &str) -> reqwest::Response {
        let body = serde_json::json!({"data": {"type": "tracking_request", "attributes": {
            "request_type": "bill_of_lading", "request_number": number, "scac": scac}}});
        reqwest::Client::new()
            .post(format!("http://{}/v2/tracking_requests", self.address))
            .header("Authorization", format!("Token {}", self.key))
            .header("Content-Type", "application/vnd.api+json")
            .body(body.to_string())
            .send()
            .await
            .expect("request")
    }

    /// `GET path` with the first key, as JSON.
    pub async fn get(&self, path: &str) -> serde_json::Value {
        reqwest::Client::new()
            .get(format!("http://{}{path}", self.address))
            .header("Authorization", format!("Token {}", self.key))
            .send()
            .await
            .expect("request")
            .json()
            .await
            .expect("JSON")
    }

    /// Polls a tracking request until it is no longer `pending`, for at most 20 s; returns
    /// its document.
    pub async fn decided(&self, id: &str) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let current = self.get(&format!("/v2/tracking_requests/{id}")).await;
            if current["data"]["attributes"]["status"] != "pending" {
                return current;
            }
            assert!(Instant::now() < deadline, "{id} still pending after 20 s");
            tokio::task::yield_now().await;
        }
    }

    /// Everything it logged so far.
    pub fn log(&self) -> String {
        self.log.lock().expect("lock").join("\n")
    }

    /// Sends SIGTERM and waits up to 10 s for it to exit, and for its last log lines.
    pub fn stop(&mut self) -> ExitStatus {
        let mut child = self.child.take().expect("running");
        let pid = child.id().to_string();
        assert!(
            Command::new("kill")
                .args(["-TERM", &pid])
                .status()
                .expect("kill")
                .success()
        );
        let (done, exited) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = done.send(child.wait());
        });
        let Ok(status) = exited.recv_timeout(Duration::from_secs(10)) else {
            let _ = Command::new("kill").args(["-KILL", &pid]).status();
            panic!("did not stop within 10 s of SIGTERM");
        };
        if let Some(reader) = self.reader.take() {
            reader.join().expect("log reader");
        }
        status.expect("waited")
    }
}
