//! Conformance cases of parties: they read back as written and stay in their account; a
//! request's customer is kept through the tracker's commits and finds the shipment and
//! its containers.

use std::sync::Arc;

use tidemark_domain::tracking::Change;
use tidemark_domain::{
    Account, CompanyName, JobKind, Milestone, Party, TrackingRequest, TrackingRequestPatch,
};
use tidemark_store::{ContainerFilter, ShipmentFilter, Store};

use super::tracking::{claim, found, snapshot, tracked};
use super::{account, at, newest_first, page};

async fn party(store: &Arc<dyn Store>, owner: &Account, name: &str, created: i64) -> Party {
    let name = CompanyName::parse(name).expect("a valid name");
    let party = Party::new(owner.id, name, at(created));
    store.create_party(&party).await.expect("created");
    party
}

pub async fn parties_read_back_renamed_and_stay_in_their_account(store: Arc<dyn Store>) {
    let acme = account(&store, "acme").await;
    let globex = account(&store, "globex").await;
    let first = party(&store, &acme, "Northwind Traders", 1).await;
    let second = party(&store, &acme, "Ünïcode Importers", 2).await;
    assert_eq!(
        store.party(acme.id, first.id).await.expect("read"),
        Some(first.clone())
    );
    assert_eq!(store.party(globex.id, first.id).await.expect("read"), None);
    newest_first(
        store
            .list_parties(acme.id, page(1, 10))
            .await
            .expect("list"),
        &second,
        &first,
    );
    let none = store
        .list_parties(globex.id, page(1, 10))
        .await
        .expect("list");
    assert_eq!((none.items.len(), none.total), (0, 0));

    let renamed = first
        .clone()
        .renamed(CompanyName::parse("Northwind").expect("name"), at(5));
    let stolen = Party {
        account_id: globex.id,
        ..renamed.clone()
    };
    assert!(
        !store.update_party(&stolen).await.expect("update"),
        "not globex's"
    );
    assert!(store.update_party(&renamed).await.expect("update"));
    assert_eq!(
        store.party(acme.id, first.id).await.expect("read"),
        Some(renamed)
    );
    let both = store
        .parties(
            acme.id,
            &[first.id, second.id, globex_party(&store, &globex).await],
        )
        .await
        .expect("read");
    assert_eq!(both.len(), 2, "another account's party is not read");
}

async fn globex_party(store: &Arc<dyn Store>, globex: &Account) -> tidemark_domain::PartyId {
    party(store, globex, "Globex", 3).await.id
}

fn customer(id: Option<tidemark_domain::PartyId>) -> TrackingRequestPatch {
    TrackingRequestPatch {
        customer: Some(id),
        ..TrackingRequestPatch::default()
    }
}

/// An account with parties Northwind and Contoso and a tracked shipment whose request
/// is for Northwind: the account, the parties, the request and the committed change.
async fn tracked_for_northwind(
    store: &Arc<dyn Store>,
) -> (Account, Party, Party, TrackingRequest, Change) {
    let owner = account(store, "forwarder").await;
    let northwind = party(store, &owner, "Northwind", 1).await;
    let contoso = party(store, &owner, "Contoso", 2).await;
    let found_now = snapshot(&[(Milestone::EmptyOut, 1)]);
    let (pending, change) = tracked(store, &owner, "586118841", &found_now, 10).await;
    let set = store
        .update_tracking_request(owner.id, pending.id, &customer(Some(northwind.id)), at(20))
        .await
        .expect("update")
        .expect("found");
    assert_eq!(set.customer, Some(northwind.id));
    (owner, northwind, contoso, set, change)
}

pub async fn a_customer_survives_the_tracker_and_names_its_shipment(store: Arc<dyn Store>) {
    let (owner, northwind, _, set, _) = tracked_for_northwind(&store).await;
    assert_eq!(
        store
            .tracking_request(owner.id, set.id)
            .await
            .expect("read")
            .and_then(|r| r.customer),
        Some(northwind.id)
    );
    // The tracker's next commit, made from a request read without the customer, keeps it.
    let job = claim(&store, JobKind::Refresh, 3700).await;
    let blind = TrackingRequest {
        customer: None,
        ..set.clone()
    };
    let found_now = snapshot(&[(Milestone::EmptyOut, 1)]);
    let change = found(&store, &blind, &found_now, 3701).await;
    super::committed(&store, &job, &change).await;
    let after = store
        .tracking_request(owner.id, set.id)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(after.customer, Some(northwind.id));
    let shipment = change.shipment.as_ref().expect("a shipment").id;
    let customers = store
        .customers_of_shipments(owner.id, &[shipment])
        .await
        .expect("read");
    assert_eq!(customers.len(), 1);
    assert_eq!(
        (customers[0].0, customers[0].1.id),
        (shipment, northwind.id)
    );
    let stranger = account(&store, "stranger").await;
    let none = store
        .customers_of_shipments(stranger.id, &[shipment])
        .await
        .expect("read");
    assert!(none.is_empty(), "another account's shipment");
}

pub async fn the_lists_find_shipments_and_containers_by_customer(store: Arc<dyn Store>) {
    let (owner, northwind, contoso, set, change) = tracked_for_northwind(&store).await;
    let shipment = change.shipment.as_ref().expect("a shipment").id;
    let shipments = |customer_id| ShipmentFilter {
        customer_id,
        ..ShipmentFilter::default()
    };
    let of = |filter| {
        let store = Arc::clone(&store);
        async move {
            let page = store
                .list_shipments(owner.id, &filter, page(1, 10))
                .await
                .expect("list");
            page.items.iter().map(|s| s.id).collect::<Vec<_>>()
        }
    };
    assert_eq!(of(shipments(vec![northwind.id])).await, vec![shipment]);
    assert_eq!(of(shipments(vec![contoso.id])).await, vec![]);
    assert_eq!(
        of(shipments(vec![contoso.id, northwind.id])).await,
        vec![shipment]
    );

    let containers = |customer_id, customer_name: &[&str]| ContainerFilter {
        customer_id,
        customer_name: customer_name.iter().map(|n| (*n).to_owned()).collect(),
        ..ContainerFilter::default()
    };
    let count = |filter| super::containers_listed(&store, owner.id, filter);
    let all = count(ContainerFilter::default()).await;
    assert!(all > 0);
    assert_eq!(count(containers(vec![northwind.id], &[])).await, all);
    assert_eq!(count(containers(vec![], &["Northwind"])).await, all);
    assert_eq!(count(containers(vec![], &["northwind"])).await, 0, "exact");
    assert_eq!(count(containers(vec![contoso.id], &[])).await, 0);
    assert_eq!(
        count(containers(vec![northwind.id], &["Contoso"])).await,
        0,
        "both hold"
    );

    // Another customer, then none.
    let moved = store
        .update_tracking_request(owner.id, set.id, &customer(Some(contoso.id)), at(4000))
        .await
        .expect("update")
        .expect("found");
    assert_eq!(moved.customer, Some(contoso.id));
    assert_eq!(of(shipments(vec![contoso.id])).await, vec![shipment]);
    let cleared = store
        .update_tracking_request(owner.id, set.id, &customer(None), at(4001))
        .await
        .expect("update")
        .expect("found");
    assert_eq!(cleared.customer, None);
    assert_eq!(of(shipments(vec![contoso.id])).await, vec![]);
}
