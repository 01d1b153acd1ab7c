//! The filters of the console's lists, as the page's URL gives them: each one read once,
//! shown again in the form, carried by the pager's links, and a value that cannot be read
//! said on the page (and not applied) instead of silently ignored.

use crate::extract::QueryParams;

/// A list's filters.
#[derive(Debug, Default)]
pub struct Filters {
    /// Each filter given, by name, as given (trimmed), in the list's order.
    given: Vec<(&'static str, String)>,
    /// What could not be read, in words.
    problems: Vec<String>,
    page: u32,
}

/// One value a filter offers: what the URL carries and what the user reads.
#[derive(Debug, Clone)]
pub struct Choice {
    /// The URL's value.
    pub value: String,
    /// The words shown.
    pub label: String,
}

impl Choice {
    /// A choice of `value`, shown as `label`.
    #[must_use]
    pub fn new(value: impl Into<String>, label: impl Into<String>) -> Self {
        Self {
            value: value.into(),
            label: label.into(),
        }
    }
}

/// `yes` or `no` (also `true`/`false`), as a flag filter takes them.
#[must_use]
pub fn yes_no(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "yes" | "true" => Some(true),
        "no" | "false" => Some(false),
        _ => None,
    }
}

pub use crate::params::locode;

/// A date as a date input sends it, `2026-12-08`.
#[must_use]
pub fn date(text: &str) -> Option<time::Date> {
    crate::params::date(text)
}

/// `label` with how many records it would find: `on hold (12)`.
#[must_use]
pub fn counted(label: &str, count: u64) -> String {
    format!("{label} ({count})")
}

impl Filters {
    /// The filters `names` and the page number, taken from `query`; an empty value is no
    /// filter.
    #[must_use]
    pub fn read(mut query: QueryParams, names: &[&'static str]) -> Self {
        let given = names
            .iter()
            .filter_map(|name| {
                let value = query.take(name)?.trim().to_owned();
                (!value.is_empty()).then_some((*name, value))
            })
            .collect();
        let page = query
            .take("page")
            .and_then(|text| text.parse::<u32>().ok())
            .filter(|number| *number >= 1)
            .unwrap_or(1);
        Self {
            given,
            problems: Vec::new(),
            page,
        }
    }

    /// The value of filter `name` as given, or empty: for the form.
    #[must_use]
    pub fn value(&self, name: &str) -> &str {
        self.given
            .iter()
            .find(|(given, _)| *given == name)
            .map_or("", |(_, value)| value.as_str())
    }

    /// Filter `name` as free text, when given.
    #[must_use]
    pub fn text(&self, name: &str) -> Option<String> {
        Some(self.value(name).to_owned()).filter(|value| !value.is_empty())
    }

    /// Filter `name` read by `parse`; a value it cannot read is a problem the page states
    /// ("`line`: … is not a SCAC, four letters"), and no filter.
    pub fn parsed<T>(
        &mut self,
        name: &str,
        expected: &str,
        parse: impl Fn(&str) -> Option<T>,
    ) -> Option<T> {
        let value = self.text(name)?;
        let parsed = parse(&value);
        if parsed.is_none() {
            self.problems
                .push(format!("{name}: “{value}” is not {expected}; not applied."));
        }
        parsed
    }

    /// What could not be read.
    #[must_use]
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Nothing, or a 400 saying what could not be read: an export has no page to say it on,
    /// and a file of other records than asked would pass for the list.
    ///
    /// # Errors
    /// The 400, when a filter could not be read.
    pub fn refuse_unread(&self) -> Result<(), super::ConsoleError> {
        match self.problems.as_slice() {
            [] => Ok(()),
            problems => Err(super::ConsoleError::bad_request(&problems.join(" "))),
        }
    }

    /// Whether any filter is given.
    #[must_use]
    pub fn any(&self) -> bool {
        !self.given.is_empty()
    }

    /// The page asked for (1 unless given).
    #[must_use]
    pub fn page(&self) -> u32 {
        self.page
    }

    /// How many pages of `size` hold `total`.
    #[must_use]
    pub fn pages(&self, total: u64, size: u32) -> u32 {
        u32::try_from(total.div_ceil(u64::from(size.max(1)))).unwrap_or(u32::MAX)
    }

    /// The filters as a query string ending in `&` (or empty), for the pager's links.
    #[must_use]
    pub fn query(&self) -> String {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (name, value) in &self.given {
            query.append_pair(name, value);
        }
        let mut query = query.finish();
        if !query.is_empty() {
            query.push('&');
        }
        query
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filters(query: &str, names: &[&'static str]) -> Filters {
        Filters::read(QueryParams::parse(query).expect("a query"), names)
    }

    #[test]
    fn given_filters_are_kept_in_order_for_the_pager_and_blank_ones_dropped() {
        let shown = filters("pod=nlrtm&q=+MSKU+&line=&page=3", &["q", "line", "pod"]);
        assert_eq!(shown.value("q"), "MSKU");
        assert_eq!(shown.value("line"), "");
        assert_eq!(shown.page(), 3);
        assert_eq!(shown.query(), "q=MSKU&pod=nlrtm&");
        assert!(shown.any());
        assert_eq!(filters("page=0", &["q"]).page(), 1);
        assert_eq!(filters("", &["q"]).query(), "");
    }

    #[test]
    fn an_unreadable_value_is_said_and_not_applied() {
        let mut shown = filters("stopped=maybe&hold=no", &["stopped", "hold"]);
        assert_eq!(shown.parsed("stopped", "yes or no", yes_no), None);
        assert_eq!(shown.parsed("hold", "yes or no", yes_no), Some(false));
        assert_eq!(shown.problems().len(), 1);
        assert!(shown.problems()[0].contains("“maybe” is not yes or no"));
    }

    #[test]
    fn ports_and_dates_are_read_as_their_inputs_send_them() {
        assert_eq!(locode("nlrtm").as_deref(), Some("NLRTM"));
        assert_eq!(locode("NLRT"), None);
        assert_eq!(locode("NL RT"), None);
        assert_eq!(
            date("2026-12-08").map(|d| d.to_string()).as_deref(),
            Some("2026-12-08")
        );
        assert_eq!(date("2026-02-30"), None);
        assert_eq!(date("08/12/2026"), None);
    }

    #[test]
    fn pages_round_up() {
        let shown = Filters::default();
        assert_eq!(shown.pages(0, 50), 0);
        assert_eq!(shown.pages(50, 50), 1);
        assert_eq!(shown.pages(51, 50), 2);
    }
}
