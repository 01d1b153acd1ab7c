//! Free-text search (`q`, and `GET /v2/search`) of tracking requests, shipments and
//! containers: the text anywhere in a number or a reference number; a request and a
//! shipment are found by their containers' numbers too.
//!
//! A search first asks the trigram index (the `*_search` tables, migration `0022_search`)
//! for the account's candidates. When there are at most [`CANDIDATES_MAX`], the list reads
//! just those rows, by key; when there are more, or the text is too short for trigrams, the
//! list walks the account's rows newest first as it would unsearched, which is quick
//! because such a text is common. Either way every row listed is checked against the
//! `LIKE` patterns below, so the index only decides which rows are looked at.

use std::collections::BTreeSet;

use tidemark_domain::AccountId;
use uuid::Uuid;

use crate::StoreError;
use crate::db::{Backend, Cost, Dialect, Query, Value};

/// Candidates a search reads by key at the most; beyond them the list is walked in order.
pub const CANDIDATES_MAX: usize = 500;

/// Characters of a run without wildcards that a trigram index can look up: fewer, and the
/// index would be read whole.
const TRIGRAM: usize = 3;

/// What a search lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Searched {
    TrackingRequests,
    Shipments,
    Containers,
}

impl Searched {
    fn from(self) -> &'static str {
        match self {
            Self::TrackingRequests => " FROM tracking_requests",
            Self::Shipments => " FROM shipments",
            Self::Containers => " FROM containers",
        }
    }

    /// Statements giving the `id`s of candidates: `$1` the account, `$2` a pattern, `$3`
    /// how many to read.
    fn candidates(self) -> &'static [&'static str] {
        match self {
            Self::TrackingRequests => &[
                "SELECT id FROM tracking_request_search WHERE account_id = $1 AND text LIKE $2 LIMIT $3",
                "SELECT s.tracking_request_id AS id FROM container_search AS cs \
                 JOIN shipments AS s ON s.id = cs.shipment_id \
                 WHERE cs.account_id = $1 AND cs.text LIKE $2 LIMIT $3",
                "SELECT COALESCE(s.tracking_request_id, f.entity_id) AS id FROM custom_fields AS f \
                 JOIN custom_field_definitions AS d ON d.id = f.definition_id \
                 LEFT JOIN containers AS c ON c.id = f.entity_id \
                 LEFT JOIN shipments AS s ON s.id = COALESCE(c.shipment_id, f.entity_id) \
                 WHERE f.account_id = $1 AND d.reference_number = TRUE \
                 AND UPPER(CAST(f.value AS TEXT)) LIKE $2 LIMIT $3",
            ],
            Self::Shipments => &[
                "SELECT id FROM shipment_search WHERE account_id = $1 AND text LIKE $2 LIMIT $3",
                "SELECT shipment_id AS id FROM container_search \
                 WHERE account_id = $1 AND text LIKE $2 LIMIT $3",
                "SELECT COALESCE(c.shipment_id, f.entity_id) AS id FROM custom_fields AS f \
                 JOIN custom_field_definitions AS d ON d.id = f.definition_id \
                 LEFT JOIN containers AS c ON c.id = f.entity_id \
                 WHERE f.account_id = $1 AND d.reference_number = TRUE \
                 AND f.entity_type IN ('Shipment', 'Container') \
                 AND UPPER(CAST(f.value AS TEXT)) LIKE $2 LIMIT $3",
            ],
            Self::Containers => &[
                "SELECT id FROM container_search WHERE account_id = $1 AND text LIKE $2 LIMIT $3",
                "SELECT f.entity_id AS id FROM custom_fields AS f \
                 JOIN custom_field_definitions AS d ON d.id = f.definition_id \
                 WHERE f.account_id = $1 AND d.reference_number = TRUE \
                 AND f.entity_type = 'Container' AND UPPER(CAST(f.value AS TEXT)) LIKE $2 LIMIT $3",
            ],
        }
    }

    /// Which custom field values (`f`) of reference-number fields a listed row is found by:
    /// its own; a shipment's containers'; a request's shipment's and its containers'.
    fn valued(self) -> &'static str {
        match self {
            Self::TrackingRequests => {
                "(f.entity_id = tracking_requests.id OR f.entity_id IN (SELECT s.id FROM \
                 shipments AS s WHERE s.tracking_request_id = tracking_requests.id) OR \
                 f.entity_id IN (SELECT c.id FROM shipments AS s JOIN containers AS c \
                 ON c.shipment_id = s.id WHERE s.tracking_request_id = tracking_requests.id))"
            }
            Self::Shipments => {
                "(f.entity_id = shipments.id OR f.entity_id IN (SELECT c.id FROM containers AS c \
                 WHERE c.shipment_id = shipments.id))"
            }
            Self::Containers => "f.entity_id = containers.id",
        }
    }

    /// Where a number's pattern is matched.
    fn numbers(self) -> &'static [Matched] {
        match self {
            Self::TrackingRequests => &[
                Matched::Column("number_normalized"),
                Matched::TrackedContainerNumber,
            ],
            Self::Shipments => &[
                Matched::Column("normalized_number"),
                Matched::Upper("bill_of_lading_number"),
                Matched::ContainerNumber,
            ],
            Self::Containers => &[Matched::Column("number")],
        }
    }
}

/// A place a number's pattern is matched in.
#[derive(Debug, Clone, Copy)]
enum Matched {
    /// A column stored in its matching form.
    Column(&'static str),
    /// A column stored as written, upper-cased here.
    Upper(&'static str),
    /// The number of any of a shipment's containers.
    ContainerNumber,
    /// The number of any container of a tracking request's shipment.
    TrackedContainerNumber,
}

impl Matched {
    /// `… LIKE <pattern> ESCAPE '\\'` at this place.
    fn like(self, query: &mut Query, pattern: Value, dialect: &Dialect) {
        let (matched, close) = match self {
            Self::Column(column) => (column.to_owned(), ""),
            Self::Upper(column) => (dialect.upper(column), ""),
            Self::ContainerNumber => (
                "EXISTS (SELECT 1 FROM containers AS c \
                 WHERE c.shipment_id = shipments.id AND c.number"
                    .to_owned(),
                ")",
            ),
            Self::TrackedContainerNumber => (
                "EXISTS (SELECT 1 FROM shipments AS s JOIN containers AS c ON c.shipment_id = s.id \
                 WHERE s.tracking_request_id = tracking_requests.id AND c.number"
                    .to_owned(),
                ")",
            ),
        };
        query
            .push(&matched)
            .push(" LIKE ")
            .bind(pattern)
            .push(" ESCAPE '\\'")
            .push(close);
    }
}

/// The texts a search looks for: the request number in each of its matching forms, and the
/// reference numbers as stored (JSON text, so the text is matched as JSON would write it
/// and cannot straddle two numbers).
struct Search {
    /// Texts sought in the number columns.
    numbers: Vec<String>,
    /// The text sought in the upper-cased JSON text of `ref_numbers`.
    reference: String,
}

/// `%text%`, with `LIKE`'s own characters escaped by `\`.
fn containing(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// `%text%` with `LIKE`'s own characters as wildcards, for the index: it finds every row
/// [`containing`] finds (and may find more); neither index takes an `ESCAPE`. `None` when
/// no run of the text is long enough for the index.
fn loosely_containing(text: &str) -> Option<String> {
    let special = |c: char| matches!(c, '%' | '_' | '\\');
    let longest = text
        .split(special)
        .map(|run| run.chars().count())
        .max()
        .unwrap_or(0);
    (longest >= TRIGRAM).then(|| format!("%{}%", text.replace(special, "%")))
}

impl Search {
    fn of(text: &str) -> Self {
        let text = text.trim();
        let mut numbers = vec![tidemark_domain::request_number::general_form(text)];
        let container = tidemark_domain::container_number::normalize(text);
        if !numbers.contains(&container) {
            numbers.push(container);
        }
        let json = serde_json::to_string(&text.to_ascii_uppercase()).unwrap_or_default();
        let reference = json
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or("")
            .to_owned();
        Self { numbers, reference }
    }

    /// The account's candidates in the index; `None` when there are more than
    /// [`CANDIDATES_MAX`] or a text is too short to look up.
    async fn candidates<B: Backend + ?Sized>(
        &self,
        backend: &B,
        searched: Searched,
        account: AccountId,
    ) -> Result<Option<BTreeSet<Uuid>>, StoreError> {
        let mut texts: Vec<&String> = self.numbers.iter().collect();
        if !texts.contains(&&self.reference) {
            texts.push(&self.reference);
        }
        let Some(patterns) = texts
            .into_iter()
            .map(|text| loosely_containing(text))
            .collect::<Option<Vec<_>>>()
        else {
            return Ok(None);
        };
        let read = i64::try_from(CANDIDATES_MAX + 1).unwrap_or(i64::MAX);
        let queries: Vec<Query> = patterns
            .iter()
            .flat_map(|pattern| {
                searched.candidates().iter().map(move |sql| {
                    let values = vec![
                        account.as_uuid().into(),
                        Value::sought(pattern.clone()),
                        read.into(),
                    ];
                    Query::with(sql, values)
                })
            })
            .collect();
        let mut found = BTreeSet::new();
        for rows in backend.read(&queries, Cost::Scan).await? {
            for row in rows {
                found.insert(row.required_id("id")?);
            }
            if found.len() > CANDIDATES_MAX {
                return Ok(None);
            }
        }
        Ok(Some(found))
    }

    /// Narrows `query` to the rows this search finds: ` AND (…)`, true when any of the
    /// number columns matches a form of the number, or the reference numbers contain the
    /// text.
    fn narrow(&self, query: &mut Query, searched: Searched, dialect: &Dialect) {
        query.push(" AND (");
        for text in &self.numbers {
            for matched in searched.numbers() {
                matched.like(query, Value::sought(containing(text)), dialect);
                query.push(" OR ");
            }
        }
        query
            .push(&dialect.upper("CAST(ref_numbers AS TEXT)"))
            .push(" LIKE ")
            .bind(Value::sought(containing(&self.reference)))
            .push(" ESCAPE '\\'");
        // The values of the account's reference-number custom fields.
        query
            .push(
                " OR EXISTS (SELECT 1 FROM custom_fields AS f \
                 JOIN custom_field_definitions AS d ON d.id = f.definition_id \
                 WHERE d.reference_number = TRUE AND ",
            )
            .push(searched.valued())
            .push(" AND ")
            .push(&dialect.upper("CAST(f.value AS TEXT)"))
            .push(" LIKE ")
            .bind(Value::sought(containing(&self.reference)))
            .push(" ESCAPE '\\'))");
    }
}

/// The start of a list's `FROM … WHERE`: `account`'s rows of `searched`, and when `text` is
/// given, only those it finds.
pub(crate) async fn scoped<B: Backend + ?Sized>(
    backend: &B,
    searched: Searched,
    account: AccountId,
    text: Option<&str>,
) -> Result<Query, StoreError> {
    let Some(text) = text else {
        return Ok(Query::scoped(searched.from(), account));
    };
    let search = Search::of(text);
    let mut query = match search.candidates(backend, searched, account).await? {
        Some(ids) => {
            let no_index = backend.dialect().no_index;
            let mut query = Query::scoped_unindexed(searched.from(), account, no_index);
            query.push(" AND id IN ").bind_list(ids);
            query
        }
        None => Query::scoped(searched.from(), account),
    };
    search.narrow(&mut query, searched, backend.dialect());
    Ok(query)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_is_asked_only_for_runs_of_three_characters() {
        assert_eq!(loosely_containing("AB"), None);
        assert_eq!(loosely_containing("A_B%C"), None);
        assert_eq!(loosely_containing("ABC").as_deref(), Some("%ABC%"));
        assert_eq!(loosely_containing("A_BCD").as_deref(), Some("%A%BCD%"));
        assert_eq!(containing("A_B%").as_str(), "%A\\_B\\%%");
    }
}
