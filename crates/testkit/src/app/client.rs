//! The test's HTTP client of a [`TestApp`]: requests with the account's key.

use reqwest::{Method, RequestBuilder, Response};
use serde_json::{Value, json};

use super::TestApp;

/// The JSON:API media type.
pub const JSON_API: &str = "application/vnd.api+json";

impl TestApp {
    /// `method` on `path`, with `key` when given. `path` may be a link as answers carry
    /// it: an absolute URL, which must be under this app's address.
    ///
    /// # Panics
    /// When `path` is a URL elsewhere.
    pub fn request(&self, method: Method, path: &str, key: Option<&str>) -> RequestBuilder {
        let url = if path.starts_with("http://") || path.starts_with("https://") {
            assert!(
                path.starts_with(&format!("{}/", self.base)),
                "{path} is not under {}",
                self.base
            );
            path.to_owned()
        } else {
            format!("{}{path}", self.base)
        };
        let builder = self.client.request(method, url);
        match key {
            Some(key) => builder.header("Authorization", format!("Token {key}")),
            None => builder,
        }
    }

    /// `path` as the app's answers link to it: an absolute URL on its address.
    #[must_use]
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// `value` with the app's address taken off every link in it, as the records of
    /// webhook notifications carry them when no public URL is configured.
    #[must_use]
    pub fn as_paths(&self, value: &Value) -> Value {
        match value {
            Value::String(text) => Value::String(
                text.strip_prefix(&self.base)
                    .filter(|rest| rest.starts_with('/'))
                    .unwrap_or(text)
                    .to_owned(),
            ),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.as_paths(v)).collect()),
            Value::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), self.as_paths(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// `method` on `path` with this app's key and no body.
    ///
    /// # Panics
    /// When the request cannot be sent.
    pub async fn call(&self, method: Method, path: &str) -> Response {
        self.request(method, path, Some(&self.key))
            .send()
            .await
            .expect("request")
    }

    /// `GET path` with this app's key.
    pub async fn get(&self, path: &str) -> Response {
        self.call(Method::GET, path).await
    }

    /// `GET path`, asserting the answer came within `bound`.
    ///
    /// # Panics
    /// When it came later.
    pub async fn get_within(&self, path: &str, bound: std::time::Duration) -> Response {
        let started = std::time::Instant::now();
        let response = self.get(path).await;
        let took = started.elapsed();
        assert!(
            took < bound,
            "{path} answered after {took:?}, beyond {bound:?}"
        );
        response
    }

    /// `GET path` with `key`.
    ///
    /// # Panics
    /// When the request cannot be sent.
    pub async fn get_as(&self, key: &str, path: &str) -> Response {
        self.request(Method::GET, path, Some(key))
            .send()
            .await
            .expect("request")
    }

    /// `POST path` of the JSON:API document `body` with `key`.
    ///
    /// # Panics
    /// When the request cannot be sent.
    pub async fn post_json(&self, path: &str, key: &str, body: &Value) -> Response {
        self.request(Method::POST, path, Some(key))
            .header("Content-Type", JSON_API)
            .body(body.to_string())
            .send()
            .await
            .expect("request")
    }

    /// `POST /v2/tracking_requests` of `body`.
    pub async fn create(&self, body: &Value) -> Response {
        self.post_json("/v2/tracking_requests", &self.key, body)
            .await
    }

    /// `PATCH path` of the JSON:API document `body`.
    ///
    /// # Panics
    /// When the request cannot be sent.
    pub async fn patch(&self, path: &str, body: &Value) -> Response {
        self.request(Method::PATCH, path, Some(&self.key))
            .header("Content-Type", JSON_API)
            .body(body.to_string())
            .send()
            .await
            .expect("request")
    }

    /// Subscribes a webhook at `url` to every event.
    ///
    /// # Panics
    /// When it is refused.
    pub async fn subscribe(&self, url: &str) {
        let created = self
            .post_json(
                "/v2/webhooks",
                &self.key,
                &json!({"data": {"type": "webhook", "attributes": {"url": url}}}),
            )
            .await;
        assert_eq!(created.status(), 201);
    }

    /// The tracking request `document` (an answer of the API) is about, as stored now.
    ///
    /// # Panics
    /// When it is not stored.
    pub async fn stored_request(&self, document: &Value) -> tidemark_domain::TrackingRequest {
        let id = document["data"]["id"].as_str().expect("an id");
        let id = tidemark_domain::TrackingRequestId::parse(id).expect("a request's id");
        self.store
            .tracking_request(self.account.id, id)
            .await
            .expect("read")
            .expect("stored")
    }

    /// Creates a tracking request through the API (`scac` `None`: detected), as stored.
    ///
    /// # Panics
    /// When it is refused.
    pub async fn open(
        &self,
        kind: &str,
        number: &str,
        scac: Option<&str>,
    ) -> tidemark_domain::TrackingRequest {
        let mut attributes = json!({"request_type": kind, "request_number": number});
        match scac {
            Some(scac) => attributes["scac"] = json!(scac),
            None => attributes["auto_detect_vocc_scac"] = json!(true),
        }
        let response = self
            .create(&json!({"data": {"type": "tracking_request", "attributes": attributes}}))
            .await;
        let status = response.status();
        let text = response.text().await.expect("body");
        assert_eq!(status, 201, "{text}");
        let document: Value = serde_json::from_str(&text).expect("JSON");
        self.stored_request(&document).await
    }

    /// A bill of lading of the sandbox line `TEST`, created.
    pub async fn test_bill(&self, number: &str) -> tidemark_domain::TrackingRequest {
        self.open("bill_of_lading", number, Some("TEST")).await
    }
}
