//! What a container's carrier-reported details are after a snapshot, and what of them
//! `container.updated` announces.

use std::collections::BTreeMap;

use crate::{CallView, ContainerDetails, ContainerView, Milestone};

/// The details `view` gives, its port of discharge being `pod`: the milestones' last times,
/// and where the box is discharged and returned empty (their UN/LOCODEs give the times'
/// zones).
pub(super) fn details(view: &ContainerView, pod: Option<&CallView>) -> ContainerDetails {
    let last = |milestone: Milestone| {
        view.milestones
            .iter()
            .filter(|event| event.milestone == milestone)
            .map(|event| event.at)
            .max()
    };
    ContainerDetails {
        seal_number: view.seal.clone(),
        iso_code: view.iso_code.clone(),
        pod_terminal: pod.and_then(|call| call.place.facility.clone()),
        pod_locode: pod.map(|call| call.place.locode.clone()),
        empty_terminated_locode: view
            .milestones
            .iter()
            .filter(|event| event.milestone == Milestone::EmptyIn)
            .max_by_key(|event| event.at)
            .and_then(|event| event.place.as_ref())
            .map(|place| place.locode.clone()),
        empty_out_at: last(Milestone::EmptyOut),
        pol_full_in_at: last(Milestone::FullIn),
        pol_vessel_loaded_at: last(Milestone::VesselLoaded),
        pol_vessel_departed_at: last(Milestone::VesselDeparted),
        pod_arrived_at: last(Milestone::VesselArrived),
        pod_discharged_at: last(Milestone::VesselDischarged),
        pod_full_out_at: last(Milestone::FullOut),
        empty_terminated_at: last(Milestone::EmptyIn),
    }
}

/// `container.updated`'s changeset: field → `[old, new]`, for the fields that changed.
pub(super) fn changeset(
    old: &ContainerDetails,
    new: &ContainerDetails,
) -> crate::events::Changeset {
    let mut changes = BTreeMap::new();
    for (field, before, after) in [
        ("seal_number", &old.seal_number, &new.seal_number),
        ("iso_code", &old.iso_code, &new.iso_code),
        ("pod_terminal", &old.pod_terminal, &new.pod_terminal),
    ] {
        if before != after {
            changes.insert(
                field.to_owned(),
                [before.clone().into(), after.clone().into()],
            );
        }
    }
    changes
}
