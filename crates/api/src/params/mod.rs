//! Query parameters every list shares (api.md §1 "Lists", "include"): pagination,
//! comma-separated filters, time ranges and include paths.

use tidemark_domain::Timestamp;
use tidemark_store::{PageRequest, TimeRange};

use crate::document::{ListDocument, ListMeta, PageLinks, Pagination};
use crate::error::ErrorCode;
use crate::extract::QueryParams;
use crate::{ApiConfig, ApiError};

mod arrival;
mod include;
mod scac;
pub use arrival::{date, take_arrival};
pub use include::{Include, IncludePaths, Includes, take_include};
pub use scac::{ScacFilter, take_scacs};

/// The highest `page[number]` accepted (documented in the OpenAPI document).
pub const MAX_PAGE_NUMBER: u32 = 1_000_000;

/// `page[number]` and `page[size]` in the OpenAPI document: `params(Paging, …)` on every
/// list. Their limits and defaults are stated from the configuration when the document is
/// built (`openapi::list_parameters`).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, reason = "read by the OpenAPI derive only")]
pub struct Paging {
    /// Page, from 1
    #[param(rename = "page[number]", minimum = 1)]
    number: Option<u32>,
    /// Items per page
    #[param(rename = "page[size]", minimum = 1)]
    size: Option<u32>,
}

/// A page of a list of `total` items as a list document: `data` with the page's `links`
/// (keeping the request's other parameters) and `meta`; `ListDocument::including` adds
/// what `include` asked for.
#[must_use]
pub fn list_document<T>(
    path: &str,
    query: &QueryParams,
    page: PageRequest,
    total: u64,
    data: Vec<T>,
) -> ListDocument<T> {
    ListDocument {
        data,
        included: None,
        links: page_links(path, query.original(), page, total),
        meta: page_meta(page, total),
    }
}

/// The page `result` of the list at `path`, each record rendered by `render`.
pub fn page_of<T, R>(
    path: &str,
    query: &QueryParams,
    page: PageRequest,
    result: &tidemark_store::Page<T>,
    render: impl Fn(&T) -> R,
) -> ListDocument<R> {
    let data = result.items.iter().map(render).collect();
    list_document(path, query, page, result.total, data)
}

/// Reads `page[number]` and `page[size]`.
///
/// # Errors
/// 400 with `source.parameter` for values that are not whole numbers in range.
pub fn take_page(query: &mut QueryParams, config: &ApiConfig) -> Result<PageRequest, ApiError> {
    take_page_or(query, config, config.page_size_default)
}

/// `page[number]` and `page[size]`, `default_size` items when the size is not given.
pub fn take_page_or(
    query: &mut QueryParams,
    config: &ApiConfig,
    default_size: u32,
) -> Result<PageRequest, ApiError> {
    let parse =
        |key: &str, value: Option<String>, default: u32, max: u32| -> Result<u32, ApiError> {
            let Some(text) = value else {
                return Ok(default);
            };
            text.parse::<u32>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| {
                    ApiError::bad_parameter(
                        ErrorCode::InvalidParameter,
                        key,
                        format!("{key} must be a whole number from 1 to {max}"),
                    )
                })
        };
    let number = parse(
        "page[number]",
        query.take("page[number]"),
        1,
        MAX_PAGE_NUMBER,
    )?;
    let size = parse(
        "page[size]",
        query.take("page[size]"),
        default_size,
        config.page_size_max,
    )?;
    Ok(PageRequest::new(number, size))
}

/// The number of the last page of `total` items (1 for an empty list).
fn last_page(page: PageRequest, total: u64) -> u32 {
    u32::try_from(total.div_ceil(u64::from(page.size)).max(1)).unwrap_or(u32::MAX)
}

/// `meta` of a page of `total` items.
#[must_use]
pub fn page_meta(page: PageRequest, total: u64) -> ListMeta {
    let last = last_page(page, total);
    ListMeta {
        size: page.size,
        total,
        pagination: Pagination {
            current: page.number,
            next: (page.number < last).then(|| page.number + 1),
            last,
            records: total,
        },
    }
}

/// Builds `links` for a page, keeping every other parameter of the request.
#[must_use]
pub fn page_links(
    path: &str,
    original: &[(String, String)],
    page: PageRequest,
    total: u64,
) -> PageLinks {
    let last_page = last_page(page, total);
    let link = |number: u32| {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (key, value) in original {
            if key != "page[number]" && key != "page[size]" {
                query.append_pair(key, value);
            }
        }
        query.append_pair("page[number]", &number.to_string());
        query.append_pair("page[size]", &page.size.to_string());
        format!("{path}?{}", query.finish())
    };
    PageLinks {
        self_: link(page.number),
        current: link(page.number),
        first: link(1),
        prev: (page.number > 1).then(|| link((page.number - 1).min(last_page))),
        next: (page.number < last_page).then(|| link(page.number + 1)),
        last: link(last_page),
    }
}

/// Reads a `true`/`false` filter.
///
/// # Errors
/// 400 `invalid_filter` for any other value.
pub fn take_flag(query: &mut QueryParams, key: &str) -> Result<Option<bool>, ApiError> {
    match query.take(key).as_deref() {
        None => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(_) => Err(ApiError::bad_parameter(
            ErrorCode::InvalidFilter,
            key,
            format!("{key} must be true or false"),
        )),
    }
}

/// `names` as prose: `a, b or c`.
#[must_use]
pub fn one_of(names: &[&str]) -> String {
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_owned(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The pattern of a comma-separated list of `names` (empty allowed), for the OpenAPI
/// document.
#[must_use]
pub fn list_pattern(names: &[&str]) -> String {
    let one = names.join("|");
    format!("^(({one})(,({one}))*)?$")
}

/// A port's UN/LOCODE as a filter takes it (the API's `filter[pod_locode]`, the console's
/// `pod`): five letters or digits, upper-cased.
#[must_use]
pub fn locode(text: &str) -> Option<String> {
    let ok = text.len() == 5 && text.chars().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| text.to_ascii_uppercase())
}

/// Reads a comma-separated filter whose values `parse` accepts; an empty value filters nothing.
///
/// # Errors
/// 400 `invalid_filter` naming the first value that does not parse.
pub fn take_list<T>(
    query: &mut QueryParams,
    key: &str,
    expected: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Vec<T>, ApiError> {
    let Some(text) = query.take(key).filter(|text| !text.trim().is_empty()) else {
        return Ok(Vec::new());
    };
    text.split(',')
        .map(|value| {
            parse(value.trim()).ok_or_else(|| {
                ApiError::bad_parameter(
                    ErrorCode::InvalidFilter,
                    key,
                    format!("{value:?} is not valid for {key}: expected {expected}"),
                )
            })
        })
        .collect()
}

/// Reads `filter[NAME][start]` and `filter[NAME][end]` (RFC 3339).
///
/// # Errors
/// 400 `invalid_filter` for a value that is not RFC 3339.
pub fn take_range(query: &mut QueryParams, name: &str) -> Result<TimeRange, ApiError> {
    let mut bound = |edge: &str| {
        take_time(
            query,
            &format!("filter[{name}][{edge}]"),
            ErrorCode::InvalidFilter,
        )
    };
    Ok(TimeRange {
        start: bound("start")?,
        end: bound("end")?,
    })
}

/// Reads the time `key` names (RFC 3339), if given.
///
/// # Errors
/// 400 with `code` for a value that is not RFC 3339.
pub fn take_time(
    query: &mut QueryParams,
    key: &str,
    code: ErrorCode,
) -> Result<Option<Timestamp>, ApiError> {
    query
        .take(key)
        .map(|text| {
            Timestamp::parse_rfc3339(text.trim()).map_err(|_| {
                ApiError::bad_parameter(
                    code,
                    key,
                    format!("{key} must be an RFC 3339 time such as 2026-01-31T00:00:00Z"),
                )
            })
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(number: u32, size: u32) -> PageRequest {
        PageRequest::new(number, size)
    }

    #[test]
    fn links_keep_filters_and_stop_at_the_ends() {
        let original = vec![
            ("filter[status]".to_owned(), "pending".to_owned()),
            ("page[number]".to_owned(), "2".to_owned()),
        ];
        let links = page_links("/v2/tracking_requests", &original, page(2, 10), 25);
        assert_eq!(
            links.self_,
            "/v2/tracking_requests?filter%5Bstatus%5D=pending&page%5Bnumber%5D=2&page%5Bsize%5D=10"
        );
        assert!(links.prev.is_some_and(|l| l.contains("page%5Bnumber%5D=1")));
        assert!(links.next.is_some_and(|l| l.contains("page%5Bnumber%5D=3")));
        assert!(links.last.contains("page%5Bnumber%5D=3"));

        let last = page_links("/x", &[], page(3, 10), 25);
        assert!(last.next.is_none());
        let first = page_links("/x", &[], page(1, 10), 0);
        assert!(first.prev.is_none() && first.next.is_none());
        assert!(first.last.contains("page%5Bnumber%5D=1"));
    }

    #[test]
    fn meta_carries_the_reference_pagination() {
        let last = page_meta(page(3, 10), 25).pagination;
        assert_eq!(
            (last.current, last.next, last.last, last.records),
            (3, None, 3, 25)
        );
        let middle = page_meta(page(1, 10), 25).pagination;
        assert_eq!(middle.next, Some(2));
        let empty = page_meta(page(1, 30), 0).pagination;
        assert_eq!((empty.next, empty.last, empty.records), (None, 1, 0));
    }

    #[test]
    fn page_values_are_checked() {
        let config = ApiConfig::default();
        for bad in [
            "page[size]=0",
            "page[size]=101",
            "page[size]=x",
            "page[number]=0",
            "page[number]=-1",
        ] {
            let mut query = QueryParams::parse(bad).expect("parses");
            assert!(take_page(&mut query, &config).is_err(), "{bad}");
        }
        let mut query = QueryParams::parse("page[size]=100&page[number]=3").expect("parses");
        assert_eq!(take_page(&mut query, &config).ok(), Some(page(3, 100)));
    }
}
