//! Every error is a JSON:API error with the right status and code, and bad input never
//! causes a 500 (api.md §1 "Errors").

use std::sync::Arc;

use failing::FailingStore;
use reqwest::Method;
use serde_json::{Value, json};
use tidemark_domain::TrackingRequestId;

use crate::common::{JSON_API, TestApp, codes, errors, tracking_request};

use crate::common::with_app;

tidemark_store::backends!(
    with_app,
    malformed_json_is_400,
    a_body_that_is_not_a_document_is_400,
    query_parameter_problems_are_400_with_the_parameter,
    a_client_generated_id_is_403,
    unknown_routes_and_malformed_ids_are_404,
    a_wrong_method_is_405_with_allow,
    unacceptable_accept_headers_are_406,
    a_wrong_type_is_409,
    bodies_over_the_limit_are_413,
    unsupported_content_types_are_415,
    hostile_input_never_causes_a_server_error,
);

async fn send(
    app: &TestApp,
    method: Method,
    path: &str,
    content_type: &str,
    body: impl Into<reqwest::Body>,
) -> reqwest::Response {
    app.request(method, path, Some(&app.key))
        .header("Content-Type", content_type)
        .body(body)
        .send()
        .await
        .expect("request")
}

async fn malformed_json_is_400(app: TestApp) {
    for body in ["{", "{\"data\": }", "", "nul", "\u{0}"] {
        let response = send(&app, Method::POST, "/v2/tracking_requests", JSON_API, body).await;
        assert_eq!(
            codes(&errors(response, 400).await)[0].0,
            "malformed_json",
            "{body:?}"
        );
    }
}

async fn a_body_that_is_not_a_document_is_400(app: TestApp) {
    for body in [
        json!([]),
        json!("text"),
        json!({"type": "tracking_request"}),
        json!({"data": []}),
        json!({"data": null}),
    ] {
        let response = app.create(&body).await;
        assert_eq!(
            codes(&errors(response, 400).await),
            [("malformed_json".to_owned(), "/data".to_owned())],
            "{body}"
        );
    }
}

async fn query_parameter_problems_are_400_with_the_parameter(app: TestApp) {
    for (query, code, parameter) in [
        ("page[size]=0", "invalid_parameter", "page[size]"),
        ("page[size]=101", "invalid_parameter", "page[size]"),
        ("page[number]=abc", "invalid_parameter", "page[number]"),
        ("include=account", "invalid_include", "include"),
        ("filter[colour]=red", "invalid_filter", "filter[colour]"),
        ("filter[status]=lost", "invalid_filter", "filter[status]"),
        (
            "filter[created_at][start]=yesterday",
            "invalid_filter",
            "filter[created_at][start]",
        ),
        ("sort=-created_at", "invalid_parameter", "sort"),
        ("q=a&q=b", "invalid_parameter", "q"),
        (
            "page[size]=5&page[size]=6",
            "invalid_parameter",
            "page[size]",
        ),
    ] {
        let response = app.get(&format!("/v2/tracking_requests?{query}")).await;
        assert_eq!(
            codes(&errors(response, 400).await),
            [(code.to_owned(), parameter.to_owned())],
            "{query}"
        );
    }
    let id = TrackingRequestId::new();
    let response = app
        .get(&format!("/v2/tracking_requests/{id}?include=shipment"))
        .await;
    assert_eq!(codes(&errors(response, 400).await)[0].0, "invalid_include");
}

async fn a_client_generated_id_is_403(app: TestApp) {
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["id"] = json!(TrackingRequestId::new().to_string());
    assert_eq!(
        codes(&errors(app.create(&body).await, 403).await),
        [("client_id_not_allowed".to_owned(), "/data/id".to_owned())]
    );
}

async fn unknown_routes_and_malformed_ids_are_404(app: TestApp) {
    for path in [
        "/v2/nothing",
        "/",
        "/v3/tracking_requests",
        "/v2/tracking_requests/not-a-uuid",
        &format!("/v2/tracking_requests/{}", TrackingRequestId::new()),
    ] {
        assert_eq!(
            codes(&errors(app.get(path).await, 404).await)[0].0,
            "not_found",
            "{path}"
        );
    }
}

async fn a_wrong_method_is_405_with_allow(app: TestApp) {
    let response = app
        .request(Method::DELETE, "/v2/tracking_requests", Some(&app.key))
        .send()
        .await
        .expect("request");
    assert_eq!(response.headers()["allow"], "GET,HEAD,POST");
    assert_eq!(
        codes(&errors(response, 405).await)[0].0,
        "method_not_allowed"
    );
    let response = app
        .request(Method::PUT, "/healthz", None)
        .send()
        .await
        .expect("request");
    assert_eq!(response.headers()["allow"], "GET,HEAD");
    errors(response, 405).await;
}

async fn unacceptable_accept_headers_are_406(app: TestApp) {
    for accept in [
        "application/vnd.api+json; charset=utf-8",
        "application/vnd.api+json; ext=\"https://example.com/x\"",
    ] {
        let response = app
            .request(Method::GET, "/v2/tracking_requests", Some(&app.key))
            .header("Accept", accept)
            .send()
            .await
            .expect("request");
        assert_eq!(
            codes(&errors(response, 406).await)[0].0,
            "not_acceptable",
            "{accept}"
        );
    }
    for accept in [
        "application/vnd.api+json",
        "*/*",
        "application/json",
        "application/vnd.api+json; charset=utf-8, application/vnd.api+json",
    ] {
        let response = app
            .request(Method::GET, "/v2/tracking_requests", Some(&app.key))
            .header("Accept", accept)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status(), 200, "{accept}");
    }
}

async fn a_wrong_type_is_409(app: TestApp) {
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["type"] = json!("shipment");
    assert_eq!(
        codes(&errors(app.create(&body).await, 409).await),
        [("type_mismatch".to_owned(), "/data/type".to_owned())]
    );
    body["data"]["type"] = json!(7);
    errors(app.create(&body).await, 409).await;
}

async fn bodies_over_the_limit_are_413(app: TestApp) {
    let mut body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU");
    body["data"]["attributes"]["padding"] = json!("x".repeat(70 * 1024));
    let response = send(
        &app,
        Method::POST,
        "/v2/tracking_requests",
        JSON_API,
        body.to_string(),
    )
    .await;
    assert_eq!(
        codes(&errors(response, 413).await)[0].0,
        "payload_too_large"
    );
    // Without Content-Length (chunked), the limit still holds while reading.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        (0..80).map(|_| Ok(vec![b' '; 1024])).collect();
    let stream = reqwest::Body::wrap_stream(futures::stream::iter(chunks));
    let response = send(
        &app,
        Method::POST,
        "/v2/tracking_requests",
        JSON_API,
        stream,
    )
    .await;
    assert_eq!(
        codes(&errors(response, 413).await)[0].0,
        "payload_too_large"
    );
}

async fn unsupported_content_types_are_415(app: TestApp) {
    let body = tracking_request("bill_of_lading", "MEDU1234567", "MSCU").to_string();
    for content_type in [
        "text/plain",
        "application/vnd.api+json; charset=utf-8",
        "application/x-www-form-urlencoded",
    ] {
        let response = send(
            &app,
            Method::POST,
            "/v2/tracking_requests",
            content_type,
            body.clone(),
        )
        .await;
        assert_eq!(
            codes(&errors(response, 415).await)[0].0,
            "unsupported_media_type",
            "{content_type}"
        );
    }
    let response = app
        .request(Method::POST, "/v2/tracking_requests", Some(&app.key))
        .body(body.clone())
        .send()
        .await
        .expect("request");
    errors(response, 415).await;
    let response = send(
        &app,
        Method::POST,
        "/v2/tracking_requests",
        "application/json",
        body,
    )
    .await;
    assert_eq!(response.status(), 201, "application/json is accepted");
}

/// Values that have broken parsers elsewhere: wrong types, extremes, control and
/// combining characters, nesting.
fn hostile_values() -> Vec<Value> {
    vec![
        Value::Null,
        json!(true),
        json!(0),
        json!(-1),
        json!(1e308),
        json!(""),
        json!(" "),
        json!("\u{0}\u{1}\u{7f}"),
        json!("A\u{301}\u{301}\u{301}"),
        json!("😀".repeat(70)),
        json!("x".repeat(10_000)),
        json!("' OR 1=1 --"),
        json!("../../etc/passwd"),
        json!("\u{202e}RTL"),
        json!([]),
        json!([null, 1, "a"]),
        json!({}),
        json!({"nested": {"deeper": [1, 2, {"x": "y"}]}}),
    ]
}

async fn hostile_input_never_causes_a_server_error(app: TestApp) {
    let created = app
        .create(&tracking_request("bill_of_lading", "MEDU1234567", "MSCU"))
        .await;
    let id = crate::common::document(created).await["data"]["id"]
        .as_str()
        .expect("id")
        .to_owned();
    let fields = [
        "request_type",
        "request_number",
        "scac",
        "auto_detect_vocc_scac",
        "ref_numbers",
        "shipment_tags",
    ];
    for value in hostile_values() {
        for field in fields {
            let mut body = tracking_request("container", "CSQU3054383", "HLCU");
            body["data"]["attributes"][field] = value.clone();
            let status = app.create(&body).await.status().as_u16();
            assert!(
                (200..500).contains(&status),
                "create {field}={value}: {status}"
            );
            let patch =
                json!({"data": {"type": "tracking_request", "attributes": {field: value.clone()}}});
            let status = app
                .patch(&format!("/v2/tracking_requests/{id}"), &patch)
                .await
                .status()
                .as_u16();
            assert!(
                (200..500).contains(&status),
                "patch {field}={value}: {status}"
            );
        }
        for member in ["type", "id", "attributes", "relationships"] {
            let mut body = tracking_request("container", "CSQU3054383", "HLCU");
            body["data"][member] = value.clone();
            let status = app.create(&body).await.status().as_u16();
            assert!(
                (200..500).contains(&status),
                "data.{member}={value}: {status}"
            );
        }
        let text = value.to_string();
        for query in [
            format!("filter[status]={text}"),
            format!("page[size]={text}"),
            format!("include={text}"),
        ] {
            let url = format!(
                "/v2/tracking_requests?{}",
                query.replace('&', "%26").replace('#', "%23")
            );
            let status = app.get(&url).await.status().as_u16();
            assert!((200..500).contains(&status), "{query}: {status}");
        }
    }
}

mod failing {
    //! A store whose reads of tracking requests fail, to provoke an internal error.

    use std::sync::Arc;

    use tidemark_domain::tracking::Change;
    use tidemark_domain::{
        Account, AccountId, AccountName, ApiKeyRecord, Timestamp, TrackingRequest,
        TrackingRequestId, TrackingRequestPatch,
    };
    use tidemark_domain::{
        ClaimedJob, Container, ContainerId, DomainEvent, JobId, JobKind, NewJob, RawEvent,
        Reference, ReferenceKind, Shipment, ShipmentId, Tracked, TransportEvent,
    };
    use tidemark_store::{
        AccountStore, CommitOutcome, ContainerFilter, JobStore, Page, PageRequest, RawEventStore,
        ShipmentFilter, ShipmentStore, Store, StoreError, TrackingRequestFilter,
        TrackingRequestStore, TrackingStore, WebhookStore,
    };

    pub const SECRET_DETAIL: &str = "relation tracking_requests is on fire at /var/lib/secret";

    /// Delegates to a real store but fails every read of tracking requests.
    #[derive(Debug)]
    pub struct FailingStore(pub Arc<dyn Store>);

    #[async_trait::async_trait]
    impl AccountStore for FailingStore {
        async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
            self.0.create_account(account).await
        }
        async fn bootstrap_account(
            &self,
            account: &Account,
            key: &ApiKeyRecord,
        ) -> Result<bool, StoreError> {
            self.0.bootstrap_account(account, key).await
        }
        async fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
            self.0.account_by_id(id).await
        }
        async fn account_by_name(&self, name: &AccountName) -> Result<Option<Account>, StoreError> {
            self.0.account_by_name(name).await
        }
        async fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
            self.0.list_accounts().await
        }
        async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError> {
            self.0.insert_api_key(key).await
        }
        async fn api_key_by_prefix(
            &self,
            prefix: &str,
        ) -> Result<Option<ApiKeyRecord>, StoreError> {
            self.0.api_key_by_prefix(prefix).await
        }
        async fn list_api_keys(
            &self,
            account: Option<AccountId>,
        ) -> Result<Vec<ApiKeyRecord>, StoreError> {
            self.0.list_api_keys(account).await
        }
        async fn revoke_api_key(
            &self,
            prefix: &str,
            at: Timestamp,
        ) -> Result<Option<ApiKeyRecord>, StoreError> {
            self.0.revoke_api_key(prefix, at).await
        }
    }

    #[async_trait::async_trait]
    impl TrackingRequestStore for FailingStore {
        async fn insert_tracking_request(
            &self,
            request: &TrackingRequest,
        ) -> Result<(), StoreError> {
            self.0.insert_tracking_request(request).await
        }
        async fn tracking_request(
            &self,
            _: AccountId,
            _: TrackingRequestId,
        ) -> Result<Option<TrackingRequest>, StoreError> {
            Err(StoreError::Corrupt(SECRET_DETAIL.to_owned()))
        }
        async fn list_tracking_requests(
            &self,
            _: AccountId,
            _: &TrackingRequestFilter,
            _: PageRequest,
        ) -> Result<Page<TrackingRequest>, StoreError> {
            Err(StoreError::Corrupt(SECRET_DETAIL.to_owned()))
        }
        async fn update_tracking_request(
            &self,
            account: AccountId,
            id: TrackingRequestId,
            patch: &TrackingRequestPatch,
            at: Timestamp,
        ) -> Result<Option<TrackingRequest>, StoreError> {
            self.0.update_tracking_request(account, id, patch, at).await
        }
    }

    #[async_trait::async_trait]
    impl JobStore for FailingStore {
        async fn schedule_job(&self, job: &NewJob) -> Result<JobId, StoreError> {
            self.0.schedule_job(job).await
        }
        async fn claim_due(
            &self,
            kind: JobKind,
            limit: u32,
            lease: std::time::Duration,
            now: Timestamp,
        ) -> Result<Vec<ClaimedJob>, StoreError> {
            self.0.claim_due(kind, limit, lease, now).await
        }
        async fn complete_job(&self, job: &ClaimedJob) -> Result<bool, StoreError> {
            self.0.complete_job(job).await
        }
        async fn reschedule_job(
            &self,
            job: &ClaimedJob,
            due_at: Timestamp,
        ) -> Result<bool, StoreError> {
            self.0.reschedule_job(job, due_at).await
        }
        async fn next_due(&self, kind: JobKind) -> Result<Option<Timestamp>, StoreError> {
            self.0.next_due(kind).await
        }
    }

    #[async_trait::async_trait]
    impl TrackingStore for FailingStore {
        async fn tracking_request_for_work(
            &self,
            id: TrackingRequestId,
        ) -> Result<Option<TrackingRequest>, StoreError> {
            self.0.tracking_request_for_work(id).await
        }
        async fn tracked(&self, request: TrackingRequestId) -> Result<Option<Tracked>, StoreError> {
            self.0.tracked(request).await
        }
        async fn commit_tracking(
            &self,
            job: Option<&ClaimedJob>,
            commit: &Change,
        ) -> Result<CommitOutcome, StoreError> {
            self.0.commit_tracking(job, commit).await
        }
        async fn domain_events(&self, account: AccountId) -> Result<Vec<DomainEvent>, StoreError> {
            self.0.domain_events(account).await
        }
    }

    #[async_trait::async_trait]
    impl RawEventStore for FailingStore {
        async fn list_raw_events(
            &self,
            account: AccountId,
            container: ContainerId,
            page: PageRequest,
        ) -> Result<Page<RawEvent>, StoreError> {
            self.0.list_raw_events(account, container, page).await
        }
    }

    #[async_trait::async_trait]
    impl ShipmentStore for FailingStore {
        async fn shipment(
            &self,
            account: AccountId,
            id: ShipmentId,
        ) -> Result<Option<Shipment>, StoreError> {
            self.0.shipment(account, id).await
        }
        async fn list_shipments(
            &self,
            account: AccountId,
            filter: &ShipmentFilter,
            page: PageRequest,
        ) -> Result<Page<Shipment>, StoreError> {
            self.0.list_shipments(account, filter, page).await
        }
        async fn shipments(
            &self,
            account: AccountId,
            ids: &[ShipmentId],
        ) -> Result<Vec<Shipment>, StoreError> {
            self.0.shipments(account, ids).await
        }
        async fn update_shipment(
            &self,
            account: AccountId,
            id: ShipmentId,
            ref_numbers: Option<&[String]>,
            tags: Option<&[String]>,
            at: Timestamp,
        ) -> Result<Option<Shipment>, StoreError> {
            self.0
                .update_shipment(account, id, ref_numbers, tags, at)
                .await
        }
        async fn container(
            &self,
            account: AccountId,
            id: ContainerId,
        ) -> Result<Option<Container>, StoreError> {
            self.0.container(account, id).await
        }
        async fn list_containers(
            &self,
            account: AccountId,
            filter: &ContainerFilter,
            page: PageRequest,
        ) -> Result<Page<Container>, StoreError> {
            self.0.list_containers(account, filter, page).await
        }
        async fn containers(
            &self,
            account: AccountId,
            ids: &[ContainerId],
            of_shipments: &[ShipmentId],
        ) -> Result<Vec<Container>, StoreError> {
            self.0.containers(account, ids, of_shipments).await
        }
        async fn list_transport_events(
            &self,
            account: AccountId,
            container: ContainerId,
            page: PageRequest,
        ) -> Result<Page<TransportEvent>, StoreError> {
            self.0.list_transport_events(account, container, page).await
        }
        async fn transport_events(
            &self,
            account: AccountId,
            containers: &[ContainerId],
        ) -> Result<Vec<TransportEvent>, StoreError> {
            self.0.transport_events(account, containers).await
        }
        async fn reference(
            &self,
            kind: ReferenceKind,
            key: &str,
        ) -> Result<Option<Reference>, StoreError> {
            self.0.reference(kind, key).await
        }
        async fn references(
            &self,
            kind: ReferenceKind,
            codes: &[String],
        ) -> Result<Vec<Reference>, StoreError> {
            self.0.references(kind, codes).await
        }

        async fn terminals_at(&self, ports: &[String]) -> Result<Vec<Reference>, StoreError> {
            self.0.terminals_at(ports).await
        }
    }

    #[async_trait::async_trait]
    impl WebhookStore for FailingStore {
        async fn create_webhook(
            &self,
            webhook: &tidemark_domain::webhook::Webhook,
        ) -> Result<(), StoreError> {
            self.0.create_webhook(webhook).await
        }
        async fn webhook(
            &self,
            account: AccountId,
            id: tidemark_domain::WebhookId,
        ) -> Result<Option<tidemark_domain::webhook::Webhook>, StoreError> {
            self.0.webhook(account, id).await
        }
        async fn webhooks_by_id(
            &self,
            ids: &[tidemark_domain::WebhookId],
        ) -> Result<Vec<tidemark_domain::webhook::Webhook>, StoreError> {
            self.0.webhooks_by_id(ids).await
        }
        async fn list_webhooks(
            &self,
            account: AccountId,
            page: PageRequest,
        ) -> Result<Page<tidemark_domain::webhook::Webhook>, StoreError> {
            self.0.list_webhooks(account, page).await
        }
        async fn update_webhook(
            &self,
            webhook: &tidemark_domain::webhook::Webhook,
        ) -> Result<bool, StoreError> {
            self.0.update_webhook(webhook).await
        }
        async fn delete_webhook(
            &self,
            account: AccountId,
            id: tidemark_domain::WebhookId,
        ) -> Result<bool, StoreError> {
            self.0.delete_webhook(account, id).await
        }
        async fn webhook_notification(
            &self,
            account: AccountId,
            id: tidemark_domain::WebhookNotificationId,
        ) -> Result<Option<tidemark_domain::webhook::WebhookNotification>, StoreError> {
            self.0.webhook_notification(account, id).await
        }
        async fn list_webhook_notifications(
            &self,
            account: AccountId,
            filter: &tidemark_store::NotificationFilter,
            page: PageRequest,
        ) -> Result<Page<tidemark_domain::webhook::WebhookNotification>, StoreError> {
            self.0
                .list_webhook_notifications(account, filter, page)
                .await
        }
        async fn redeliver_notification(
            &self,
            account: AccountId,
            id: tidemark_domain::WebhookNotificationId,
            now: tidemark_domain::Timestamp,
        ) -> Result<bool, StoreError> {
            self.0.redeliver_notification(account, id, now).await
        }
        async fn frozen_records(
            &self,
            account: AccountId,
            events: &[tidemark_domain::DomainEventId],
        ) -> Result<
            std::collections::HashMap<tidemark_domain::DomainEventId, Vec<serde_json::Value>>,
            StoreError,
        > {
            self.0.frozen_records(account, events).await
        }
        async fn notification_attempts(
            &self,
            account: AccountId,
            notifications: &[tidemark_domain::WebhookNotificationId],
        ) -> Result<Vec<tidemark_domain::webhook::LoggedAttempt>, StoreError> {
            self.0.notification_attempts(account, notifications).await
        }
    }

    #[async_trait::async_trait]
    impl tidemark_store::DeliveryStore for FailingStore {
        async fn claim_notifications(
            &self,
            limit: u32,
            per_webhook: u32,
            lease: std::time::Duration,
            now: tidemark_domain::Timestamp,
        ) -> Result<Vec<tidemark_domain::webhook::ClaimedNotification>, StoreError> {
            self.0
                .claim_notifications(limit, per_webhook, lease, now)
                .await
        }
        async fn next_notification_due(
            &self,
        ) -> Result<Option<tidemark_domain::Timestamp>, StoreError> {
            self.0.next_notification_due().await
        }
        async fn release_notification(
            &self,
            claimed: &tidemark_domain::webhook::ClaimedNotification,
            due_at: tidemark_domain::Timestamp,
        ) -> Result<bool, StoreError> {
            self.0.release_notification(claimed, due_at).await
        }
        async fn settle_notifications(
            &self,
            batch: &[tidemark_store::Settle<'_>],
        ) -> Result<Vec<bool>, StoreError> {
            self.0.settle_notifications(batch).await
        }
    }

    #[async_trait::async_trait]
    impl tidemark_store::LeaseStore for FailingStore {
        async fn pull_in_jobs(&self, kind: JobKind, latest: Timestamp) -> Result<u64, StoreError> {
            self.0.pull_in_jobs(kind, latest).await
        }

        async fn renew_job_leases(
            &self,
            tokens: &[uuid::Uuid],
            until: Timestamp,
        ) -> Result<u64, StoreError> {
            self.0.renew_job_leases(tokens, until).await
        }

        async fn renew_notification_leases(
            &self,
            tokens: &[uuid::Uuid],
            until: Timestamp,
        ) -> Result<u64, StoreError> {
            self.0.renew_notification_leases(tokens, until).await
        }
    }

    #[async_trait::async_trait]
    impl Store for FailingStore {
        async fn ping(&self) -> Result<(), StoreError> {
            self.0.ping().await
        }
        fn backend(&self) -> &'static str {
            "failing"
        }
    }
}

#[tokio::test]
async fn an_internal_failure_is_an_opaque_500() {
    let Some(base) = TestApp::spawn(tidemark_store::testing::Backend::Sqlite).await else {
        return;
    };
    let store: Arc<dyn tidemark_store::Store> = Arc::new(FailingStore(Arc::clone(&base.store)));
    let clock = tidemark::app::system_clock();
    let sender = tidemark::app::webhook_sender(
        &tidemark::config::WebhooksConfig::default(),
        tidemark_domain::webhook::Networks::public_only(),
        Arc::clone(&clock),
    )
    .expect("webhook sender");
    let router = tidemark::app::router(
        store,
        tidemark::app::carriers(None).expect("carriers"),
        crate::common::all_carriers(),
        clock,
        sender,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = listener.local_addr().expect("address");
    tokio::spawn(axum::serve(listener, router).into_future());
    let response = reqwest::Client::new()
        .get(format!("http://{address}/v2/tracking_requests"))
        .header("Authorization", format!("Token {}", base.key))
        .send()
        .await
        .expect("request");
    let text = {
        let errors = errors(response, 500).await;
        assert_eq!(errors[0]["code"], "internal_error");
        serde_json::to_string(&errors).expect("json")
    };
    assert!(
        !text.contains(failing::SECRET_DETAIL) && !text.contains("/var/lib"),
        "{text}"
    );
}
