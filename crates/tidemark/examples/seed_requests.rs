//! Seeds a Tidemark database with many tracking requests for measuring at scale
//! (`bench/scale.sh`): each request of the sandbox carrier `TEST` (so every answer says it
//! is simulated), decided by the domain as the tracker decides a first lookup, and written
//! straight through the store in batches (`ImportStore::import_changes`), not through
//! HTTP. Nine in ten are found (a shipment of one to three containers between two real
//! ports, a few milestones each); one in ten waits for its manifest.
//!
//!   seed_requests <database url> <count> [<concurrent batches>]
//!
//! The database must have been started once by `tidemark serve` (its schema and first
//! account); the requests go to its first account. Prints the rate as it goes.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tidemark_domain::lifecycle::Policy;
use tidemark_domain::snapshot::CallView;
use tidemark_domain::tracking::{Cause, LookupAnswer, decide};
use tidemark_domain::{
    CarrierMatrix, Clock, ContainerNumber, ContainerView, Coverage, Limits, LookupOutcome,
    Milestone, MilestoneEvent, NewTrackingRequest, Place, SandboxScope, Scac, Snapshot,
    SystemClock, Timestamp, TrackingRequest, TrackingRequestDraft, TrackingSource,
};
use tidemark_store::ConnectOptions;

/// Requests a transaction writes.
const BATCH: usize = 500;

/// Real ports (UN/LOCODE, in the bundled gazetteer) the simulated shipments sail between.
const PORTS: [&str; 8] = [
    "CNSHA", "SGSIN", "NLRTM", "DEHAM", "USLAX", "USNYC", "KRPUS", "BEANR",
];

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let (Some(url), Some(count)) = (args.get(1), args.get(2)) else {
        return Err("usage: seed_requests <database url> <count> [<concurrent batches>]".into());
    };
    let count: usize = count.parse()?;
    let concurrent: usize = args.get(3).map_or(Ok(2), |n| n.parse())?;
    let store = tidemark_store::connect(&ConnectOptions::new(url.clone())).await?;
    let account = store
        .list_accounts()
        .await?
        .into_iter()
        .next()
        .ok_or("no account: start `tidemark serve` on this database once first")?;
    let started = Instant::now();
    let mut written = 0;
    let mut next = 0;
    let mut running = tokio::task::JoinSet::new();
    let mut last_report = Instant::now();
    while written < count {
        while running.len() < concurrent && next < count {
            let size = BATCH.min(count - next);
            let store = Arc::clone(&store);
            let first = next;
            let account_id = account.id;
            running.spawn(async move {
                let changes: Vec<_> = (first..first + size)
                    .map(|i| found(account_id, i))
                    .collect::<Result<_, String>>()?;
                store
                    .import_changes(&changes)
                    .await
                    .map_err(|error| error.to_string())?;
                Ok::<usize, String>(size)
            });
            next += size;
        }
        let Some(done) = running.join_next().await else {
            break;
        };
        written += done??;
        if last_report.elapsed() > Duration::from_secs(10) || written == count {
            last_report = Instant::now();
            let seconds = started.elapsed().as_secs_f64();
            #[expect(
                clippy::print_stdout,
                reason = "the bench reads the progress from standard output"
            )]
            {
                println!(
                    "{written} requests in {seconds:.0} s ({:.0}/s)",
                    written as f64 / seconds
                );
            }
        }
    }
    Ok(())
}

/// The `i`-th request, as its first lookup leaves it.
fn found(
    account: tidemark_domain::AccountId,
    i: usize,
) -> Result<tidemark_domain::tracking::Change, String> {
    static MATRIX: std::sync::LazyLock<Option<CarrierMatrix>> =
        std::sync::LazyLock::new(|| CarrierMatrix::bundled().ok());
    let matrix = MATRIX.as_ref().ok_or("the bundled carrier matrix")?;
    let draft = TrackingRequestDraft {
        request_type: Some("bill_of_lading".to_owned()),
        request_number: Some(format!("TEST{i:010}")),
        scac: Some("TEST".to_owned()),
        ..TrackingRequestDraft::default()
    };
    let coverage = Coverage::new([], SandboxScope::TestOnly);
    let new = NewTrackingRequest::validate(draft, matrix, &coverage, &Limits::default())
        .map_err(|errors| format!("{errors:?}"))?;
    // Created over the last year, one a few seconds apart; looked up a minute later.
    let now = SystemClock.now();
    let age = Duration::from_secs(31_536_000 / 1_000_000 * (1_000_000 - (i % 1_000_000)) as u64);
    let created = now - age;
    let request = TrackingRequest::open(account, new, created);
    let outcome = if i % 10 == 9 {
        LookupOutcome::NotFound
    } else {
        LookupOutcome::Found(snapshot(i, created)?)
    };
    let answer = LookupAnswer {
        scac: Scac::parse("TEST").ok(),
        source: TrackingSource::Sandbox,
        outcome: Some(outcome),
    };
    let looked_up = created + Duration::from_secs(60);
    let mut change = decide(
        &request,
        None,
        Cause::Lookup(&answer),
        looked_up,
        &Policy::default(),
    )
    .map_err(|error| format!("{error:?}"))?;
    change.events.clear();
    Ok(change)
}

/// What the sandbox might answer for the `i`-th request: one to three containers between
/// two of [`PORTS`], each with the milestones of its voyage so far.
fn snapshot(i: usize, created: Timestamp) -> Result<Snapshot, String> {
    let day = Duration::from_secs(86_400);
    let place = |locode: &str| Place {
        locode: locode.to_owned(),
        name: None,
        facility: None,
    };
    let (from, to) = (
        PORTS[i % PORTS.len()],
        PORTS[(i / PORTS.len() + 1 + i) % PORTS.len()],
    );
    let to = if to == from {
        PORTS[(i + 1) % PORTS.len()]
    } else {
        to
    };
    let call = |locode: &str, id: &str, at: Timestamp| CallView {
        id: id.to_owned(),
        place: place(locode),
        vessel: None,
        voyage: Some(format!("{:03}E", i % 997)),
        original_eta: Some(at),
        eta: Some(at),
        ata: None,
        etd: Some(at + day),
        atd: None,
    };
    let containers = (0..1 + i % 3)
        .map(|c| {
            let number = container_number(i * 3 + c)?;
            let milestones = [
                Milestone::EmptyOut,
                Milestone::FullIn,
                Milestone::VesselLoaded,
            ]
            .into_iter()
            .take(1 + (i + c) % 3)
            .enumerate()
            .map(|(step, milestone)| MilestoneEvent {
                milestone,
                at: created + day * u32::try_from(step).unwrap_or(0),
                place: Some(place(from)),
                vessel: None,
                voyage: None,
                source_id: None,
            })
            .collect();
            Ok(ContainerView {
                number,
                iso_code: Some("45G1".to_owned()),
                seal: None,
                milestones,
                raw_events: Vec::new(),
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(Snapshot {
        bill_of_lading: Some(format!("TEST{i:010}")),
        booking: None,
        calls: vec![
            call(from, "1", created + day * 3),
            call(to, "2", created + day * 30),
        ],
        containers,
        shipment_events: Vec::new(),
    })
}

/// A valid ISO 6346 number (owners `TSAU` to `TSZU`, serials from `n`), its check digit
/// found by trying each.
fn container_number(n: usize) -> Result<String, String> {
    let owner = char::from(b'A' + u8::try_from(n / 1_000_000 % 26).unwrap_or(0));
    let serial = format!("TS{owner}U{:06}", n % 1_000_000);
    (0..10)
        .map(|digit| format!("{serial}{digit}"))
        .find(|number| ContainerNumber::parse(number).is_ok())
        .ok_or_else(|| format!("no check digit for {serial}"))
}
