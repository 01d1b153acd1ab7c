//! A carrier's quota, shared by every process asking it: a rate with a burst (the generic
//! cell rate algorithm: each call moves a theoretical arrival time on by one interval, and a
//! call is let through while that time is at most the burst's tolerance ahead of now) and a
//! number of calls per UTC day. The state lives in the database (`carrier_quotas`), so N
//! trackers together never ask faster than one may; this module holds the arithmetic.

use std::num::NonZeroU32;

use crate::Timestamp;
use crate::rate::Cell;

const MICROS_PER_SECOND: i64 = 1_000_000;
const MICROS_PER_DAY: i64 = 86_400 * MICROS_PER_SECOND;

/// How many turns of the rate a held-back lookup's retry is spread over.
pub const SPREAD_TURNS: i64 = 30;

/// What a carrier allows all of Tidemark's processes together.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// Sustained calls per second.
    pub per_second: NonZeroU32,
    /// Calls at once after a quiet spell.
    pub burst: NonZeroU32,
    /// Calls per UTC day, when limited.
    pub per_day: Option<NonZeroU32>,
}

/// A quota's state: the theoretical arrival time, and the day's calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuotaState {
    /// The theoretical arrival time, in Unix microseconds.
    pub tat_us: i64,
    /// The UTC day of `used` (days since the Unix epoch).
    pub day: i64,
    /// Calls made that day.
    pub used: i64,
}

impl Quota {
    /// The rate and its burst ([`crate::rate`]).
    #[must_use]
    pub fn cell(&self) -> Cell {
        Cell::per_second(self.per_second, self.burst)
    }

    /// Microseconds between two calls at the sustained rate.
    #[must_use]
    pub fn interval_us(&self) -> i64 {
        self.cell().interval_us
    }

    /// The day's most calls (`i64::MAX` when unlimited).
    #[must_use]
    pub fn daily(&self) -> i64 {
        self.per_day.map_or(i64::MAX, |n| i64::from(n.get()))
    }

    /// The UTC day of `at`.
    #[must_use]
    pub fn day_of(at: Timestamp) -> i64 {
        at.unix_micros().div_euclid(MICROS_PER_DAY)
    }

    /// When a lookup held back at `until` is tried again: `until`, plus a share (by
    /// `salt`) of the time the next [`SPREAD_TURNS`] calls take (at least a second), so
    /// a backlog spreads over the turns to come instead of rushing each one at once.
    #[must_use]
    pub fn retry_at(&self, until: Timestamp, salt: u64) -> Timestamp {
        let spread = (self.interval_us() * SPREAD_TURNS).max(MICROS_PER_SECOND);
        let share = salt % u64::try_from(spread).unwrap_or(1);
        until + std::time::Duration::from_micros(share)
    }

    /// Whether a call may go at `now` from `state`, and the state after it.
    ///
    /// # Errors
    /// When none may: until when (the rate's next turn, or the next UTC day).
    pub fn take(&self, state: Option<QuotaState>, now: Timestamp) -> Result<QuotaState, Timestamp> {
        let now_us = now.unix_micros();
        let today = Self::day_of(now);
        let Some(state) = state else {
            return Ok(QuotaState {
                tat_us: now_us + self.interval_us(),
                day: today,
                used: 1,
            });
        };
        let used = if state.day == today { state.used } else { 0 };
        if used >= self.daily() {
            return Err(Timestamp::from_unix_micros((today + 1) * MICROS_PER_DAY).unwrap_or(now));
        }
        let tat_us = self
            .cell()
            .take(Some(state.tat_us), now_us)
            .map_err(|until| Timestamp::from_unix_micros(until).unwrap_or(now))?;
        Ok(QuotaState {
            tat_us,
            day: today,
            used: used + 1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quota(per_second: u32, burst: u32, per_day: Option<u32>) -> Quota {
        Quota {
            per_second: NonZeroU32::new(per_second).expect("rate"),
            burst: NonZeroU32::new(burst).expect("burst"),
            per_day: per_day.and_then(NonZeroU32::new),
        }
    }

    fn at(micros: i64) -> Timestamp {
        Timestamp::from_unix_micros(20_000 * MICROS_PER_DAY + micros).expect("time")
    }

    #[test]
    fn a_burst_then_the_rate() {
        let quota = quota(4, 3, None);
        let mut state = None;
        for _ in 0..3 {
            state = Some(quota.take(state, at(0)).expect("within the burst"));
        }
        let wait = quota.take(state, at(0)).expect_err("the burst is spent");
        assert_eq!(wait, at(250_000), "the next call a quarter of a second on");
        assert!(quota.take(state, at(250_000)).is_ok());
        // Over any long stretch: the rate, plus the burst once.
        let mut state = None;
        let mut calls = 0;
        let mut now = 0;
        while now < 10 * MICROS_PER_SECOND {
            match quota.take(state, at(now)) {
                Ok(next) => {
                    state = Some(next);
                    calls += 1;
                }
                Err(until) => now = until.unix_micros() - 20_000 * MICROS_PER_DAY,
            }
        }
        assert!((40..=43).contains(&calls), "{calls}");
    }

    #[test]
    fn held_back_lookups_spread_over_the_turns_to_come() {
        let quota = quota(5, 5, None);
        let until = at(0);
        let times: Vec<Timestamp> = (0..100u64)
            .map(|salt| quota.retry_at(until, salt * 60_013))
            .collect();
        assert!(
            times
                .iter()
                .all(|t| *t >= until && *t < at(6 * MICROS_PER_SECOND))
        );
        let distinct: std::collections::BTreeSet<_> = times.iter().collect();
        assert!(distinct.len() > 90, "spread, not bunched");
    }

    #[test]
    fn a_spent_day_waits_for_the_next() {
        let quota = quota(1000, 1000, Some(2));
        let mut state = Some(quota.take(None, at(0)).expect("first"));
        state = Some(quota.take(state, at(1)).expect("second"));
        let wait = quota.take(state, at(2)).expect_err("the day is spent");
        assert_eq!(wait, at(MICROS_PER_DAY));
        assert!(quota.take(state, at(MICROS_PER_DAY)).is_ok(), "a new day");
    }
}
