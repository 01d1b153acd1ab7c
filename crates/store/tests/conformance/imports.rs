//! Conformance case of importing first changes in bulk: what is imported reads back as the
//! same changes committed one by one would, and a batch stands or falls whole.

use std::sync::Arc;

use tidemark_domain::{JobKind, Milestone};
use tidemark_store::Store;

use super::tracking::{found, snapshot};
use super::{account, at, request};

pub async fn imported_changes_read_back_as_committed_ones(store: Arc<dyn Store>) {
    let owner = account(&store, "imports").await;
    let milestones = snapshot(&[(Milestone::EmptyOut, 1), (Milestone::FullIn, 2)]);
    let pending = [
        request(&owner, "bill_of_lading", "586118861", "MAEU", 0),
        request(&owner, "bill_of_lading", "586118862", "MAEU", 0),
    ];
    let mut changes = Vec::new();
    for request in &pending {
        changes.push(found(&store, request, &milestones, 3).await);
    }
    store.import_changes(&changes).await.expect("imported");
    for change in &changes {
        let read = store
            .tracking_request(owner.id, change.request.id)
            .await
            .expect("read")
            .expect("stored");
        assert_eq!(read, change.request);
        let tracked = store
            .tracked(change.request.id)
            .await
            .expect("read")
            .expect("tracked");
        assert_eq!(Some(&tracked.shipment), change.shipment.as_ref());
        assert_eq!(tracked.containers, change.delta.containers);
        assert_eq!(tracked.events, change.delta.transport_events);
    }
    // Their next lookups are due; an import records no events.
    let due = super::claim_jobs(&store, JobKind::Refresh, 10, at(3 + 3600)).await;
    assert_eq!(due.len(), 2);
    assert!(
        store
            .domain_events(owner.id)
            .await
            .expect("events")
            .is_empty()
    );
    // A batch with a request already stored writes nothing of the others.
    let another = request(&owner, "bill_of_lading", "586118863", "MAEU", 0);
    let fresh = found(&store, &another, &milestones, 3).await;
    let again = [fresh, changes[0].clone()];
    assert!(store.import_changes(&again).await.is_err());
    assert!(
        store
            .tracking_request(owner.id, another.id)
            .await
            .expect("read")
            .is_none()
    );
    store.import_changes(&[]).await.expect("nothing to import");
}
