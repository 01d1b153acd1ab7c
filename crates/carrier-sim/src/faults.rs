//! Fault injection: rules that make a simulated carrier or terminal misbehave for one
//! carrier, one terminal, one reference, or everything, a given number of times or until
//! removed.

use serde::{Deserialize, Serialize};

/// How the carrier misbehaves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Fault {
    /// Answer with this 5xx status and a DCSA error body.
    ServerError {
        /// The status (500 to 599).
        #[serde(default = "default_server_status")]
        status: u16,
        /// Seconds in `Retry-After`, when given.
        #[serde(default)]
        retry_after_seconds: Option<u32>,
    },
    /// 429 with `Retry-After`.
    RateLimited {
        /// Seconds in `Retry-After`.
        retry_after_seconds: u32,
    },
    /// Answer normally after a delay (real time, not simulated).
    Slow {
        /// Milliseconds to wait.
        delay_ms: u64,
    },
    /// Never answer: the connection stays open until the client gives up.
    Timeout,
    /// 200 with a body that is not JSON.
    MalformedJson,
    /// 200 with a JSON body cut in the middle.
    TruncatedJson,
    /// 200 with events that break the DCSA schema (required fields missing).
    SchemaInvalid,
    /// 401, whatever key was sent.
    Unauthorized,
    /// 403: the carrier has the shipment but does not share it with this client.
    Forbidden,
    /// 400: the carrier refuses the reference's format.
    BadReference,
    /// An empty first page whose `Next-Page` leads to the real answer.
    EmptyPage,
    /// Every event sent twice.
    Duplicate,
    /// The latest actual event is withdrawn: it is missing from the answer.
    Retract,
    /// The answer padded to at least this many bytes with repeated events.
    Huge {
        /// Minimum body size.
        bytes: usize,
    },
}

const fn default_server_status() -> u16 {
    500
}

/// A fault and where it applies.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRule {
    /// Only for this carrier (any when absent).
    #[serde(default)]
    pub scac: Option<String>,
    /// For terminals, not carriers: this terminal's code, or `*` for every terminal.
    #[serde(default)]
    pub terminal: Option<String>,
    /// Only for this reference (any when absent).
    #[serde(default)]
    pub reference: Option<String>,
    /// What happens.
    #[serde(flatten)]
    pub fault: Fault,
    /// How many answers it affects; until removed when absent.
    #[serde(default)]
    pub times: Option<u32>,
}

/// Who answers: a carrier by its SCAC, or a terminal by its code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party<'a> {
    /// A carrier's events.
    Carrier(&'a str),
    /// A terminal's import availability.
    Terminal(&'a str),
}

impl FaultRule {
    fn applies(&self, party: Party<'_>, references: &[&str]) -> bool {
        let party = match (party, self.terminal.as_deref()) {
            (Party::Carrier(scac), None) => self
                .scac
                .as_deref()
                .is_none_or(|s| s.eq_ignore_ascii_case(scac)),
            (Party::Terminal(code), Some(terminal)) => {
                terminal == "*" || terminal.eq_ignore_ascii_case(code)
            }
            _ => false,
        };
        party
            && self
                .reference
                .as_deref()
                .is_none_or(|r| references.contains(&r))
            && self.times != Some(0)
    }
}

/// The active rules, with ids so admin calls can remove one.
#[derive(Debug, Default)]
pub struct Faults {
    rules: Vec<(u64, FaultRule)>,
    next_id: u64,
}

impl Faults {
    /// Adds a rule; returns its id.
    pub fn add(&mut self, rule: FaultRule) -> u64 {
        self.next_id += 1;
        self.rules.push((self.next_id, rule));
        self.next_id
    }

    /// Removes one rule; whether it existed.
    pub fn remove(&mut self, id: u64) -> bool {
        let before = self.rules.len();
        self.rules.retain(|(rule_id, _)| *rule_id != id);
        before != self.rules.len()
    }

    /// Removes every rule.
    pub fn clear(&mut self) {
        self.rules.clear();
    }

    /// Every rule with its id.
    #[must_use]
    pub fn list(&self) -> Vec<(u64, FaultRule)> {
        self.rules.clone()
    }

    /// The first rule applying to an answer of `party` about `references`, counted as used.
    pub fn take(&mut self, party: Party<'_>, references: &[&str]) -> Option<Fault> {
        let (_, rule) = self
            .rules
            .iter_mut()
            .find(|(_, rule)| rule.applies(party, references))?;
        if let Some(times) = rule.times.as_mut() {
            *times -= 1;
        }
        let fault = rule.fault.clone();
        self.rules.retain(|(_, rule)| rule.times != Some(0));
        Some(fault)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_apply_by_scope_and_count_down() {
        let mut faults = Faults::default();
        faults.add(FaultRule {
            terminal: None,
            scac: Some("MAEU".into()),
            reference: None,
            fault: Fault::Timeout,
            times: Some(2),
        });
        let id = faults.add(FaultRule {
            terminal: None,
            scac: None,
            reference: Some("X1".into()),
            fault: Fault::Unauthorized,
            times: None,
        });
        assert_eq!(faults.take(Party::Carrier("MSCU"), &["X2"]), None);
        assert_eq!(
            faults.take(Party::Carrier("maeu"), &["X2"]),
            Some(Fault::Timeout)
        );
        assert_eq!(
            faults.take(Party::Carrier("MAEU"), &["X1"]),
            Some(Fault::Timeout)
        );
        assert_eq!(
            faults.take(Party::Carrier("MAEU"), &["X1"]),
            Some(Fault::Unauthorized),
            "the first is used up"
        );
        assert_eq!(faults.list().len(), 1);
        assert!(faults.remove(id));
        assert_eq!(faults.take(Party::Carrier("MAEU"), &["X1"]), None);
    }

    #[test]
    fn rules_read_from_json_and_toml() {
        let rule: FaultRule = serde_json::from_str(
            r#"{"scac":"MSCU","kind":"rate_limited","retry_after_seconds":3,"times":1}"#,
        )
        .expect("JSON");
        assert_eq!(
            rule.fault,
            Fault::RateLimited {
                retry_after_seconds: 3
            }
        );
        let rule: FaultRule = toml::from_str("kind = \"server_error\"").expect("TOML");
        assert_eq!(
            rule.fault,
            Fault::ServerError {
                status: 500,
                retry_after_seconds: None
            }
        );
    }
}
