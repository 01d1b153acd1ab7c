//! `Idempotency-Key` on a POST: a retry with the same key and body gets the first answer
//! again (the resource made once), another body with the key is refused, a malformed key
//! is refused, keys are an account's own, a 4xx answer is kept too, concurrent retries
//! make one resource, a first request whose client hangs up is finished and its answer kept
//! for the retry, and after 24 hours the key is free again.

use reqwest::{Method, Response};
use serde_json::Value;

use crate::common::{JSON_API, TestApp, document, errors, tracking_request, with_tracking};

tidemark_store::backends!(
    with_tracking,
    a_retry_with_the_key_gets_the_first_answer_and_another_body_is_refused,
    concurrent_retries_with_one_key_make_one_request,
    a_first_request_whose_client_hangs_up_is_answered_once_for_its_retry,
);

async fn post(t: &TestApp, api_key: &str, key: &str, path: &str, body: &Value) -> Response {
    t.request(Method::POST, path, Some(api_key))
        .header("Content-Type", JSON_API)
        .header("Idempotency-Key", key)
        .body(body.to_string())
        .send()
        .await
        .expect("request")
}

async fn requests(t: &TestApp) -> u64 {
    document(t.get("/v2/tracking_requests").await).await["meta"]["total"]
        .as_u64()
        .expect("a total")
}

async fn a_retry_with_the_key_gets_the_first_answer_and_another_body_is_refused(t: TestApp) {
    let key = t.key.clone();
    let body = tracking_request("booking_number", "TEST-TR-SUCCEEDED", "TEST");
    let first = post(&t, &key, "k-1", "/v2/tracking_requests", &body).await;
    assert_eq!(first.status(), 201);
    assert!(first.headers().get("idempotent-replayed").is_none());
    let location = first.headers().get("location").cloned();
    let first = document(first).await;
    let again = post(&t, &key, "k-1", "/v2/tracking_requests", &body).await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    assert_eq!(again.headers().get("location").cloned(), location);
    assert!(
        again.headers().contains_key("ratelimit-remaining"),
        "a replay is charged"
    );
    assert_eq!(
        document(again).await,
        first,
        "the first answer, to the byte"
    );
    assert_eq!(requests(&t).await, 1, "made once");

    // The key with another body, or at another path: refused.
    let other = tracking_request("booking_number", "TEST-TR-JOURNEY", "TEST");
    let reused = post(&t, &key, "k-1", "/v2/tracking_requests", &other).await;
    assert!(
        reused.headers().contains_key("ratelimit-remaining"),
        "every answer past authentication carries the limit"
    );
    let reused = errors(reused, 422).await;
    assert_eq!(reused[0]["code"], "idempotency_key_reused");
    assert_eq!(reused[0]["source"]["header"], "Idempotency-Key");
    assert_eq!(requests(&t).await, 1);

    // Malformed keys.
    for bad in ["", "two words", &"k".repeat(256)] {
        let refused = errors(
            post(&t, &key, bad, "/v2/tracking_requests", &other).await,
            400,
        )
        .await;
        assert_eq!(refused[0]["code"], "invalid", "{bad:?}");
        assert_eq!(refused[0]["source"]["header"], "Idempotency-Key");
    }

    // A client error is kept too: the same invalid request gets the same 422, replayed.
    let invalid = tracking_request("booking_number", "", "TEST");
    let once = post(&t, &key, "k-2", "/v2/tracking_requests", &invalid).await;
    assert_eq!(once.status(), 422);
    let twice = post(&t, &key, "k-2", "/v2/tracking_requests", &invalid).await;
    assert_eq!(twice.status(), 422);
    assert_eq!(twice.headers()["idempotent-replayed"], "true");

    // Keys are each account's own.
    let (_, stranger) = t.new_account("another").await;
    let theirs = post(&t, &stranger, "k-1", "/v2/tracking_requests", &other).await;
    assert_eq!(theirs.status(), 201);
    assert!(theirs.headers().get("idempotent-replayed").is_none());

    // A day later the key is free for a new request.
    t.advance(time::Duration::hours(24) + time::Duration::seconds(1));
    let later = post(&t, &key, "k-1", "/v2/tracking_requests", &other).await;
    assert_eq!(later.status(), 201, "expired");
    assert!(later.headers().get("idempotent-replayed").is_none());
    assert_eq!(requests(&t).await, 2);
}

async fn concurrent_retries_with_one_key_make_one_request(t: TestApp) {
    let key = t.key.clone();
    let body = tracking_request("booking_number", "TEST-TR-JOURNEY", "TEST");
    let retries = (0..8).map(|_| post(&t, &key, "same-key", "/v2/tracking_requests", &body));
    let answers = futures::future::join_all(retries).await;
    let mut ids = Vec::new();
    for answer in answers {
        assert_eq!(answer.status(), 201);
        ids.push(document(answer).await["data"]["id"].clone());
    }
    assert!(ids.windows(2).all(|pair| pair[0] == pair[1]), "{ids:?}");
    assert_eq!(requests(&t).await, 1);
}

async fn a_first_request_whose_client_hangs_up_is_answered_once_for_its_retry(t: TestApp) {
    use tokio::io::AsyncWriteExt;

    let key = t.key.clone();
    let body = serde_json::json!({"data": {"type": "webhook",
        "attributes": {"url": "https://hooks.example.com/once"}}});
    let text = body.to_string();
    let address = t.base.trim_start_matches("http://").to_owned();
    // The whole request, then the connection closed before any answer.
    let mut socket = tokio::net::TcpStream::connect(&address)
        .await
        .expect("connect");
    let request = format!(
        "POST /v2/webhooks HTTP/1.1\r\nHost: {address}\r\nAuthorization: Token {key}\r\n\
         Content-Type: {JSON_API}\r\nIdempotency-Key: hang-up\r\n\
         Content-Length: {}\r\n\r\n{text}",
        text.len()
    );
    socket.write_all(request.as_bytes()).await.expect("sent");
    drop(socket);

    // The retry gets the first request's answer (waiting for it if need be), not a
    // second webhook and not a key held with nobody to answer.
    let retry = post(&t, &key, "hang-up", "/v2/webhooks", &body).await;
    assert_eq!(retry.status(), 201);
    let listed = document(t.get("/v2/webhooks").await).await;
    assert_eq!(listed["meta"]["total"], 1, "one webhook");
}
