//! A carrier's quota held by three trackers together, as three processes on one database
//! would run (each with carriers of its own, so its own in-process limits): over a minute
//! of the trackers' clock, moved a quarter second at a time, the simulator is never called
//! faster than the quota allows (a token bucket's bound: the rate, plus the burst), and a
//! lookup the quota holds back waits for its turn instead of failing.

use tidemark::application::Application;
use tidemark_carriers::registry::CarriersConfig;
use tidemark_domain::RequestStatus;
use time::Duration;

use crate::support::TestApp;

const PER_SECOND: u64 = 5;
const BURST: u64 = 5;
const SECONDS: u64 = 60;

/// Another process over the same database, with carriers of its own: `HLCU` at the
/// simulator, held to the quota.
async fn process(h: &TestApp) -> Application {
    let text = format!(
        r#"
        [endpoints.HLCU]
        base_url = "{}/HLCU"
        auth = {{ kind = "header", name = "API-Key", value = "{}" }}
        settings = {{ per_second = {PER_SECOND}, burst = {BURST}, concurrency = 8, connect_timeout = "2s", timeout = "2s", max_response_bytes = 8388608, page_size = 100, max_pages = 50 }}
        "#,
        h.sim_url,
        tidemark_testkit::SIM_KEY,
    );
    let carriers: CarriersConfig = toml::from_str(&text).expect("carriers");
    h.another_process(move |config| config.carriers = carriers)
        .await
}

pub async fn three_trackers_keep_to_one_carrier_quota_together(h: TestApp) {
    h.advance(Duration::days(20));
    let mut requests = Vec::new();
    let numbers: Vec<String> = (0..400).map(|n| format!("HLCUQ{n:06}")).collect();
    for number in &numbers {
        requests.push(h.open("bill_of_lading", number, Some("HLCU")).await);
    }
    let processes = [process(&h).await, process(&h).await, process(&h).await];
    let trackers = processes
        .each_ref()
        .map(|p| p.tracker().expect("a tracker"));
    let calls = || -> u64 {
        numbers
            .iter()
            .map(|n| u64::from(h.sim.lookups("HLCU", n)))
            .sum()
    };
    // Calls made by the end of each quarter second.
    let mut made = vec![0];
    for _ in 0..SECONDS * 4 {
        for tracker in &trackers {
            tracker.run_until_idle().await.expect("drained");
        }
        made.push(calls());
        h.advance(Duration::milliseconds(250));
    }
    let total = *made.last().expect("counted");
    assert!(
        total <= BURST + PER_SECOND * SECONDS,
        "{total} calls in {SECONDS} s at {PER_SECOND}/s with a burst of {BURST}"
    );
    assert!(
        total >= PER_SECOND * SECONDS - PER_SECOND,
        "{total}: the quota is used, not starved"
    );
    // In any second: the rate, and once the burst's head start.
    for window in made.windows(5) {
        let in_second = window[4] - window[0];
        assert!(
            in_second < PER_SECOND + BURST,
            "{in_second} in one second: {made:?}"
        );
    }
    // Past the burst's head start, the rate: over the last fifty seconds, what the rate
    // allows, plus at most one burst (a bucket refills in a pause, a quarter second in
    // which no lookup was due, and a second after the pause may then use it).
    let late = total - made[made.len() - 1 - 50 * 4];
    assert!(
        (PER_SECOND * 50 - PER_SECOND..=PER_SECOND * 50 + BURST).contains(&late),
        "{late} calls in the last 50 s: {made:?}"
    );
    // Held back, not failed: every request is pending or tracked, none retrying.
    for request in &requests {
        let now = h.stored(request).await;
        assert!(
            matches!(now.status, RequestStatus::Pending | RequestStatus::Created),
            "{:?}",
            now.status
        );
        assert!(!now.is_retrying, "a spent quota is no failure");
    }
}
