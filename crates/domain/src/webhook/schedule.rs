//! When a failed delivery is tried again.

use std::time::Duration;

/// The waits between attempts: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (eight attempts
/// over about a day), each moved by up to ±`jitter` so receivers that failed together do
/// not get their retries together.
#[derive(Debug, Clone, PartialEq)]
pub struct RetrySchedule {
    /// The wait after each failed attempt, in order.
    pub waits: Vec<Duration>,
    /// The largest relative move of a wait (0.2 is ±20 %).
    pub jitter: f64,
}

impl Default for RetrySchedule {
    fn default() -> Self {
        Self {
            waits: [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]
                .into_iter()
                .map(Duration::from_secs)
                .collect(),
            jitter: 0.2,
        }
    }
}

impl RetrySchedule {
    /// The wait after failed attempt number `attempt` (from 1), or `None` when that was the
    /// last. `spread` in [-1, 1] picks where in the jitter band the wait falls (random in
    /// production, fixed in tests). A `Retry-After` from the receiver is honoured within
    /// [scheduled, 2 × scheduled], so a receiver can slow us down but not stall a
    /// notification or hurry it.
    #[must_use]
    pub fn wait(
        &self,
        attempt: u32,
        spread: f64,
        retry_after: Option<Duration>,
    ) -> Option<Duration> {
        let index = usize::try_from(attempt.checked_sub(1)?).ok()?;
        let scheduled = *self.waits.get(index)?;
        let factor = 1.0 + self.jitter * spread.clamp(-1.0, 1.0);
        let jittered = scheduled.mul_f64(factor.max(0.0));
        Some(match retry_after {
            Some(asked) => asked.clamp(scheduled, scheduled * 2),
            None => jittered,
        })
    }

    /// How many attempts a notification gets in all.
    #[must_use]
    pub fn attempts(&self) -> usize {
        self.waits.len() + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_follow_the_schedule_within_the_jitter_band() {
        let schedule = RetrySchedule::default();
        assert_eq!(schedule.attempts(), 8);
        assert_eq!(schedule.wait(1, 0.0, None), Some(Duration::from_secs(5)));
        assert_eq!(schedule.wait(2, 1.0, None), Some(Duration::from_secs(360)));
        assert_eq!(
            schedule.wait(3, -1.0, None),
            Some(Duration::from_secs(1_440))
        );
        assert_eq!(
            schedule.wait(7, 0.0, None),
            Some(Duration::from_secs(36_000))
        );
        assert_eq!(
            schedule.wait(8, 0.0, None),
            None,
            "eight attempts, then done"
        );
        assert_eq!(schedule.wait(0, 0.0, None), None);
        // Out-of-band spreads are clamped.
        assert_eq!(schedule.wait(1, 9.0, None), Some(Duration::from_secs(6)));
    }

    #[test]
    fn retry_after_is_honoured_within_bounds() {
        let schedule = RetrySchedule::default();
        let minute = Duration::from_secs(60);
        // Attempt 2 is scheduled 5 min later: asking for 7 min is granted, 1 min is
        // raised to 5, a day is cut to 10.
        assert_eq!(schedule.wait(2, 0.0, Some(7 * minute)), Some(7 * minute));
        assert_eq!(schedule.wait(2, 0.0, Some(minute)), Some(5 * minute));
        assert_eq!(
            schedule.wait(2, 0.0, Some(Duration::from_secs(86_400))),
            Some(10 * minute)
        );
        assert_eq!(schedule.wait(8, 0.0, Some(minute)), None);
    }
}
