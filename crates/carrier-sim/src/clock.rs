//! The simulator's clock: real time, accelerated time, or time that moves only when an
//! admin call steps it. Every event's visibility is decided against this clock.

use std::sync::Mutex;
use std::time::Instant;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// How simulated time moves.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "mode")]
pub enum ClockMode {
    /// Simulated time runs `factor` times as fast as real time (1 is real time).
    Running {
        /// Simulated seconds per real second.
        factor: f64,
    },
    /// Simulated time stands still until it is advanced or set.
    Stepped,
}

#[derive(Debug)]
struct State {
    mode: ClockMode,
    /// Simulated time at `since`.
    base: OffsetDateTime,
    since: Instant,
}

/// A clock shared by every request of one simulator.
#[derive(Debug)]
pub struct SimClock {
    state: Mutex<State>,
}

impl SimClock {
    /// A clock reading `start` now, moving by `mode`.
    #[must_use]
    pub fn new(start: OffsetDateTime, mode: ClockMode) -> Self {
        Self {
            state: Mutex::new(State {
                mode,
                base: start,
                since: Instant::now(),
            }),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn read(state: &State) -> OffsetDateTime {
        match state.mode {
            ClockMode::Stepped => state.base,
            ClockMode::Running { factor } => {
                let real = state.since.elapsed().as_secs_f64() * factor.max(0.0);
                state.base + time::Duration::seconds_f64(real)
            }
        }
    }

    /// Simulated now.
    #[must_use]
    pub fn now(&self) -> OffsetDateTime {
        Self::read(&self.lock())
    }

    /// The current mode.
    #[must_use]
    pub fn mode(&self) -> ClockMode {
        self.lock().mode
    }

    /// Moves simulated time forward by `by` (any mode); returns the new now.
    pub fn advance(&self, by: time::Duration) -> OffsetDateTime {
        let mut state = self.lock();
        let now = Self::read(&state) + by.max(time::Duration::ZERO);
        state.base = now;
        state.since = Instant::now();
        now
    }

    /// Sets simulated now (time may go back: a test may replay a voyage).
    pub fn set(&self, now: OffsetDateTime) {
        let mut state = self.lock();
        state.base = now;
        state.since = Instant::now();
    }

    /// Switches how time moves from now on, keeping the current reading.
    pub fn set_mode(&self, mode: ClockMode) {
        let mut state = self.lock();
        state.base = Self::read(&state);
        state.since = Instant::now();
        state.mode = mode;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn a_stepped_clock_moves_only_when_told() {
        let clock = SimClock::new(datetime!(2026-01-01 0:00 UTC), ClockMode::Stepped);
        assert_eq!(clock.now(), datetime!(2026-01-01 0:00 UTC));
        assert_eq!(
            clock.advance(time::Duration::hours(36)),
            datetime!(2026-01-02 12:00 UTC)
        );
        clock.advance(time::Duration::hours(-5));
        assert_eq!(
            clock.now(),
            datetime!(2026-01-02 12:00 UTC),
            "never backwards by advance"
        );
        clock.set(datetime!(2025-12-31 0:00 UTC));
        assert_eq!(clock.now(), datetime!(2025-12-31 0:00 UTC));
    }

    #[test]
    fn switching_modes_keeps_the_reading() {
        let clock = SimClock::new(
            datetime!(2026-01-01 0:00 UTC),
            ClockMode::Running { factor: 1.0 },
        );
        clock.set_mode(ClockMode::Stepped);
        let frozen = clock.now();
        assert!(frozen >= datetime!(2026-01-01 0:00 UTC));
        assert_eq!(clock.now(), frozen);
        assert_eq!(clock.mode(), ClockMode::Stepped);
    }
}
