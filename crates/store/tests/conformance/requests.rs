//! Conformance cases of accounts, keys and tracking requests: what is written reads back,
//! within its account, filtered, paginated and counted.

use super::*;

pub async fn accounts_are_created_found_and_listed(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    assert_eq!(
        store.account_by_id(acme.id).await.expect("read"),
        Some(acme.clone())
    );
    assert_eq!(
        store.account_by_name(&globex.name).await.expect("read"),
        Some(globex.clone())
    );
    assert_eq!(
        store.account_by_id(AccountId::new()).await.expect("read"),
        None
    );
    let names: Vec<_> = store
        .list_accounts()
        .await
        .expect("list")
        .into_iter()
        .map(|a| a.name)
        .collect();
    assert_eq!(names, [acme.name, globex.name]);
}

pub async fn account_names_are_unique(store: Arc<dyn Store>) {
    account(&store, "acme").await;
    let again = Account {
        id: AccountId::new(),
        name: AccountName::parse("acme").expect("valid"),
        created_at: at(1),
    };
    assert!(matches!(
        store.create_account(&again).await,
        Err(StoreError::Conflict(_))
    ));
}

pub async fn bootstrap_creates_the_first_account_only_once(store: Arc<dyn Store>) {
    let first = Account {
        id: AccountId::new(),
        name: AccountName::parse("default").expect("valid"),
        created_at: at(0),
    };
    let key = ApiKey::generate(first.id, at(0));
    assert!(
        store
            .bootstrap_account(&first, &key.record)
            .await
            .expect("bootstrap")
    );
    let second = Account {
        id: AccountId::new(),
        name: AccountName::parse("other").expect("valid"),
        created_at: at(1),
    };
    let second_key = ApiKey::generate(second.id, at(1));
    assert!(
        !store
            .bootstrap_account(&second, &second_key.record)
            .await
            .expect("bootstrap")
    );
    assert_eq!(store.list_accounts().await.expect("list"), [first]);
    assert_eq!(store.list_api_keys(None).await.expect("keys"), [key.record]);
}

pub async fn api_keys_are_found_by_prefix_and_revoked_once(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let key = ApiKey::generate(acme.id, at(1));
    let other = ApiKey::generate(globex.id, at(2));
    store.insert_api_key(&key.record).await.expect("insert");
    store.insert_api_key(&other.record).await.expect("insert");

    let found = store
        .api_key_by_prefix(&key.record.prefix)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(found, key.record);
    assert!(found.accepts(&key.secret));
    assert_eq!(
        store.list_api_keys(Some(acme.id)).await.expect("list"),
        std::slice::from_ref(&key.record)
    );
    assert_eq!(store.list_api_keys(None).await.expect("list").len(), 2);

    let revoked = store
        .revoke_api_key(&key.record.prefix, at(10))
        .await
        .expect("revoke")
        .expect("found");
    assert_eq!(revoked.revoked_at, Some(at(10)));
    let again = store
        .revoke_api_key(&key.record.prefix, at(20))
        .await
        .expect("revoke")
        .expect("found");
    assert_eq!(
        again.revoked_at,
        Some(at(10)),
        "the first revocation time stays"
    );
    let stored = store
        .api_key_by_prefix(&key.record.prefix)
        .await
        .expect("read")
        .expect("found");
    assert!(!stored.accepts(&key.secret));
    assert_eq!(
        store
            .revoke_api_key("tdm_unknown0", at(30))
            .await
            .expect("revoke"),
        None
    );
}

pub async fn a_tracking_request_reads_back_exactly_as_written(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let written = request(&acme, "container", "csqu 305438-3", "HLCU", 5);
    super::insert(&store, &written).await;
    let read = store
        .tracking_request(acme.id, written.id)
        .await
        .expect("read");
    assert_eq!(read, Some(written));
}

pub async fn tracking_requests_are_invisible_to_other_accounts(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let written = request(&acme, "bill_of_lading", "MEDU1234567", "MSCU", 5);
    super::insert(&store, &written).await;
    assert_eq!(
        store
            .tracking_request(globex.id, written.id)
            .await
            .expect("read"),
        None
    );
    let listed = store
        .list_tracking_requests(globex.id, &TrackingRequestFilter::default(), page(1, 30))
        .await
        .expect("list");
    assert_eq!((listed.items.len(), listed.total), (0, 0));
    let patch = TrackingRequestPatch {
        ref_numbers: Some(vec!["x".into()]),
        shipment_tags: None,
        customer: None,
    };
    assert_eq!(
        store
            .update_tracking_request(globex.id, written.id, &patch, at(9))
            .await
            .expect("update"),
        None
    );
}

pub async fn an_open_duplicate_is_rejected_with_the_existing_id(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let first = request(&acme, "bill_of_lading", "MEDU1234567", "MSCU", 5);
    super::insert(&store, &first).await;
    let mut current = first.clone();
    for status in [
        RequestStatus::Pending,
        RequestStatus::AwaitingManifest,
        RequestStatus::Created,
    ] {
        current = commit_status(store.as_ref(), &current, status).await;
        // Same number in another spelling, and the alternative SCAC resolved to MSCU.
        let second = request(&acme, "bill_of_lading", " medu 1234567", "MEDU", 6);
        match store.insert_tracking_request(&second).await {
            Err(StoreError::Duplicate { existing_id }) => {
                assert_eq!(existing_id, Some(first.id), "{status}")
            }
            other => panic!("expected a duplicate while {status}, got {other:?}"),
        }
    }
}

pub async fn a_closed_request_does_not_block_a_new_one(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    for (round, status) in [RequestStatus::Failed, RequestStatus::TrackingStopped]
        .into_iter()
        .enumerate()
    {
        let offset = i64::try_from(round).expect("small") * 10;
        let first = request(&acme, "bill_of_lading", "MEDU1234567", "MSCU", offset);
        super::insert(&store, &first).await;
        commit_status(store.as_ref(), &first, status).await;
        let second = request(&acme, "bill_of_lading", "MEDU1234567", "MSCU", offset + 1);
        store
            .insert_tracking_request(&second)
            .await
            .expect("a new request after the first closed");
        commit_status(store.as_ref(), &second, RequestStatus::Failed).await;
    }
}

pub async fn duplicates_are_per_account_and_per_carrier(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    store
        .insert_tracking_request(&request(&acme, "container", "CSQU3054383", "HLCU", 1))
        .await
        .expect("insert");
    store
        .insert_tracking_request(&request(&globex, "container", "CSQU3054383", "HLCU", 2))
        .await
        .expect("another account");
    store
        .insert_tracking_request(&request(&acme, "container", "CSQU3054383", "MAEU", 3))
        .await
        .expect("another carrier");
}

pub async fn concurrent_identical_creates_admit_exactly_one(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let attempts: Vec<_> = (0..20)
        .map(|i| {
            let store = Arc::clone(&store);
            let candidate = request(&acme, "bill_of_lading", "MAEU123456789", "MAEU", i);
            tokio::spawn(async move {
                (
                    candidate.id,
                    store.insert_tracking_request(&candidate).await,
                )
            })
        })
        .collect();
    let results = futures::future::join_all(attempts).await;
    let mut winners = Vec::new();
    let mut existing = Vec::new();
    for result in results {
        match result.expect("task") {
            (id, Ok(())) => winners.push(id),
            (_, Err(StoreError::Duplicate { existing_id })) => existing.push(existing_id),
            (_, Err(other)) => panic!("unexpected error {other}"),
        }
    }
    assert_eq!(winners.len(), 1, "exactly one create wins");
    assert_eq!(existing.len(), 19);
    assert!(
        existing.iter().all(|id| *id == Some(winners[0])),
        "every loser names the winner"
    );
}

/// A key keeps its name, and its last use moves forward a grain (an hour) at a time.
pub async fn a_key_keeps_its_name_and_its_last_use_to_the_hour(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let mut key = ApiKey::generate(acme.id, at(1));
    key.record.name = Some("Broker feed · Ünïcode".to_owned());
    store.insert_api_key(&key.record).await.expect("insert");
    let read = |store: Arc<dyn Store>, prefix: String| async move {
        store
            .api_key_by_prefix(&prefix)
            .await
            .expect("read")
            .expect("found")
    };
    let prefix = key.record.prefix.clone();
    let first = read(Arc::clone(&store), prefix.clone()).await;
    assert_eq!(first.name, key.record.name);
    assert_eq!(first.last_used_at, None);

    store
        .touch_api_key(key.record.id, at(100))
        .await
        .expect("touch");
    assert_eq!(
        read(Arc::clone(&store), prefix.clone()).await.last_used_at,
        Some(at(100))
    );
    // Within the hour: kept as it was.
    store
        .touch_api_key(key.record.id, at(100 + 1_800))
        .await
        .expect("touch");
    assert_eq!(
        read(Arc::clone(&store), prefix.clone()).await.last_used_at,
        Some(at(100))
    );
    // An hour on: moved.
    store
        .touch_api_key(key.record.id, at(100 + 3_600))
        .await
        .expect("touch");
    let moved = read(Arc::clone(&store), prefix.clone()).await;
    assert_eq!(moved.last_used_at, Some(at(3_700)));
    assert!(!moved.use_is_news(at(3_700 + 60)));
    assert!(moved.use_is_news(at(3_700 + 3_600)));
}
