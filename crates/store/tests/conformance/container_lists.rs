//! Conformance cases of the lists people work from: a container found by its shipment's
//! line and ports, its terminal, a hold's name and its last free day as a date at the
//! port; the lists' orders; the counts beside their choices; and the columns those
//! filters read, derived again for rows written before them.

use std::sync::Arc;

use tidemark_domain::terminal::{Hold, HoldName, HoldStatus, LastFreeDays, TerminalView};
use tidemark_domain::{Account, ContainerStatus, Milestone, Place, Scac, Timestamp};
use tidemark_store::testing::TestDatabase;
use tidemark_store::{
    ContainerFilter, ContainerOrder, ContainerTally, ShipmentFilter, ShipmentOrder, ShipmentTally,
    Store,
};

use super::tracking::{looked_up, snapshot};
use super::{account, page};

/// In Valencia this instant is already 2026-12-09 (00:30 CET); in UTC it is the 8th.
fn late_on_the_8th() -> Timestamp {
    Timestamp::parse_rfc3339("2026-12-08T23:30:00Z").expect("a time")
}

fn day(text: &str) -> time::Date {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    time::Date::parse(text, format).expect("a date")
}

fn place(locode: &str) -> Place {
    Place {
        locode: locode.to_owned(),
        name: None,
        facility: None,
    }
}

/// Tracks `number` (MAEU, from Rotterdam to Valencia); its box held by customs at terminal
/// `VLCT1` with its last free day at [`late_on_the_8th`] when `held`.
async fn tracked(store: &Arc<dyn Store>, owner: &Account, number: &str, when: i64, held: bool) {
    let milestones = snapshot(&[(Milestone::VesselDischarged, when - 1)]);
    let (_, job, mut commit) = looked_up(store, owner, number, &milestones, when).await;
    let shipment = commit.shipment.as_mut().expect("a shipment");
    shipment.route.port_of_lading = Some(place("NLRTM"));
    shipment.route.port_of_discharge = Some(place("ESVLC"));
    let container = &mut commit.delta.containers[0];
    container.details.pod_locode = Some("ESVLC".to_owned());
    if held {
        container.details.pod_terminal = Some("VLCT1".to_owned());
        container.current_status = ContainerStatus::NotAvailable;
        container.terminal = TerminalView {
            availability_known: true,
            available_for_pickup: Some(false),
            holds: vec![Hold {
                name: HoldName::Customs,
                status: HoldStatus::Hold,
                description: None,
            }],
            last_free_days: LastFreeDays {
                line: Some(late_on_the_8th()),
                ..LastFreeDays::default()
            },
            ..TerminalView::default()
        };
    }
    super::committed(store, &job, &commit).await;
}

/// A filter of everything but what `narrow` sets.
fn only(narrow: impl FnOnce(&mut ContainerFilter)) -> ContainerFilter {
    let mut filter = ContainerFilter::default();
    narrow(&mut filter);
    filter
}

/// Filters of the two boxes [`tracked`] writes (one held), each with how many it finds.
fn filters() -> Vec<(&'static str, ContainerFilter, u64)> {
    let scac = |code: &str| vec![Scac::parse(code).expect("a SCAC")];
    vec![
        ("everything", ContainerFilter::default(), 2),
        ("its line", only(|f| f.scac = scac("MAEU")), 2),
        ("another line", only(|f| f.scac = scac("CMDU")), 0),
        (
            "from Rotterdam to Valencia",
            only(|f| {
                f.pol_locode = vec!["NLRTM".into()];
                f.pod_locode = vec!["ESVLC".into()];
            }),
            2,
        ),
        (
            "to Hamburg",
            only(|f| f.pod_locode = vec!["DEHAM".into()]),
            0,
        ),
        (
            "its terminal",
            only(|f| f.terminal_code = vec!["VLCT1".into()]),
            1,
        ),
        (
            "customs",
            only(|f| f.hold_name = vec![HoldName::Customs]),
            1,
        ),
        (
            "freight",
            only(|f| f.hold_name = vec![HoldName::Freight]),
            0,
        ),
        (
            "freight or customs",
            only(|f| f.hold_name = vec![HoldName::Freight, HoldName::Customs]),
            1,
        ),
        (
            // The 9th at Valencia: a UTC cut-off would take the 8th and find it.
            "a free day before the 9th",
            only(|f| f.pickup_lfd_before = Some(day("2026-12-09"))),
            0,
        ),
        (
            "a free day before the 10th",
            only(|f| f.pickup_lfd_before = Some(day("2026-12-10"))),
            1,
        ),
    ]
}

async fn numbers(store: &Arc<dyn Store>, owner: &Account, order: ContainerOrder) -> Vec<bool> {
    let filter = ContainerFilter {
        order,
        ..Default::default()
    };
    let listed = store
        .list_containers(owner.id, &filter, page(1, 10))
        .await
        .expect("list");
    listed
        .items
        .iter()
        .map(|c| c.standing().pickup_lfd.is_some())
        .collect()
}

pub async fn the_container_list_filters_on_line_ports_terminal_holds_and_local_days(
    store: Arc<dyn Store>,
) {
    let owner = account(&store, "lists").await;
    tracked(&store, &owner, "586118841", 10, true).await;
    tracked(&store, &owner, "586118842", 20, false).await;
    for (what, filter, expected) in filters() {
        let found = super::containers_listed(&store, owner.id, filter).await;
        assert_eq!(found, expected, "{what}");
    }
    // Newest first puts the later, free box first; by last free day the held one leads.
    assert_eq!(
        numbers(&store, &owner, ContainerOrder::Newest).await,
        [false, true]
    );
    assert_eq!(
        numbers(&store, &owner, ContainerOrder::LastFreeDay).await,
        [true, false]
    );

    let mut tallies = store
        .container_tallies(owner.id, &ContainerFilter::default())
        .await
        .expect("tallies");
    tallies.sort_by_key(|tally| tally.on_hold);
    assert_eq!(tallies.len(), 2, "{tallies:?}");
    assert_eq!(
        tallies[1],
        ContainerTally {
            status: ContainerStatus::NotAvailable,
            available: Some(false),
            on_hold: true,
            holds: vec![HoldName::Customs],
            count: 1,
        }
    );
    assert_eq!((tallies[0].on_hold, tallies[0].count), (false, 1));
    let held = ContainerFilter {
        hold_name: vec![HoldName::Customs],
        ..Default::default()
    };
    let tallies = store
        .container_tallies(owner.id, &held)
        .await
        .expect("tallies");
    assert_eq!(
        tallies.iter().map(|t| t.count).sum::<u64>(),
        1,
        "within the filter"
    );

    let shipments = store
        .shipment_tallies(owner.id, &ShipmentFilter::default())
        .await
        .expect("tallies");
    let maeu = Scac::parse("MAEU").expect("a SCAC");
    assert_eq!(
        shipments,
        [ShipmentTally {
            scac: maeu,
            stopped: false,
            count: 2
        }]
    );
    let by_number = ShipmentFilter {
        order: ShipmentOrder::Number,
        ..Default::default()
    };
    let listed = store
        .list_shipments(owner.id, &by_number, page(1, 10))
        .await
        .expect("list");
    let bills: Vec<_> = listed
        .items
        .iter()
        .map(|s| s.bill_of_lading_number.as_str())
        .collect();
    assert_eq!(bills, ["586118841", "586118842"]);
}

/// A filter that keeps every row as the whole account's does, but is counted from the rows.
fn counted_from_the_rows<F: Default>(created_at: impl FnOnce(&mut F)) -> F {
    let mut filter = F::default();
    created_at(&mut filter);
    filter
}

/// Each of `tallies` written out, sorted.
fn sorted<T: std::fmt::Debug>(tallies: &[T]) -> Vec<String> {
    let mut written: Vec<String> = tallies.iter().map(|t| format!("{t:?}")).collect();
    written.sort();
    written
}

/// The whole account's kept counts, and the same counted from its rows, sorted alike.
async fn kept_and_counted(store: &Arc<dyn Store>, owner: &Account) -> [Vec<String>; 4] {
    let all = tidemark_store::TimeRange {
        start: Some(Timestamp::from_datetime(time::OffsetDateTime::UNIX_EPOCH)),
        end: None,
    };
    let containers = async |filter: ContainerFilter| {
        sorted(
            &store
                .container_tallies(owner.id, &filter)
                .await
                .expect("tallies"),
        )
    };
    let shipments = async |filter: ShipmentFilter| {
        sorted(
            &store
                .shipment_tallies(owner.id, &filter)
                .await
                .expect("tallies"),
        )
    };
    [
        containers(ContainerFilter::default()).await,
        containers(counted_from_the_rows(|f: &mut ContainerFilter| {
            f.created_at = all
        }))
        .await,
        shipments(ShipmentFilter::default()).await,
        shipments(counted_from_the_rows(|f: &mut ShipmentFilter| {
            f.created_at = all
        }))
        .await,
    ]
}

/// The counts kept for a whole account agree with its rows, before and after they are
/// folded, through the rows' changes, and for no other account.
async fn the_kept_counts_agree_with_the_rows(store: &Arc<dyn Store>, owner: &Account) {
    for fold in [false, true] {
        if fold {
            store.fold_counts().await.expect("folded");
        }
        let [kept, counted, kept_shipments, counted_shipments] =
            kept_and_counted(store, owner).await;
        assert_eq!(kept, counted, "containers (folded: {fold})");
        assert_eq!(
            kept_shipments, counted_shipments,
            "shipments (folded: {fold})"
        );
    }
}

/// A database written before the list columns existed: they are derived when it is opened
/// again, and the filters find its boxes. The counts kept for the lists follow each change.
pub async fn the_list_columns_are_derived_for_boxes_written_before_them(database: &TestDatabase) {
    let store = database.connect().await;
    let owner = account(&store, "older").await;
    let other = account(&store, "other").await;
    tracked(&store, &owner, "586118841", 10, true).await;
    tracked(&store, &owner, "586118842", 20, false).await;
    tracked(&store, &other, "586118843", 30, true).await;
    the_kept_counts_agree_with_the_rows(&store, &owner).await;
    let [kept, ..] = kept_and_counted(&store, &owner).await;
    assert_eq!(
        kept.len(),
        2,
        "the other account's box is not counted: {kept:?}"
    );
    database.underive_containers().await;
    the_kept_counts_agree_with_the_rows(&store, &owner).await;
    let customs = || ContainerFilter {
        hold_name: vec![HoldName::Customs],
        ..Default::default()
    };
    assert_eq!(
        super::containers_listed(&store, owner.id, customs()).await,
        0,
        "underived"
    );
    let reopened = database.connect().await;
    the_kept_counts_agree_with_the_rows(&reopened, &owner).await;
    the_kept_counts_agree_with_the_rows(&reopened, &other).await;
    assert_eq!(
        super::containers_listed(&reopened, owner.id, customs()).await,
        1
    );
    let terminal = ContainerFilter {
        terminal_code: vec!["VLCT1".into()],
        ..Default::default()
    };
    assert_eq!(
        super::containers_listed(&reopened, owner.id, terminal).await,
        1
    );
}
