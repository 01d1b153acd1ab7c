//! The shipments list's arrival filter, as the reference's own example of its errors names
//! it (compat-api.md §3.1): `filter[arrival_from]` and `filter[arrival_to]`, days written
//! `YYYY-MM-DD`, each inclusive, on the arrival at the port of discharge (the actual one,
//! else the estimate). Days are UTC days.

use tidemark_domain::Timestamp;
use tidemark_store::TimeRange;
use time::{Date, Time};

use crate::ApiError;
use crate::error::ErrorCode;
use crate::extract::QueryParams;

/// A day written `YYYY-MM-DD`.
#[must_use]
pub fn date(text: &str) -> Option<Date> {
    let format = time::macros::format_description!("[year]-[month]-[day]");
    Date::parse(text.trim(), format).ok()
}

/// Takes `filter[arrival_from]` and `filter[arrival_to]`.
///
/// # Errors
/// 400 `invalid_filter` for a day that is not one.
pub fn take_arrival(query: &mut QueryParams) -> Result<TimeRange, ApiError> {
    let mut day = |key: &str, at: Time| -> Result<Option<Timestamp>, ApiError> {
        query
            .take(key)
            .map(|text| {
                date(&text)
                    .map(|day| Timestamp::from_datetime(day.with_time(at).assume_utc()))
                    .ok_or_else(|| {
                        ApiError::bad_parameter(
                            ErrorCode::InvalidFilter,
                            key,
                            format!("{key} must be a day written YYYY-MM-DD, such as 2026-01-31"),
                        )
                    })
            })
            .transpose()
    };
    Ok(TimeRange {
        start: day("filter[arrival_from]", Time::MIDNIGHT)?,
        end: day("filter[arrival_to]", Time::MAX)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_whole_utc_days() {
        assert_eq!(
            date("2026-01-31").map(|d| d.to_string()),
            Some("2026-01-31".to_owned())
        );
        for bad in ["2026-02-30", "31/01/2026", "2026-1-31", ""] {
            assert_eq!(date(bad), None, "{bad}");
        }
    }
}
