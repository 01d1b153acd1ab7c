//! The generic cell rate algorithm (GCRA), the one home of its arithmetic: each request
//! moves a theoretical arrival time (TAT) on by one interval, and a request passes while
//! that time is at most the burst's tolerance ahead of now. Carriers' quotas
//! ([`crate::quota`]) and the API's per-account limits across processes keep their TAT in
//! the database, so every process keeps to one rate together.

use std::num::NonZeroU32;

const MICROS_PER_MINUTE: i64 = 60_000_000;

/// Microseconds between two requests at `per` requests a `span` of microseconds: at least
/// one, so a rate of more than one request a microsecond (an operator's way of saying
/// "unlimited") is one a microsecond, not a zero interval nothing can be divided by.
fn interval(span_us: i64, per: NonZeroU32) -> i64 {
    (span_us / i64::from(per.get())).max(1)
}

/// A rate and its burst.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// Microseconds between two requests at the sustained rate.
    pub interval_us: i64,
    /// Requests that may pass at once after a quiet spell.
    pub burst: i64,
}

impl Cell {
    /// `per_second` with a burst of `burst`.
    #[must_use]
    pub fn per_second(per_second: NonZeroU32, burst: NonZeroU32) -> Self {
        Self {
            interval_us: interval(1_000_000, per_second),
            burst: i64::from(burst.get()),
        }
    }

    /// `per_minute`, all of which may pass at once after a quiet minute.
    #[must_use]
    pub fn per_minute(per_minute: NonZeroU32) -> Self {
        Self {
            interval_us: interval(MICROS_PER_MINUTE, per_minute),
            burst: i64::from(per_minute.get()),
        }
    }

    /// How far ahead of now the TAT may be for a request to pass.
    #[must_use]
    pub const fn tolerance_us(&self) -> i64 {
        self.interval_us * (self.burst - 1)
    }

    /// The TAT after a request at `now_us` from `tat_us` (`None`: never used). The
    /// database's shared buckets apply this same step in one statement
    /// (`store/src/rate_limits.rs`), checked against it by the storage suite.
    ///
    /// # Errors
    /// When none may pass: from when one may (Unix microseconds).
    pub fn take(&self, tat_us: Option<i64>, now_us: i64) -> Result<i64, i64> {
        let tat = tat_us.unwrap_or(now_us).max(now_us);
        if tat - now_us > self.tolerance_us() {
            return Err(tat - self.tolerance_us());
        }
        Ok(tat + self.interval_us)
    }

    /// How many requests could pass at once at `now_us` with `tat_us`.
    #[must_use]
    pub fn remaining(&self, tat_us: i64, now_us: i64) -> i64 {
        let ahead = (tat_us - now_us).max(0);
        ((self.tolerance_us() - ahead) / self.interval_us + 1).clamp(0, self.burst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_beyond_one_a_microsecond_is_one_a_microsecond() {
        let huge = NonZeroU32::new(1_000_000_000).expect("rate");
        for cell in [Cell::per_minute(huge), Cell::per_second(huge, huge)] {
            assert_eq!(cell.interval_us, 1);
            let tat = cell.take(None, 1_000).expect("passes");
            assert!(cell.remaining(tat, 1_000) > 0);
            // A request whose clock read a little earlier, while another took its turn.
            assert!(cell.take(Some(tat), 990).is_ok());
        }
    }

    #[test]
    fn a_burst_passes_then_the_rate() {
        let cell = Cell::per_minute(NonZeroU32::new(6).expect("rate"));
        assert_eq!(cell.interval_us, 10_000_000);
        let mut tat = None;
        for passed in 0..6 {
            let next = cell.take(tat, 0).expect("within the burst");
            assert_eq!(cell.remaining(next, 0), 5 - passed);
            tat = Some(next);
        }
        let wait = cell.take(tat, 0).expect_err("the burst is spent");
        assert_eq!(wait, 10_000_000, "one interval on");
        assert!(cell.take(tat, wait).is_ok());
        assert_eq!(
            cell.remaining(0, 100_000_000),
            6,
            "full after a quiet spell"
        );
    }
}
