//! A webhook receiver on port 0 for the dispatcher's tests, and the dispatchers they run.
#![allow(
    dead_code,
    reason = "shared by several test binaries, each of which uses part of it"
)]

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use std::time::Duration;
use tokio::sync::watch;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use tidemark_domain::Clock;
use tidemark_domain::webhook::{Networks, RetrySchedule, Webhook, WebhookDraft};
use tidemark_store::NotificationFilter;
use tidemark_workers::{Dispatcher, DispatcherSettings, HostResolver, Runner, RunnerSettings};

use crate::support::Harness;

/// A receiver that answers with the statuses queued (then 200), keeps what it got, and
/// counts the requests it holds. A held receiver answers only once the test opens its
/// gate (never, if the test never does).
#[derive(Clone, Default)]
pub struct Receiver {
    answers: Arc<Mutex<VecDeque<u16>>>,
    got: Arc<Mutex<Vec<(HeaderMap, Bytes)>>>,
    gate: Option<watch::Receiver<bool>>,
    pub open: Arc<AtomicUsize>,
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

impl Flaky {
    /// Whether the request with message `id` is to fail, counting it.
    fn fails(&self, id: &str) -> bool {
        let n = self.count.fetch_add(1, Ordering::SeqCst);
        if n % self.every >= self.fail {
            return false;
        }
        let mut failures = self.failures.lock().expect("lock");
        let failed = failures.entry(id.to_owned()).or_insert(0);
        if *failed >= self.cap {
            return false;
        }
        *failed += 1;
        true
    }

    /// How often each message was failed.
    pub fn failures(&self) -> HashMap<String, usize> {
        self.failures.lock().expect("lock").clone()
    }
}

async fn receive(State(receiver): State<Receiver>, headers: HeaderMap, body: Bytes) -> StatusCode {
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
    receiver.got.lock().expect("lock").push((headers, body));
    if receiver
        .flaky
        .as_ref()
        .is_some_and(|flaky| flaky.fails(&id))
    {
        return StatusCode::INTERNAL_SERVER_ERROR;
    }
    let status = receiver
        .answers
        .lock()
        .expect("lock")
        .pop_front()
        .unwrap_or(200);
    StatusCode::from_u16(status).unwrap_or(StatusCode::OK)
}

impl Receiver {
    pub async fn start(answers: &[u16]) -> (Self, String) {
        Self::serve(Self::default(), answers).await
    }

    /// A receiver that holds every request until the gate opens.
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

    async fn serve(receiver: Self, answers: &[u16]) -> (Self, String) {
        receiver.answers.lock().expect("lock").extend(answers);
        let app = Router::new()
            .route("/hook", post(receive))
            .with_state(receiver.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("address");
        tokio::spawn(async move { axum::serve(listener, app).await });
        (receiver, format!("http://{address}/hook"))
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

    /// Every request it got, answered or not.
    pub fn got(&self) -> Vec<(HeaderMap, Bytes)> {
        self.got.lock().expect("lock").clone()
    }
}

pub fn local() -> Networks {
    Networks::parse_list("127.0.0.0/8,::1/128").expect("networks")
}

pub async fn subscribe(h: &Harness, url: &str, events: &[&str]) -> Webhook {
    let webhook = WebhookDraft {
        url: Some(url.to_owned()),
        events: Some(events.iter().map(|e| (*e).to_owned()).collect()),
        ..WebhookDraft::default()
    }
    .create(h.account.id, &local(), h.clock.now())
    .expect("a valid webhook");
    h.store.create_webhook(&webhook).await.expect("create");
    webhook
}

pub fn dispatcher(h: &Harness, networks: Networks) -> Runner<Dispatcher> {
    dispatcher_with(h, networks, Duration::from_secs(5))
}

pub fn dispatcher_with(h: &Harness, networks: Networks, timeout: Duration) -> Runner<Dispatcher> {
    runner(
        h,
        DispatcherSettings {
            networks: Arc::new(networks),
            timeout,
            ..settings()
        },
    )
}

pub fn dispatcher_resolving(
    h: &Harness,
    networks: Networks,
    resolver: Arc<dyn HostResolver>,
) -> Runner<Dispatcher> {
    runner(
        h,
        DispatcherSettings {
            networks: Arc::new(networks),
            resolver,
            ..settings()
        },
    )
}

pub fn settings() -> DispatcherSettings {
    DispatcherSettings {
        timeout: Duration::from_secs(5),
        schedule: RetrySchedule {
            jitter: 0.0,
            ..RetrySchedule::default()
        },
        ..DispatcherSettings::default()
    }
}

pub fn runner(h: &Harness, settings: DispatcherSettings) -> Runner<Dispatcher> {
    let dispatcher = Dispatcher::new(
        Arc::clone(&h.store),
        Arc::clone(&h.clock) as Arc<dyn Clock>,
        settings,
    )
    .expect("dispatcher");
    Runner::new(
        Arc::new(dispatcher),
        Arc::clone(&h.clock) as Arc<dyn Clock>,
        RunnerSettings::default(),
    )
}

pub async fn notifications(h: &Harness) -> Vec<tidemark_domain::webhook::WebhookNotification> {
    h.store
        .list_webhook_notifications(
            h.account.id,
            &NotificationFilter::default(),
            tidemark_store::PageRequest {
                number: 1,
                size: 100,
            },
        )
        .await
        .expect("list")
        .items
}
