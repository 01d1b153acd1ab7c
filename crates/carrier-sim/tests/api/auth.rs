//! Keys and OAuth tokens.

use reqwest::StatusCode;
use serde_json::Value;

use crate::*;

#[tokio::test]
async fn keys_are_required_and_oauth_tokens_work() {
    let sim = Sim::start(config()).await;
    let url = format!("{}/MAEU/v2/events?carrierBookingReference=B1", sim.base);
    for key in [None, Some("wrong")] {
        let mut request = sim.client.get(&url);
        if let Some(key) = key {
            request = request.header("API-Key", key);
        }
        let response = request.send().await.expect("request");
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
        assert_valid(&ERROR, &response.json().await.expect("JSON"));
    }
    let refused = sim
        .client
        .post(format!("{}/oauth/token", sim.base))
        .form(&[
            ("grant_type", "client_credentials"),
            ("client_id", "tidemark"),
            ("client_secret", "nope"),
        ])
        .send()
        .await
        .expect("request");
    assert_eq!(refused.status(), StatusCode::UNAUTHORIZED);
    let granted: Value = sim
        .client
        .post(format!("{}/oauth/token", sim.base))
        .basic_auth("tidemark", Some("s3cret"))
        .form(&[("grant_type", "client_credentials")])
        .send()
        .await
        .expect("request")
        .json()
        .await
        .expect("JSON");
    let token = granted["access_token"].as_str().expect("token");
    let with_token = || async {
        let request = sim.client.get(&url).bearer_auth(token);
        request.send().await.expect("request").status()
    };
    assert_eq!(with_token().await, StatusCode::OK);
    sim.advance(1).await;
    assert_eq!(
        with_token().await,
        StatusCode::UNAUTHORIZED,
        "tokens expire in simulated time"
    );
}
