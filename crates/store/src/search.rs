//! Free-text search (`q`, and `GET /v2/search`) of tracking requests, shipments and
//! containers, as `LIKE` patterns.

use crate::db::{Query, Value};

/// The `LIKE` patterns of a free-text search of tracking requests (`q`): the request
/// number in each of its matching forms, and the reference numbers as stored (JSON text, so
/// the text is matched as JSON would write it and cannot straddle two numbers).
pub(crate) struct Search {
    /// Patterns for `number_normalized`.
    pub numbers: Vec<String>,
    /// The pattern for the upper-cased JSON text of `ref_numbers`.
    pub reference: String,
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

impl Search {
    pub(crate) fn of(text: &str) -> Self {
        let text = text.trim();
        let mut numbers = vec![containing(&tidemark_domain::request_number::general_form(
            text,
        ))];
        let container = containing(&tidemark_domain::container_number::normalize(text));
        if !numbers.contains(&container) {
            numbers.push(container);
        }
        let json = serde_json::to_string(&text.to_ascii_uppercase()).unwrap_or_default();
        let inner = json
            .strip_prefix('"')
            .and_then(|rest| rest.strip_suffix('"'))
            .unwrap_or("");
        Self {
            numbers,
            reference: containing(inner),
        }
    }

    /// Narrows `query` to the rows that `text` finds: ` AND (…)`, true when any of
    /// `numbers` (the SQL before and after one `LIKE` pattern) matches a form of the
    /// number, or the reference numbers contain the text.
    pub(crate) fn narrow(query: &mut Query, text: &str, numbers: &[(&str, &str)]) {
        let search = Self::of(text);
        query.push(" AND (");
        for pattern in &search.numbers {
            for (before, after) in numbers {
                query
                    .push(before)
                    .bind(Value::sought(pattern.clone()))
                    .push(" ESCAPE '\\'")
                    .push(after)
                    .push(" OR ");
            }
        }
        query
            .push("UPPER(CAST(ref_numbers AS TEXT)) LIKE ")
            .bind(Value::sought(search.reference))
            .push(" ESCAPE '\\')");
    }
}
