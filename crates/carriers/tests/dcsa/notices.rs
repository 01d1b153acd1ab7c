//! The Arrival Notice connector against the simulator's publisher: the line's word on
//! each box of a bill as the voyage goes, the carriers' failure rules, and which lines are
//! asked for whom.

use std::time::Duration;

use carrier_sim::{Fault, FaultRule};
use tidemark_carriers::Secret;
use tidemark_carriers::arrival_notice::registry::{ArrivalNoticesConfig, Publishers};
use tidemark_carriers::arrival_notice::{ArrivalNoticeConnector, HttpArrivalNotices};
use tidemark_carriers::auth::Auth;
use tidemark_carriers::http::Failure;
use tidemark_carriers::registry::{ConnectionSettings, Sandbox, Source};
use tidemark_carriers::settings::HttpSettings;
use tidemark_domain::{Scac, TemporaryReason};

use super::{KEY, World, sim_config};

fn publisher(world: &World) -> HttpArrivalNotices {
    let auth = Auth::Header {
        name: "API-Key".into(),
        value: Secret::new(KEY),
    };
    let settings = HttpSettings {
        timeout: Duration::from_secs(2),
        ..HttpSettings::default()
    };
    HttpArrivalNotices::new(&format!("{}/TEST", world.base), auth, &settings).expect("valid")
}

#[tokio::test]
async fn the_line_s_word_follows_the_voyage() {
    let world = World::start(sim_config()).await;
    let notices = publisher(&world);
    let first = notices.notices("TEST-TR-HOLDS").await.expect("an answer");
    assert!(!first.is_empty());
    for (number, notice) in &first {
        assert_eq!(number.len(), 11);
        assert_eq!(notice.notice.freight_released, Some(false));
        assert_eq!(notice.notice.customs_released, Some(false));
        assert!(notice.notice.pickup_number.is_some() && notice.notice.pickup_facility.is_some());
        assert!(notice.notice.return_location.is_some());
        assert_eq!(notice.last_free_day, None, "no free time before discharge");
    }
    world.sim.clock().advance(time::Duration::hours(60));
    let later = notices.notices("TEST-TR-HOLDS").await.expect("an answer");
    for (_, notice) in &later {
        assert_eq!(notice.notice.freight_released, Some(true));
        assert_eq!(notice.notice.customs_released, Some(true));
        assert!(notice.last_free_day.is_some());
    }
    assert!(
        notices
            .notices("TEST-TR-NOT-FOUND")
            .await
            .expect("an answer")
            .is_empty(),
        "no notice for a bill the line does not know"
    );
}

#[tokio::test]
async fn a_publisher_fails_by_the_carriers_rules() {
    let world = World::start(sim_config()).await;
    let notices = publisher(&world);
    let fault = |fault| FaultRule {
        scac: Some("TEST".into()),
        terminal: None,
        reference: Some("TEST-TR-HOLDS".into()),
        fault,
        times: Some(1),
    };
    world.sim.add_fault(fault(Fault::ServerError {
        status: 503,
        retry_after_seconds: Some(30),
    }));
    assert_eq!(
        notices.notices("TEST-TR-HOLDS").await,
        Err(Failure::Temporary(TemporaryReason::Unavailable {
            retry_after: Some(Duration::from_secs(30))
        }))
    );
    world.sim.add_fault(fault(Fault::Forbidden));
    assert_eq!(
        notices.notices("TEST-TR-HOLDS").await,
        Err(Failure::Forbidden)
    );
    world.sim.add_fault(fault(Fault::MalformedJson));
    let garbled = notices.notices("TEST-TR-HOLDS").await;
    assert!(
        matches!(
            garbled,
            Err(Failure::Temporary(TemporaryReason::Unrecognized(_)))
        ),
        "{garbled:?}"
    );
    assert!(notices.notices("TEST-TR-HOLDS").await.is_ok());
}

#[test]
fn real_lines_are_asked_only_where_configured() {
    let sandbox = Sandbox {
        base_url: "http://127.0.0.1:9".into(),
        api_key: Secret::new(KEY),
        settings: ConnectionSettings::default(),
        ais_feed: None,
    };
    let maersk = Scac::parse("MAEU").expect("scac");
    let none =
        Publishers::build(&ArrivalNoticesConfig::default(), Some(sandbox.clone())).expect("valid");
    assert!(none.connector(maersk, Source::Carrier).is_none());
    assert!(none.connector(maersk, Source::Sandbox).is_some());
    let config: ArrivalNoticesConfig =
        toml::from_str("[endpoints.MAEU]\nbase_url = \"https://api.example.com/an\"\n")
            .expect("TOML");
    let configured = Publishers::build(&config, None).expect("valid");
    assert!(configured.connector(maersk, Source::Carrier).is_some());
    assert!(
        configured.connector(maersk, Source::Sandbox).is_none(),
        "no sandbox here"
    );
    let bad: ArrivalNoticesConfig =
        toml::from_str("[endpoints.\"M-EU\"]\nbase_url = \"https://x\"\n").expect("TOML");
    let error = Publishers::build(&bad, None)
        .expect_err("refused")
        .to_string();
    assert!(
        error.starts_with("arrival_notices.endpoints.M-EU"),
        "{error}"
    );
}
