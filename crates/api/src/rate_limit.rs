//! Per-account rate limits (api.md §1 "Rate limits"): one bucket per account and class,
//! `Retry-After` on 429 and `RateLimit-*` headers on every limited answer.
//!
//! On PostgreSQL, where several API processes may serve one database, each bucket's state
//! lives in the database (`RateLimitStore`, the GCRA of `domain/src/rate.rs`), so an
//! account's limit holds across them. On SQLite, one process: buckets live in its memory
//! (GCRA via `governor`), with no database write per request.

use std::num::NonZeroU32;
use std::time::Duration;

use axum::extract::{MatchedPath, Request};
use axum::http::{HeaderMap, HeaderName, HeaderValue, Method};
use governor::clock::{Clock, DefaultClock};
use governor::middleware::StateInformationMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter as Gcra};
use tidemark_domain::AccountId;

use crate::auth::Caller;
use crate::{ApiError, AppState};

/// The buckets an endpoint can draw from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RateClass {
    /// `POST /v2/tracking_requests`.
    Create,
    /// `POST /v2/tracking_requests/infer_number`.
    Infer,
    /// `PATCH /v2/containers/{id}/refresh`.
    Refresh,
    /// Every other authenticated endpoint.
    Default,
}

impl RateClass {
    /// Its name, in a shared bucket's key.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Create => "create",
            Self::Infer => "infer",
            Self::Refresh => "refresh",
            Self::Default => "default",
        }
    }

    /// The class of a route, by method and route pattern.
    #[must_use]
    pub fn of(method: &Method, route: &str) -> Self {
        match (method, route) {
            (&Method::POST, "/v2/tracking_requests") => Self::Create,
            (&Method::POST, "/v2/tracking_requests/infer_number") => Self::Infer,
            (&Method::PATCH, "/v2/containers/{id}/refresh") => Self::Refresh,
            _ => Self::Default,
        }
    }
}

/// Requests per minute per account for each class: `[rate_limits]` in the configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimitConfig {
    /// Creates of tracking requests.
    pub create_per_minute: NonZeroU32,
    /// Infer-number calls.
    pub infer_per_minute: NonZeroU32,
    /// On-demand refreshes of containers.
    pub refresh_per_minute: NonZeroU32,
    /// Everything else.
    pub default_per_minute: NonZeroU32,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        Self {
            create_per_minute: NonZeroU32::new(100).unwrap_or(NonZeroU32::MIN),
            infer_per_minute: NonZeroU32::new(200).unwrap_or(NonZeroU32::MIN),
            refresh_per_minute: NonZeroU32::new(10).unwrap_or(NonZeroU32::MIN),
            default_per_minute: NonZeroU32::new(1200).unwrap_or(NonZeroU32::MIN),
        }
    }
}

type Bucket<C> = Gcra<AccountId, DefaultKeyedStateStore<AccountId>, C, StateInformationMiddleware>;

/// The outcome of drawing one request from a bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// Whether the request may proceed.
    pub allowed: bool,
    /// The bucket's size.
    pub limit: u32,
    /// Requests left right now.
    pub remaining: u32,
    /// Seconds until the bucket is full again.
    pub reset_secs: u64,
    /// Seconds to wait before the next request can pass (0 when allowed).
    pub retry_after_secs: u64,
}

/// The per-account limiter for every class.
#[derive(Debug)]
pub struct RateLimiter<C: Clock = DefaultClock> {
    clock: C,
    create: (u32, Bucket<C>),
    infer: (u32, Bucket<C>),
    refresh: (u32, Bucket<C>),
    default: (u32, Bucket<C>),
}

fn ceil_secs(duration: Duration) -> u64 {
    duration.as_secs() + u64::from(duration.subsec_nanos() > 0)
}

impl RateLimiter<DefaultClock> {
    /// A limiter on the system clock.
    #[must_use]
    pub fn new(config: RateLimitConfig) -> Self {
        Self::with_clock(config, DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    /// A limiter on `clock` (tests drive a fake one).
    #[must_use]
    pub fn with_clock(config: RateLimitConfig, clock: C) -> Self {
        let bucket = |per_minute: NonZeroU32| {
            let limiter = Gcra::dashmap_with_clock(Quota::per_minute(per_minute), clock.clone())
                .with_middleware::<StateInformationMiddleware>();
            (per_minute.get(), limiter)
        };
        Self {
            create: bucket(config.create_per_minute),
            infer: bucket(config.infer_per_minute),
            refresh: bucket(config.refresh_per_minute),
            default: bucket(config.default_per_minute),
            clock,
        }
    }

    fn bucket(&self, class: RateClass) -> &(u32, Bucket<C>) {
        match class {
            RateClass::Create => &self.create,
            RateClass::Infer => &self.infer,
            RateClass::Refresh => &self.refresh,
            RateClass::Default => &self.default,
        }
    }

    /// Requests per minute of `class`.
    #[must_use]
    pub fn per_minute(&self, class: RateClass) -> NonZeroU32 {
        NonZeroU32::new(self.bucket(class).0).unwrap_or(NonZeroU32::MIN)
    }

    /// Draws one request of `class` for `account`.
    pub fn check(&self, class: RateClass, account: AccountId) -> Decision {
        let (limit, bucket) = self.bucket(class);
        let per_request = Duration::from_secs(60) / *limit;
        match bucket.check_key(&account) {
            Ok(state) => {
                let remaining = state.remaining_burst_capacity();
                Decision {
                    allowed: true,
                    limit: *limit,
                    remaining,
                    reset_secs: ceil_secs(per_request * (*limit - remaining)),
                    retry_after_secs: 0,
                }
            }
            Err(not_until) => {
                let wait = not_until.wait_time_from(self.clock.now());
                Decision {
                    allowed: false,
                    limit: *limit,
                    remaining: 0,
                    reset_secs: ceil_secs(per_request * *limit),
                    retry_after_secs: ceil_secs(wait).max(1),
                }
            }
        }
    }
}

/// The `RateLimit-*` headers of `decision`.
fn headers(decision: Decision) -> [(HeaderName, HeaderValue); 3] {
    [
        (LIMIT.clone(), HeaderValue::from(decision.limit)),
        (REMAINING.clone(), HeaderValue::from(decision.remaining)),
        (RESET.clone(), HeaderValue::from(decision.reset_secs)),
    ]
}

const LIMIT: HeaderName = HeaderName::from_static("ratelimit-limit");
const REMAINING: HeaderName = HeaderName::from_static("ratelimit-remaining");
const RESET: HeaderName = HeaderName::from_static("ratelimit-reset");

/// The class of `request`'s route.
#[must_use]
pub fn class(request: &Request) -> RateClass {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("", MatchedPath::as_str);
    RateClass::of(request.method(), route)
}

/// Charges the caller's bucket of `class` (after authentication): in memory, or in the
/// database.
///
/// # Errors
/// 429 with `Retry-After` and the limit's headers when the bucket is empty; the database.
pub async fn charge(
    state: &AppState,
    class: RateClass,
    caller: Caller,
) -> Result<Decision, ApiError> {
    let decision = if state.shared_rate_limits {
        shared(state, class, caller.account_id).await?
    } else {
        state.limiter.check(class, caller.account_id)
    };
    if decision.allowed {
        Ok(decision)
    } else {
        Err(ApiError::rate_limited(
            decision.retry_after_secs,
            HeaderMap::from_iter(headers(decision)),
        ))
    }
}

/// Puts the limit's headers on an answer.
pub fn stamp(answer: &mut HeaderMap, decision: Decision) {
    for (name, value) in headers(decision) {
        answer.insert(name, value);
    }
}

/// Draws one request of `class` for `account` from its bucket in the database.
async fn shared(
    state: &AppState,
    class: RateClass,
    account: AccountId,
) -> Result<Decision, ApiError> {
    let per_minute = state.limiter.per_minute(class);
    let cell = tidemark_domain::rate::Cell::per_minute(per_minute);
    let key = format!("{account}:{}", class.as_str());
    let now = state.clock.now();
    let now_us = now.unix_micros();
    let secs = |micros: i64| ceil_secs(Duration::from_micros(u64::try_from(micros).unwrap_or(0)));
    Ok(match state.store.take_rate(&key, &cell, now).await? {
        Ok(tat) => Decision {
            allowed: true,
            limit: per_minute.get(),
            remaining: u32::try_from(cell.remaining(tat, now_us)).unwrap_or(0),
            reset_secs: secs(tat - now_us),
            retry_after_secs: 0,
        },
        Err(until) => Decision {
            allowed: false,
            limit: per_minute.get(),
            remaining: 0,
            reset_secs: secs(cell.interval_us * cell.burst),
            retry_after_secs: secs(until.unix_micros() - now_us).max(1),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;

    fn config(per_minute: u32) -> RateLimitConfig {
        let n = NonZeroU32::new(per_minute).expect("non-zero");
        RateLimitConfig {
            create_per_minute: n,
            infer_per_minute: n,
            refresh_per_minute: n,
            default_per_minute: n,
        }
    }

    #[test]
    fn a_bucket_empties_and_refills_with_the_clock() {
        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(config(2), clock.clone());
        let account = AccountId::new();
        let first = limiter.check(RateClass::Create, account);
        assert_eq!((first.allowed, first.remaining), (true, 1));
        assert!(limiter.check(RateClass::Create, account).allowed);
        let refused = limiter.check(RateClass::Create, account);
        assert!(!refused.allowed);
        assert_eq!(
            refused.retry_after_secs, 30,
            "one request per 30 s at 2/min"
        );

        clock.advance(Duration::from_secs(30));
        assert!(limiter.check(RateClass::Create, account).allowed);
        assert!(!limiter.check(RateClass::Create, account).allowed);
    }

    #[test]
    fn buckets_are_separate_per_account_and_class() {
        let limiter = RateLimiter::with_clock(config(1), FakeRelativeClock::default());
        let (a, b) = (AccountId::new(), AccountId::new());
        assert!(limiter.check(RateClass::Create, a).allowed);
        assert!(!limiter.check(RateClass::Create, a).allowed);
        assert!(limiter.check(RateClass::Create, b).allowed);
        assert!(limiter.check(RateClass::Default, a).allowed);
        assert!(limiter.check(RateClass::Infer, a).allowed);
    }

    #[test]
    fn routes_map_to_their_classes() {
        assert_eq!(
            RateClass::of(&Method::POST, "/v2/tracking_requests"),
            RateClass::Create
        );
        assert_eq!(
            RateClass::of(&Method::GET, "/v2/tracking_requests"),
            RateClass::Default
        );
        assert_eq!(
            RateClass::of(&Method::POST, "/v2/tracking_requests/infer_number"),
            RateClass::Infer
        );
        assert_eq!(
            RateClass::of(&Method::PATCH, "/v2/containers/{id}/refresh"),
            RateClass::Refresh
        );
    }
}
