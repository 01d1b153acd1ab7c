//! Subscriptions to a terminal's answers: the subscriber names its boxes, a callback URL
//! and a token; the terminal pushes its answers of those boxes there when asked
//! (`POST /admin/terminal-pushes`), until the subscription ends.

use std::collections::BTreeMap;

use time::{Duration, OffsetDateTime};

/// How long a subscription lasts.
pub const LASTS: Duration = Duration::days(30);

/// Most boxes subscribed to at once; beyond, a subscription is refused.
pub const CAP: usize = 200_000;

/// Where and how a terminal pushes.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Target {
    /// The terminal.
    pub code: String,
    /// The subscriber's URL.
    pub url: String,
    /// Its bearer token.
    pub token: String,
}

/// The boxes subscribed to, by terminal and number.
#[derive(Debug, Default)]
pub struct Subscriptions {
    boxes: BTreeMap<(String, String), (Target, OffsetDateTime)>,
}

impl Subscriptions {
    /// Subscribes `target` to `numbers` at its terminal from `now`; until when, or `None`
    /// when the terminal takes no more.
    pub fn subscribe(
        &mut self,
        target: &Target,
        numbers: &[String],
        now: OffsetDateTime,
    ) -> Option<OffsetDateTime> {
        self.boxes.retain(|_, (_, until)| *until > now);
        if self.boxes.len() + numbers.len() > CAP {
            return None;
        }
        let until = now + LASTS;
        for number in numbers {
            self.boxes.insert(
                (target.code.clone(), number.clone()),
                (target.clone(), until),
            );
        }
        Some(until)
    }

    /// The live subscriptions at `now`, grouped by where they push.
    #[must_use]
    pub fn targets(&self, now: OffsetDateTime) -> BTreeMap<Target, Vec<String>> {
        let mut targets: BTreeMap<Target, Vec<String>> = BTreeMap::new();
        for ((_, number), (target, until)) in &self.boxes {
            if *until > now {
                targets
                    .entry(target.clone())
                    .or_default()
                    .push(number.clone());
            }
        }
        targets
    }
}
