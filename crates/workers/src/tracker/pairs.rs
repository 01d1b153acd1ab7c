//! A carrier that answers only a booking and one of its containers asked together (HMM):
//! a request is asked with the same client's open requests of the other kind at the same
//! carrier (a booking with the containers tracked, a container with the bookings), each
//! pair a query of its own; a pair that is not one shipment's answers nothing.

use tidemark_carriers::Lookup;
use tidemark_carriers::dcsa::quirks::MAX_CONTAINER_QUERIES;
use tidemark_domain::{RequestStatus, RequestType, Scac, TrackingRequest};
use tidemark_store::{PageRequest, TrackingRequestFilter};

use super::Tracker;
use crate::WorkerError;

impl Tracker {
    /// `lookup` with the references `request` may be asked together with, when its
    /// carrier `scac` asks pairs.
    pub(super) async fn with_companions(
        &self,
        request: &TrackingRequest,
        scac: Scac,
        lookup: &mut Lookup,
    ) -> Result<(), WorkerError> {
        let pairs = self
            .carriers
            .coverage()
            .endpoint(scac)
            .is_some_and(|endpoint| endpoint.asks_pairs);
        if !pairs {
            return Ok(());
        }
        let other = match lookup.kind {
            RequestType::Container => RequestType::BookingNumber,
            RequestType::BookingNumber | RequestType::BillOfLading => RequestType::Container,
        };
        let filter = TrackingRequestFilter {
            status: RequestStatus::ALL
                .into_iter()
                .filter(RequestStatus::is_open)
                .collect(),
            scac: vec![scac],
            request_type: vec![other],
            ..TrackingRequestFilter::default()
        };
        let most = u32::try_from(MAX_CONTAINER_QUERIES).unwrap_or(u32::MAX);
        let page = PageRequest::first_rows(most);
        let companions = self
            .store
            .list_tracking_requests(request.account_id, &filter, page)
            .await?;
        let known = match other {
            RequestType::Container => &mut lookup.known.containers,
            RequestType::BookingNumber | RequestType::BillOfLading => &mut lookup.known.bookings,
        };
        for companion in companions.items {
            let number = companion.request_number.normalized().to_owned();
            if companion.id != request.id && !known.contains(&number) {
                known.push(number);
            }
        }
        Ok(())
    }
}
