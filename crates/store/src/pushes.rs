//! Carriers' pushes: a shipment's live subscription at its carrier (columns of
//! `shipments`, written here only, so the tracker's upsert of a shipment never undoes a
//! subscription made meanwhile), the shipment a callback's subscription names, and the
//! events heard by id.

use async_trait::async_trait;
use tidemark_domain::{CarrierPush, PushSecret, Scac, Shipment, ShipmentId, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query, Row};
use crate::shipments::{self, COLUMNS, PUSH_COLUMNS};

/// The push read from a shipment's row, when it has one.
pub(crate) fn parse(row: &Row) -> Result<Option<CarrierPush>, StoreError> {
    let Some(subscription_id) = row.text("carrier_subscription_id")? else {
        return Ok(None);
    };
    Ok(Some(CarrierPush {
        subscription_id,
        secret: row.parsed("carrier_push_secret", |text| PushSecret::parse(text).ok())?,
        secret_set_at: row.required_time("carrier_secret_set_at")?,
    }))
}

/// The pushes of shipments, and the events they pushed.
#[async_trait]
pub trait PushStore: Send + Sync {
    /// Records `shipment`'s push at its carrier, or that it has none (`None`).
    async fn set_carrier_push(
        &self,
        shipment: ShipmentId,
        push: Option<&CarrierPush>,
    ) -> Result<(), StoreError>;

    /// The shipment whose push at `scac` is the subscription `subscription_id`.
    async fn shipment_of_push(
        &self,
        scac: Scac,
        subscription_id: &str,
    ) -> Result<Option<Shipment>, StoreError>;

    /// Records the events `(eventID, eventCreatedDateTime)` pushed for `shipment`; how
    /// many are new or newer than the copy heard before.
    async fn record_pushed_events(
        &self,
        shipment: ShipmentId,
        events: &[(String, Timestamp)],
    ) -> Result<u64, StoreError>;

    /// Up to `limit` shipments with a push to end (tracking stopped) or whose secret was
    /// set before `rotate_before`.
    async fn pushes_to_tend(
        &self,
        rotate_before: Timestamp,
        limit: u32,
    ) -> Result<Vec<Shipment>, StoreError>;
}

#[async_trait]
impl<T: Backend> PushStore for T {
    async fn set_carrier_push(
        &self,
        shipment: ShipmentId,
        push: Option<&CarrierPush>,
    ) -> Result<(), StoreError> {
        let mut query = Query::new("UPDATE shipments SET carrier_subscription_id = ");
        query
            .bind(push.map(|p| p.subscription_id.clone()))
            .push(", carrier_push_secret = ")
            .bind(push.map(|p| p.secret.expose().to_owned()))
            .push(", carrier_secret_set_at = ")
            .bind(push.map(|p| p.secret_set_at))
            .push(" WHERE id = ")
            .bind(shipment.as_uuid());
        self.execute(query).await.map(drop)
    }

    async fn shipment_of_push(
        &self,
        scac: Scac,
        subscription_id: &str,
    ) -> Result<Option<Shipment>, StoreError> {
        let mut query = Query::new(&format!(
            "SELECT {COLUMNS}, {PUSH_COLUMNS} FROM shipments WHERE scac = "
        ));
        query
            .bind(scac.as_str())
            .push(" AND carrier_subscription_id = ")
            .bind(subscription_id);
        self.fetch_one(&query)
            .await?
            .map(|row| shipments::parse(&row))
            .transpose()
    }

    async fn record_pushed_events(
        &self,
        shipment: ShipmentId,
        events: &[(String, Timestamp)],
    ) -> Result<u64, StoreError> {
        let queries = events
            .iter()
            .map(|(id, created)| {
                let mut query = Query::new(
                    "INSERT INTO carrier_pushed_events (shipment_id, event_id, event_created_at) VALUES (",
                );
                query
                    .bind(shipment.as_uuid())
                    .push(", ")
                    .bind(id.as_str())
                    .push(", ")
                    .bind(*created)
                    .push(
                        ") ON CONFLICT (shipment_id, event_id) DO UPDATE SET \
                         event_created_at = excluded.event_created_at \
                         WHERE excluded.event_created_at > carrier_pushed_events.event_created_at",
                    );
                query
            })
            .collect();
        Ok(self.execute_all(queries).await?.into_iter().sum())
    }

    async fn pushes_to_tend(
        &self,
        rotate_before: Timestamp,
        limit: u32,
    ) -> Result<Vec<Shipment>, StoreError> {
        let mut query = Query::new(&format!(
            "SELECT {COLUMNS}, {PUSH_COLUMNS} FROM shipments \
             WHERE carrier_subscription_id IS NOT NULL AND (stopped_at IS NOT NULL OR carrier_secret_set_at < "
        ));
        query
            .bind(rotate_before)
            .push(") ORDER BY carrier_secret_set_at LIMIT ")
            .bind(i64::from(limit));
        self.fetch(&query)
            .await?
            .iter()
            .map(shipments::parse)
            .collect()
    }
}
