//! DCSA 2.2 event subscriptions from Tidemark's side against the simulator: subscribe with
//! a secret, receive a push signed with it, replace the secret and receive one signed with
//! the new one only, end the subscription (twice: the second finds it gone, which is fine).

use tidemark_carriers::dcsa::subscriptions::EventSubscriber;
use tidemark_domain::{PushSecret, RequestType};

use crate::*;

async fn push_all(world: &World) -> Vec<serde_json::Value> {
    let answer: serde_json::Value = reqwest::Client::new()
        .post(format!("{}/admin/event-pushes", world.base))
        .header("Admin-Key", "admin")
        .json(&serde_json::json!({}))
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("json");
    answer["pushes"].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn a_subscription_is_made_signed_rotated_and_ended() {
    let mut config = sim_config();
    config.admin_key = Some("admin".into());
    let world = World::start(config).await;
    world.advance_days(10);
    let carrier = world.connector("MAEU");
    let (url, received) = receiver("notification-signature").await;
    let first = PushSecret::generate();
    let lookup = lookup("MAEU240529131", RequestType::BillOfLading);
    let id = carrier
        .subscribe(&lookup, &url, &first)
        .await
        .expect("subscribed");
    assert_eq!(push_all(&world).await.len(), 1);
    {
        let got = received.lock().expect("lock");
        let (signature, body) = got.last().expect("pushed");
        assert!(first.verifies(body, signature));
        assert!(!carrier.read_pushed(body).expect("events").is_empty());
    }
    let second = PushSecret::generate();
    carrier.rotate(&id, &second).await.expect("rotated");
    world.advance_days(5);
    assert_eq!(push_all(&world).await.len(), 1);
    {
        let got = received.lock().expect("lock");
        let (signature, body) = got.last().expect("pushed");
        assert!(
            second.verifies(body, signature),
            "signed with the new secret"
        );
        assert!(!first.verifies(body, signature), "and not the old");
    }
    carrier.unsubscribe(&id).await.expect("ended");
    carrier
        .unsubscribe(&id)
        .await
        .expect("already gone is ended");
    world.advance_days(5);
    assert!(
        push_all(&world).await.is_empty(),
        "no subscription, no push"
    );
    assert!(
        carrier.rotate(&id, &second).await.is_err(),
        "a subscription gone has no secret"
    );
}
