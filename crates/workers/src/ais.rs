//! The AIS reader: reads each configured feed ([`AisSource`]) on a task of its own,
//! decodes its sentences (one [`Decoder`] per feed, so fragments join within their feed),
//! and writes what it heard in batches: every `flush` interval, each vessel's latest
//! position, the track points the thinning keeps ([`Track`]) and static data that says
//! something new. A busy feed of thousands of sentences a second becomes one write a
//! second, which the API's reads do not queue behind. Kept track points older than the
//! retention are forgotten a batch at a time, hourly.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tidemark_carriers::ais::{AisSource, Decoded, Decoder, Feed, FeedEvent};
use tidemark_domain::Clock;
use tidemark_domain::vessel::{Heard, Mmsi, StaticData, Track, TrackSettings};
use tidemark_store::{AisBatch, Store};
use tidemark_wire::metrics::{AIS_FEED_DROPS, AIS_SENTENCES};
use tokio::sync::mpsc;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

/// Track points forgotten by one statement at most.
const FORGET_BATCH: u32 = 1_000;

/// How often kept points past the retention are looked for.
const PRUNE_EVERY: Duration = Duration::from_secs(3_600);

/// What a feed's task hands the writer, at most this many waiting.
const QUEUE: usize = 16_384;

/// Rows one write takes at most: a flush of a busy second is written in parts, each built
/// and committed in a few milliseconds, so the API's tasks on the same runtime threads
/// never wait long behind it.
const WRITE_ROWS: usize = 2_000;

/// Sentences a feed's task decodes before it lets the runtime's other tasks run.
const DECODE_TURN: u32 = 256;

/// How the reader runs (`[ais]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AisSettings {
    /// The feeds.
    pub sources: Vec<AisSource>,
    /// The thinning and the retention of tracks.
    pub track: TrackSettings,
    /// How often what was heard is written.
    pub flush: Duration,
    /// The first wait before a dropped TCP feed is reconnected, and the longest.
    pub backoff: (Duration, Duration),
}

/// Reads the AIS feeds into the store.
#[derive(Debug)]
pub struct AisReader {
    store: Arc<dyn Store>,
    clock: Arc<dyn Clock>,
    settings: AisSettings,
}

/// What one flush interval gathered.
#[derive(Debug, Default)]
struct Pending {
    batch: AisBatch,
    /// Each vessel's latest position's index in `batch.positions`.
    latest: HashMap<Mmsi, usize>,
}

impl AisReader {
    /// A reader of `settings.sources` into `store`.
    #[must_use]
    pub fn new(store: Arc<dyn Store>, clock: Arc<dyn Clock>, settings: AisSettings) -> Self {
        Self {
            store,
            clock,
            settings,
        }
    }

    /// Reads until `shutdown`, then writes what it holds and returns.
    pub async fn run(self, shutdown: CancellationToken) {
        let (heard_tx, mut heard_rx) = mpsc::channel::<Heard>(QUEUE);
        let mut feeds = JoinSet::new();
        for source in &self.settings.sources {
            let (first, most) = self.settings.backoff;
            let feed = Feed::new(source.clone()).with_backoff(first, most);
            feeds.spawn(read_feed(
                feed,
                source.to_string(),
                Arc::clone(&self.clock),
                heard_tx.clone(),
            ));
        }
        drop(heard_tx);
        let mut track = Track::new(self.settings.track);
        let mut identities: HashMap<Mmsi, (Option<String>, Option<String>)> = HashMap::new();
        let mut pending = Pending::default();
        let mut flush = tokio::time::interval(self.settings.flush);
        flush.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut prune = tokio::time::interval(PRUNE_EVERY);
        prune.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                () = shutdown.cancelled() => break,
                heard = heard_rx.recv() => match heard {
                    Some(heard) => pending.add(heard, &mut track, &mut identities),
                    None => break,
                },
                _ = flush.tick() => self.write(&mut pending).await,
                _ = prune.tick() => self.prune().await,
            }
        }
        feeds.abort_all();
        self.write(&mut pending).await;
    }

    async fn write(&self, pending: &mut Pending) {
        let taken = std::mem::take(pending);
        for part in taken.batch.split(WRITE_ROWS) {
            if let Err(error) = self.store.record_ais(&part).await {
                tracing::warn!(%error, positions = part.positions.len(), "AIS positions not written; dropped");
            }
            tokio::task::yield_now().await;
        }
    }

    async fn prune(&self) {
        let cutoff = self.settings.track.cutoff(self.clock.now());
        loop {
            match self.store.forget_track(cutoff, FORGET_BATCH).await {
                Ok(forgotten) if forgotten >= u64::from(FORGET_BATCH) => {}
                Ok(_) => return,
                Err(error) => {
                    tracing::warn!(%error, "AIS track points not pruned");
                    return;
                }
            }
        }
    }
}

impl Pending {
    fn add(
        &mut self,
        heard: Heard,
        track: &mut Track,
        identities: &mut HashMap<Mmsi, (Option<String>, Option<String>)>,
    ) {
        match heard {
            Heard::Position(position) => {
                if track.keep(&position) {
                    self.batch.track.push(position);
                }
                match self.latest.get(&position.mmsi) {
                    Some(&index) if self.batch.positions[index].at > position.at => {}
                    Some(&index) => self.batch.positions[index] = position,
                    None => {
                        self.latest
                            .insert(position.mmsi, self.batch.positions.len());
                        self.batch.positions.push(position);
                    }
                }
            }
            Heard::Static(data) => {
                let StaticData {
                    mmsi, imo, name, ..
                } = &data;
                let known = identities.get(mmsi);
                let imo = imo
                    .clone()
                    .or_else(|| known.and_then(|(imo, _)| imo.clone()));
                let name = name
                    .clone()
                    .or_else(|| known.and_then(|(_, name)| name.clone()));
                if known != Some(&(imo.clone(), name.clone())) {
                    identities.insert(*mmsi, (imo, name));
                    self.batch.statics.push(data);
                }
            }
        }
    }
}

/// Sentences counted by outcome, handed to the metrics a batch at a time (a busy feed
/// reads tens of thousands a second).
#[derive(Default)]
struct Tally([u64; 5]);

impl Tally {
    const OUTCOMES: [&'static str; 5] = ["position", "static", "partial", "other", "broken"];
    const BATCH: u64 = 1_000;

    fn add(&mut self, decoded: &Decoded) {
        let index = match decoded {
            Decoded::Heard(Heard::Position(_)) => 0,
            Decoded::Heard(Heard::Static(_)) => 1,
            Decoded::Partial => 2,
            Decoded::Other => 3,
            Decoded::Broken(_) => 4,
        };
        self.0[index] += 1;
        if self.0.iter().sum::<u64>() >= Self::BATCH {
            self.publish();
        }
    }

    fn publish(&mut self) {
        for (outcome, count) in Self::OUTCOMES.iter().zip(self.0) {
            if count > 0 {
                metrics::counter!(AIS_SENTENCES.name, "outcome" => *outcome).increment(count);
            }
        }
        self.0 = [0; 5];
    }
}

/// Reads one feed until the writer is gone, decoding as it goes.
async fn read_feed(feed: Feed, source: String, clock: Arc<dyn Clock>, heard: mpsc::Sender<Heard>) {
    let (lines_tx, mut lines) = mpsc::channel(1_024);
    let reading = tokio::spawn(feed.run(lines_tx));
    let mut decoder = Decoder::new();
    let mut tally = Tally::default();
    let mut turn = 0_u32;
    loop {
        turn += 1;
        if turn >= DECODE_TURN {
            turn = 0;
            tokio::task::yield_now().await;
        }
        // What has arrived is counted before the reader waits for more.
        let event = match lines.try_recv() {
            Ok(event) => event,
            Err(_) => {
                tally.publish();
                match lines.recv().await {
                    Some(event) => event,
                    None => break,
                }
            }
        };
        let line = match event {
            FeedEvent::Line(line) => line,
            FeedEvent::Up => {
                tracing::info!(%source, "AIS feed up");
                continue;
            }
            FeedEvent::Down(reason) => {
                tracing::warn!(%source, %reason, "AIS feed down; reconnecting");
                metrics::counter!(AIS_FEED_DROPS.name, "source" => source.clone()).increment(1);
                decoder = Decoder::new();
                continue;
            }
        };
        let decoded = decoder.line(&line, clock.now());
        tally.add(&decoded);
        if let Decoded::Heard(said) = decoded
            && heard.send(said).await.is_err()
        {
            break;
        }
    }
    tally.publish();
    reading.abort();
}
