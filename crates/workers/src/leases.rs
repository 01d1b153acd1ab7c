//! The leases a worker holds right now, so they can be renewed together while the work is
//! in hand: short leases that live as long as the process that holds them does.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use uuid::Uuid;

/// How often held leases are renewed: three times a lease, so one late renewal does not
/// lose them.
#[must_use]
pub fn renewal_interval(lease: Duration) -> Duration {
    (lease / 3).max(Duration::from_millis(50))
}

/// Lease tokens in hand, each counted once per unit of work claimed under it.
#[derive(Debug, Default)]
pub struct Held(Mutex<HashMap<Uuid, usize>>);

impl Held {
    fn tokens(&self) -> std::sync::MutexGuard<'_, HashMap<Uuid, usize>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Counts one unit of work claimed under `token`.
    pub fn add(&self, token: Uuid) {
        *self.tokens().entry(token).or_default() += 1;
    }

    /// That unit of work is done (or given up): its lease needs no more renewal.
    pub fn remove(&self, token: Uuid) {
        let mut tokens = self.tokens();
        if let Some(count) = tokens.get_mut(&token) {
            *count -= 1;
            if *count == 0 {
                tokens.remove(&token);
            }
        }
    }

    /// The tokens to renew.
    #[must_use]
    pub fn all(&self) -> Vec<Uuid> {
        self.tokens().keys().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_held_until_its_last_unit_of_work_ends() {
        let held = Held::default();
        let (a, b) = (Uuid::now_v7(), Uuid::now_v7());
        held.add(a);
        held.add(a);
        held.add(b);
        held.remove(a);
        let mut all = held.all();
        all.sort();
        let mut expected = vec![a, b];
        expected.sort();
        assert_eq!(all, expected);
        held.remove(a);
        held.remove(b);
        held.remove(b);
        assert!(held.all().is_empty());
        assert_eq!(
            renewal_interval(Duration::from_secs(6)),
            Duration::from_secs(2)
        );
    }
}
