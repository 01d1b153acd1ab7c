//! Subscribing to a terminal's pushes against the simulator's terminals: the terminal
//! takes the boxes and says until when, then pushes answers the protocol reader reads, with
//! the token it was given; a terminal that fails to take it fails by the carriers' rules;
//! the registry says where a terminal pushes and whose pushes a token makes.

use tidemark_carriers::Secret;
use tidemark_carriers::http::Failure;
use tidemark_carriers::registry::{Sandbox, Source};
use tidemark_carriers::terminal::registry::{Terminals, TerminalsConfig};
use tidemark_carriers::terminal::{CallbackTarget, TerminalConnector, protocol};
use tidemark_domain::terminal::TerminalCode;

use super::terminal::{key, served_holds, terminal, terminal_fault};
use super::{World, receiver, sim_config};
use carrier_sim::Fault;

#[tokio::test]
async fn a_terminal_takes_a_subscription_and_pushes_what_the_reader_reads() {
    let mut config = sim_config();
    config.admin_key = Some("admin".into());
    let world = World::start(config).await;
    let (numbers, code) = served_holds(&world).await;
    let connector = terminal(&world, &code, key());
    let (url, received) = receiver("authorization").await;
    let target = CallbackTarget {
        url,
        token: Secret::new("a-terminal-push-token"),
    };
    let until = connector
        .subscribe(&numbers, &target)
        .await
        .expect("subscribed");
    assert!(until > tidemark_domain::Timestamp::from_datetime(world.sim.clock().now()));

    let pushed = reqwest::Client::new()
        .post(format!("{}/admin/terminal-pushes", world.base))
        .header("Admin-Key", "admin")
        .send()
        .await
        .expect("request");
    assert_eq!(pushed.status(), 200);
    let got = received.lock().expect("lock").clone();
    assert_eq!(got.len(), 1, "one push for the boxes of one subscriber");
    let (auth, body) = &got[0];
    assert_eq!(auth, "Bearer a-terminal-push-token");
    let reports = protocol::read_pushed(body).expect("the protocol's answer");
    let mut read: Vec<&String> = reports.iter().map(|(number, _)| number).collect();
    read.sort();
    let mut asked: Vec<&String> = numbers.iter().collect();
    asked.sort();
    assert_eq!(read, asked);
}

#[tokio::test]
async fn a_subscription_refused_is_a_failure() {
    let world = World::start(sim_config()).await;
    let (numbers, code) = served_holds(&world).await;
    let connector = terminal(&world, &code, key());
    let target = CallbackTarget {
        url: "http://127.0.0.1:9/push".into(),
        token: Secret::new("a-terminal-push-token"),
    };
    terminal_fault(
        &world,
        Fault::ServerError {
            status: 503,
            retry_after_seconds: Some(30),
        },
    );
    let failed = connector.subscribe(&numbers, &target).await;
    assert!(matches!(failed, Err(Failure::Temporary(_))), "{failed:?}");
}

#[test]
fn a_terminal_pushes_where_this_tidemark_is_reached_with_its_own_token() {
    let code = TerminalCode::parse("USORFVIG").expect("code");
    let config = |base: Option<&str>| -> TerminalsConfig {
        let mut text = String::from("[callbacks.USORFVIG]\ntoken = \"a-terminal-push-token\"\n");
        if let Some(base) = base {
            text = format!("callback_base_url = \"{base}\"\n{text}");
        }
        toml::from_str(&text).expect("configuration")
    };
    let sandbox = Sandbox {
        base_url: "http://127.0.0.1:1".into(),
        api_key: Secret::new("sandbox-key"),
        settings: tidemark_carriers::registry::ConnectionSettings::default(),
        ais_feed: None,
    };
    let polled = Terminals::build(&config(None), Some(sandbox.clone())).expect("valid");
    assert!(
        polled.callback(&code, Source::Carrier).is_none(),
        "no base URL: polled only"
    );

    let pushed = Terminals::build(
        &config(Some("https://tidemark.example.com/")),
        Some(sandbox),
    )
    .expect("valid");
    let target = pushed.callback(&code, Source::Carrier).expect("pushes");
    assert_eq!(
        target.url,
        "https://tidemark.example.com/terminal-callbacks/USORFVIG/import-availability"
    );
    assert_eq!(target.token.expose(), "a-terminal-push-token");
    let other = TerminalCode::parse("DEHAMCTA").expect("code");
    assert!(
        pushed.callback(&other, Source::Carrier).is_none(),
        "it does not push"
    );
    assert_eq!(
        pushed
            .callback(&other, Source::Sandbox)
            .map(|t| t.token.expose().to_owned()),
        Some("sandbox-key".to_owned()),
        "the simulator's terminals push with the sandbox's key"
    );
    assert_eq!(
        pushed.authorize(&code, "a-terminal-push-token"),
        Some(Source::Carrier)
    );
    assert_eq!(pushed.authorize(&other, "a-terminal-push-token"), None);
    assert_eq!(
        pushed.authorize(&other, "sandbox-key"),
        Some(Source::Sandbox)
    );

    let bad: TerminalsConfig =
        toml::from_str("callback_base_url = \"ftp://example.com\"").expect("configuration");
    let error = Terminals::build(&bad, None).expect_err("refused");
    assert_eq!(error.entry, "terminals.callback_base_url");
}

#[test]
fn a_push_of_more_than_a_hundred_boxes_or_out_of_the_protocol_is_refused() {
    let entries: Vec<serde_json::Value> = (0..101)
        .map(|i| serde_json::json!({"containerNumber": format!("BOX{i}"), "known": false}))
        .collect();
    let too_many = serde_json::json!({"checkedAt": "2026-06-01T00:00:00Z", "containers": entries});
    let refused = protocol::read_pushed(too_many.to_string().as_bytes());
    assert!(
        refused
            .as_ref()
            .is_err_and(|problem| problem.contains("at most 100")),
        "{refused:?}"
    );
    assert!(protocol::read_pushed(b"<html>").is_err());
    let one = serde_json::json!({"containers": [
        {"containerNumber": "MSKU1234565", "known": true, "available": true,
         "holds": [{"type": "USDA", "status": "hold"}]}]});
    let read = protocol::read_pushed(one.to_string().as_bytes()).expect("read");
    assert_eq!(read.len(), 1);
    assert!(
        read[0]
            .1
            .as_ref()
            .is_some_and(|report| report.holds.len() == 1)
    );
}
