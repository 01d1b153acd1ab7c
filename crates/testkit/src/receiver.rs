//! A webhook receiver on loopback: it answers each request with the next answer queued
//! (then 200), keeps what it got, and counts the requests it holds. A held receiver answers
//! only once the test opens its gate; a flaky one fails a share of what it gets.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use tokio::sync::watch;

/// The receiver; clones share its state.
#[derive(Clone, Default)]
pub struct Receiver {
    answers: Arc<Mutex<VecDeque<(u16, String)>>>,
    got: Arc<Mutex<Vec<(HeaderMap, Bytes)>>>,
    gate: Option<watch::Receiver<bool>>,
    /// Requests held now.
    pub open: Arc<AtomicUsize>,
    /// The most requests held at once.
    pub most_open: Arc<AtomicUsize>,
    /// Requests that arrived, answered or not.
    pub arrived: Arc<AtomicUsize>,
    flaky: Option<Arc<Flaky>>,
}

/// Fails `fail` of every `every` requests it gets (500), but never one message more than
/// `cap` times, so that every message gets through within the retry schedule.
#[derive(Default)]
pub struct Flaky {
    every: usize,
    fail: usize,
    cap: usize,
    count: AtomicUsize,
    failures: Mutex<HashMap<String, usize>>,
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Flaky {
    /// Whether the request with message `id` is to fail, counting it.
    fn fails(&self, id: &str) -> bool {
        let n = self.count.fetch_add(1, Ordering::SeqCst);
        if n % self.every.max(1) >= self.fail {
            return false;
        }
        let mut failures = lock(&self.failures);
        let failed = failures.entry(id.to_owned()).or_insert(0);
        if *failed >= self.cap {
            return false;
        }
        *failed += 1;
        true
    }

    /// How often each message was failed.
    #[must_use]
    pub fn failures(&self) -> HashMap<String, usize> {
        lock(&self.failures).clone()
    }
}

async fn receive(
    State(receiver): State<Receiver>,
    headers: HeaderMap,
    body: Bytes,
) -> (StatusCode, String) {
    receiver.arrived.fetch_add(1, Ordering::SeqCst);
    let open = receiver.open.fetch_add(1, Ordering::SeqCst) + 1;
    receiver.most_open.fetch_max(open, Ordering::SeqCst);
    if let Some(mut gate) = receiver.gate.clone() {
        // A closed sender means the test is over: answer.
        let _ = gate.wait_for(|open| *open).await;
    }
    receiver.open.fetch_sub(1, Ordering::SeqCst);
    let id = headers
        .get("webhook-id")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    lock(&receiver.got).push((headers, body));
    if receiver
        .flaky
        .as_ref()
        .is_some_and(|flaky| flaky.fails(&id))
    {
        return (StatusCode::INTERNAL_SERVER_ERROR, String::new());
    }
    let (status, text) = lock(&receiver.answers)
        .pop_front()
        .unwrap_or((200, String::new()));
    (StatusCode::from_u16(status).unwrap_or(StatusCode::OK), text)
}

impl Receiver {
    /// A receiver answering with `statuses` (empty bodies), then 200; and its URL.
    pub async fn start(statuses: &[u16]) -> (Self, String) {
        let answers: Vec<(u16, &str)> = statuses.iter().map(|status| (*status, "")).collect();
        Self::answering(&answers).await
    }

    /// A receiver answering with `answers` (status and body), then 200; and its URL.
    pub async fn answering(answers: &[(u16, &str)]) -> (Self, String) {
        Self::serve(Self::default(), answers).await
    }

    /// A receiver that holds every request until the gate opens (`send(true)`).
    pub async fn held() -> (Self, String, watch::Sender<bool>) {
        let (open, gate) = watch::channel(false);
        let (receiver, url) = Self::serve(
            Self {
                gate: Some(gate),
                ..Self::default()
            },
            &[],
        )
        .await;
        (receiver, url, open)
    }

    /// A receiver that fails `fail` of every `every` requests, each message at most
    /// `cap` times.
    pub async fn flaky(every: usize, fail: usize, cap: usize) -> (Self, String, Arc<Flaky>) {
        let flaky = Arc::new(Flaky {
            every,
            fail,
            cap,
            ..Flaky::default()
        });
        let (receiver, url) = Self::serve(
            Self {
                flaky: Some(Arc::clone(&flaky)),
                ..Self::default()
            },
            &[],
        )
        .await;
        (receiver, url, flaky)
    }

    async fn serve(receiver: Self, answers: &[(u16, &str)]) -> (Self, String) {
        lock(&receiver.answers).extend(
            answers
                .iter()
                .map(|(status, text)| (*status, (*text).to_owned())),
        );
        let app = Router::new()
            .route("/hook", post(receive))
            .with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("the receiver binds a port on loopback");
        let address = listener.local_addr().expect("its address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        (receiver, format!("http://{address}/hook"))
    }

    /// Every request it got, answered or not.
    #[must_use]
    pub fn got(&self) -> Vec<(HeaderMap, Bytes)> {
        lock(&self.got).clone()
    }
}
