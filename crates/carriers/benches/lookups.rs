//! Lookups per second through the DCSA connector against a carrier simulator on loopback,
//! 32 at a time: the connector's own cost (HTTP, JSON, mapping) with a carrier that answers
//! at once. Per-carrier rate limits are not applied here.
//!
//! `bash bench/carriers.sh` runs it against a release `carrier-sim` in its own process;
//! without `SIM_URL` it starts a simulator in this process.

// A bench binary reports on standard output.
#![allow(clippy::print_stdout, missing_docs)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use tidemark_carriers::auth::Auth;
use tidemark_carriers::dcsa::{DcsaConfig, DcsaConnector};
use tidemark_carriers::{CarrierConnector, Lookup, Secret};
use tidemark_domain::{LookupOutcome, RequestType};

const CONCURRENCY: usize = 32;
const LOOKUPS: usize = 20_000;

#[tokio::main]
async fn main() {
    let (base, key) = match (std::env::var("SIM_URL"), std::env::var("SIM_KEY")) {
        (Ok(url), Ok(key)) => (url, key),
        _ => {
            let sim = carrier_sim::Simulator::new(carrier_sim::SimConfig::new("bench"));
            (
                sim.spawn().await.expect("simulator listens"),
                "bench".to_owned(),
            )
        }
    };
    let connector = Arc::new(
        DcsaConnector::new(DcsaConfig::new(
            format!("{base}/MAEU"),
            Auth::Header {
                name: "API-Key".into(),
                value: Secret::new(key),
            },
        ))
        .expect("config"),
    );
    // Warm the connection pool.
    for i in 0..CONCURRENCY {
        connector
            .lookup(&Lookup::new(
                format!("{:09}", 100_000_000 + i),
                RequestType::BillOfLading,
            ))
            .await;
    }
    let started = Instant::now();
    let workers: Vec<_> = (0..CONCURRENCY)
        .map(|worker| {
            let connector = Arc::clone(&connector);
            tokio::spawn(async move {
                let mut latencies = Vec::with_capacity(LOOKUPS / CONCURRENCY);
                let mut found = 0usize;
                for i in (worker..LOOKUPS).step_by(CONCURRENCY) {
                    let lookup =
                        Lookup::new(format!("{:09}", 200_000_000 + i), RequestType::BillOfLading);
                    let start = Instant::now();
                    let outcome = connector.lookup(&lookup).await;
                    latencies.push(start.elapsed());
                    found += usize::from(matches!(outcome, LookupOutcome::Found(_)));
                }
                (latencies, found)
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = Vec::with_capacity(LOOKUPS);
    let mut found = 0;
    for worker in workers {
        let (mut times, hits) = worker.await.expect("worker");
        latencies.append(&mut times);
        found += hits;
    }
    let elapsed = started.elapsed();
    latencies.sort();
    let percentile = |p: f64| {
        let index = ((latencies.len() as f64 - 1.0) * p).round() as usize;
        latencies[index].as_secs_f64() * 1000.0
    };
    println!(
        "DCSA connector vs simulator, concurrency {CONCURRENCY}: {LOOKUPS} lookups in {:.2} s = {:.0} lookups/s; p50 {:.2} ms, p99 {:.2} ms; {found} found (others: seeded not-found, cancelled or not yet manifested)",
        elapsed.as_secs_f64(),
        LOOKUPS as f64 / elapsed.as_secs_f64(),
        percentile(0.50),
        percentile(0.99),
    );
}
