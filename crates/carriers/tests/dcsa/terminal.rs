//! The terminal connector against the simulator's terminals: reports of the boxes a
//! carrier served, chunks of at most 100, every failure rule, and which terminal the
//! registry picks for whom.

use std::time::Duration;

use tidemark_carriers::auth::Auth;
use tidemark_carriers::http::Failure;
use tidemark_carriers::registry::{CarriersConfig, Registry, Sandbox, Source};
use tidemark_carriers::settings::HttpSettings;
use tidemark_carriers::terminal::registry::TerminalsConfig;
use tidemark_carriers::terminal::{HttpTerminal, TerminalConfig, TerminalConnector};
use tidemark_carriers::{CarrierConnector, Secret};
use tidemark_domain::terminal::{HoldName, HoldStatus, TerminalCode};
use tidemark_domain::{RequestType, SandboxScope, TemporaryReason};

use super::{KEY, World, found, lookup, sim_config};
use carrier_sim::{Fault, FaultRule};

pub(crate) fn terminal(world: &World, code: &str, auth: Auth) -> HttpTerminal {
    let settings = HttpSettings {
        timeout: Duration::from_secs(2),
        ..HttpSettings::default()
    };
    HttpTerminal::new(&TerminalConfig {
        base_url: format!("{}/terminals/{code}", world.base),
        auth,
        connect_timeout: settings.connect_timeout,
        timeout: settings.timeout,
        max_response_bytes: 64 * 1024,
        limits: tidemark_carriers::limits::RateLimits::default(),
    })
    .expect("valid config")
}

pub(crate) fn key() -> Auth {
    Auth::Header {
        name: "API-Key".into(),
        value: Secret::new(KEY),
    }
}

/// Looks `TEST-TR-HOLDS` up at the sandbox carrier, as Tidemark does before a terminal
/// check; its boxes and the code of their terminal of discharge.
pub(crate) async fn served_holds(world: &World) -> (Vec<String>, String) {
    let snapshot = found(
        world
            .connector("TEST")
            .lookup(&lookup("TEST-TR-HOLDS", RequestType::BookingNumber))
            .await,
    );
    let numbers = snapshot
        .containers
        .iter()
        .map(|c| c.number.clone())
        .collect();
    let code = snapshot
        .port_of_discharge()
        .and_then(|call| call.place.facility.clone())
        .expect("the line names the terminal of discharge");
    (numbers, code)
}

pub(crate) fn terminal_fault(world: &World, fault: Fault) {
    world.sim.add_fault(FaultRule {
        scac: None,
        terminal: Some("*".into()),
        reference: None,
        fault,
        times: Some(1),
    });
}

#[tokio::test]
async fn a_terminal_reports_the_boxes_a_carrier_brought_it() {
    let world = World::start(sim_config()).await;
    let (numbers, code) = served_holds(&world).await;
    let connector = terminal(&world, &code, key());
    let reports = connector.check(&numbers).await.expect("an answer");
    assert_eq!(reports.len(), numbers.len());
    let report = reports[0].1.clone().expect("the terminal knows the box");
    assert_eq!(report.available, Some(false));
    let holds: Vec<(HoldName, HoldStatus)> =
        report.holds.iter().map(|h| (h.name, h.status)).collect();
    assert_eq!(
        holds,
        [
            (HoldName::Customs, HoldStatus::Pending),
            (HoldName::Freight, HoldStatus::Hold)
        ]
    );
    assert!(report.last_free_day.is_none(), "not discharged yet");

    // 40 hours later: discharged, the freight released, customs holds it and charged an exam.
    world.sim.clock().advance(time::Duration::hours(40));
    let report = connector.check(&numbers).await.expect("an answer")[0]
        .1
        .clone()
        .expect("known");
    assert_eq!(report.holds.len(), 1, "{:?}", report.holds);
    assert!(report.last_free_day.is_some() && report.location.is_some());
    assert_eq!(report.fees.len(), 2, "the exam and the total");

    let elsewhere = terminal(&world, "NOWHERE1", key());
    let unknown = elsewhere.check(&numbers).await.expect("an answer");
    assert!(unknown.iter().all(|(_, report)| report.is_none()));
}

#[tokio::test]
async fn more_than_a_hundred_boxes_are_asked_in_chunks() {
    let world = World::start(sim_config()).await;
    let numbers: Vec<String> = (0..150u32)
        .map(|serial| {
            let body = format!("MSKU{serial:06}");
            let check = carrier_sim::data::iso6346_check_digit(&body).expect("digit");
            format!("{body}{check}")
        })
        .collect();
    let reports = terminal(&world, "ECTDE", key())
        .check(&numbers)
        .await
        .expect("two answers");
    let answered: Vec<&String> = reports.iter().map(|(number, _)| number).collect();
    assert_eq!(answered, numbers.iter().collect::<Vec<_>>());
}

#[tokio::test]
async fn a_terminal_fails_by_the_carriers_rules() {
    let world = World::start(sim_config()).await;
    let (numbers, code) = served_holds(&world).await;
    let connector = terminal(&world, &code, key());
    let cases = [
        (
            Fault::ServerError {
                status: 503,
                retry_after_seconds: Some(7),
            },
            Failure::Temporary(TemporaryReason::Unavailable {
                retry_after: Some(Duration::from_secs(7)),
            }),
        ),
        (
            Fault::RateLimited {
                retry_after_seconds: 3,
            },
            Failure::Temporary(TemporaryReason::RateLimited {
                retry_after: Some(Duration::from_secs(3)),
            }),
        ),
        (
            Fault::ServerError {
                status: 500,
                retry_after_seconds: None,
            },
            Failure::Temporary(TemporaryReason::Unreachable("status 500".into())),
        ),
        (Fault::Forbidden, Failure::Forbidden),
        (
            Fault::Unauthorized,
            Failure::Temporary(TemporaryReason::Unauthorized),
        ),
    ];
    for (fault, expected) in cases {
        terminal_fault(&world, fault.clone());
        assert_eq!(connector.check(&numbers).await, Err(expected), "{fault:?}");
    }
    for fault in [
        Fault::MalformedJson,
        Fault::TruncatedJson,
        Fault::SchemaInvalid,
        Fault::Huge { bytes: 100_000 },
    ] {
        terminal_fault(&world, fault.clone());
        let failure = connector.check(&numbers).await;
        assert!(
            matches!(
                failure,
                Err(Failure::Temporary(TemporaryReason::Unrecognized(_)))
            ),
            "{fault:?}: {failure:?}"
        );
    }
    terminal_fault(&world, Fault::Timeout);
    let failure = connector.check(&numbers).await;
    assert!(
        matches!(
            failure,
            Err(Failure::Temporary(TemporaryReason::Unreachable(_)))
        ),
        "{failure:?}"
    );
    let wrong_key = terminal(
        &world,
        &code,
        Auth::Header {
            name: "API-Key".into(),
            value: Secret::new("wrong"),
        },
    );
    assert_eq!(
        wrong_key.check(&numbers).await,
        Err(Failure::Temporary(TemporaryReason::Unauthorized))
    );
    assert!(
        connector.check(&numbers).await.is_ok(),
        "the faults are used up"
    );
}

#[tokio::test]
async fn the_sandbox_s_boxes_go_to_simulated_terminals_and_only_they() {
    let world = World::start(sim_config()).await;
    let (numbers, code) = served_holds(&world).await;
    let sandbox = Sandbox {
        base_url: world.base.clone(),
        api_key: Secret::new(KEY),
        settings: tidemark_carriers::registry::ConnectionSettings::default(),
        ais_feed: None,
    };
    let code = TerminalCode::parse(&code).expect("a code");
    let registry = Registry::build(
        &CarriersConfig::default(),
        Some(sandbox),
        SandboxScope::TestOnly,
    )
    .expect("valid");
    let terminals = registry.terminals();
    assert!(
        terminals.connector(&code, Source::Carrier).is_none(),
        "no real terminal configured"
    );
    let simulated = terminals
        .connector(&code, Source::Sandbox)
        .expect("the simulator's");
    assert!(
        simulated.check(&numbers).await.expect("an answer")[0]
            .1
            .is_some()
    );

    let config: TerminalsConfig = toml::from_str(&format!(
        "[endpoints.{code}]\nbase_url = \"{}/terminals/{code}\"\nauth = {{ kind = \"header\", name = \"API-Key\", value = \"{KEY}\" }}\n",
        world.base
    ))
    .expect("TOML");
    let registry = registry.with_terminals(&config).expect("valid");
    assert!(
        registry
            .terminals()
            .connector(&code, Source::Carrier)
            .is_some()
    );
    assert!(
        registry
            .describe()
            .contains(&format!("{code} -> {}", world.base))
    );

    for (entry, problem) in [
        (
            "[endpoints.\"EC/T\"]\nbase_url = \"http://x\"",
            "terminals.endpoints.EC/T",
        ),
        (
            "[endpoints.ECTDE]\nbase_url = \"ftp://x\"",
            "terminals.endpoints.ECTDE",
        ),
    ] {
        let config: TerminalsConfig = toml::from_str(entry).expect("TOML");
        let built = Registry::build(&CarriersConfig::default(), None, SandboxScope::Off)
            .and_then(|registry| registry.with_terminals(&config));
        let error = built.expect_err("refused").to_string();
        assert!(error.starts_with(problem), "{error}");
    }
}
