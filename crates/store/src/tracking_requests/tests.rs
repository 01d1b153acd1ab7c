//! The open statuses the SQL spells are the domain's.

use tidemark_domain::RequestStatus;

/// The domain decides which statuses are open; the SQL list and the unique index of
/// both backends' migrations spell the same list.
#[test]
fn the_sql_open_statuses_are_the_domains() {
    let open: Vec<String> = RequestStatus::ALL
        .into_iter()
        .filter(RequestStatus::is_open)
        .map(|status| format!("'{}'", status.as_str()))
        .collect();
    let list = format!("({})", open.join(", "));
    assert_eq!(open_statuses!(), list);
    for migration in [
        include_str!("../../migrations/sqlite/0001_accounts_and_tracking_requests.sql"),
        include_str!("../../migrations/postgres/0001_accounts_and_tracking_requests.sql"),
    ] {
        assert!(
            migration.contains(&format!("WHERE status IN {list};")),
            "the duplicate index's predicate is {list}"
        );
    }
}
