//! Settings renamed when they became human durations (`retry_first = "90s"`): the old
//! keys, numbers in the unit their name says (`retry_first_secs = 90`,
//! `stop_after_arrival_days = 56`, `poll_ms = 250`), are still read from the file and the
//! environment, rewritten to the new key before the settings are parsed. Where both are
//! given, the old key wins (the new one may be a default).

use figment::value::{Dict, Map, Value};
use figment::{Error, Metadata, Profile, Provider};

/// Keys that became durations: the old key ends in the unit of its numbers (`_secs`,
/// `_days`, `_ms`), the new key is the old one without it (`tracking.retry_first_secs` →
/// `tracking.retry_first`). Keys are dotted paths; `*` stands for every entry of a table
/// (each carrier endpoint).
const UNIT_DROPPED: &[&str] = &[
    "shutdown_grace_secs",
    "limits.header_timeout_secs",
    "limits.body_idle_timeout_secs",
    "tracking.retry_first_secs",
    "tracking.retry_max_secs",
    "tracking.manifest_recheck_secs",
    "tracking.manifest_expiry_secs",
    "tracking.refresh_secs",
    "tracking.refresh_at_sea_secs",
    "tracking.refresh_near_secs",
    "tracking.near_window_secs",
    "tracking.stop_after_arrival_days",
    "tracking.stop_without_updates_days",
    "webhooks.timeout_secs",
    "webhooks.lease_secs",
    "webhooks.disable_after_days",
    "carriers.defaults.connect_timeout_secs",
    "carriers.defaults.timeout_secs",
    "carriers.endpoints.*.settings.connect_timeout_secs",
    "carriers.endpoints.*.settings.timeout_secs",
    "sandbox.connection.connect_timeout_secs",
    "sandbox.connection.timeout_secs",
];

/// Keys that moved to another table (old key, new key); an old key's unit is its suffix,
/// as above.
const MOVED: &[(&str, &str)] = &[
    ("tracking.workers", "tracker.workers"),
    ("tracking.lease_secs", "tracker.lease"),
    ("tracking.poll_ms", "tracker.poll"),
    ("webhooks.workers", "dispatcher.workers"),
    ("webhooks.poll_ms", "dispatcher.poll"),
    ("webhooks.source_ips", "webhook_source_ips"),
];

/// The suffixes of the old keys and the units they name.
const UNITS: &[(&str, &str)] = &[("_secs", "s"), ("_days", "days"), ("_ms", "ms")];

/// `key` without its unit suffix, and the unit; `None` for a key without one.
fn unit_of(key: &str) -> Option<(&str, &str)> {
    UNITS
        .iter()
        .find_map(|(suffix, unit)| key.strip_suffix(suffix).map(|bare| (bare, *unit)))
}

/// Every renamed key: (old key, new key, the unit of the old key's numbers, or none).
fn renamed() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    let dropped = UNIT_DROPPED
        .iter()
        .filter_map(|old| unit_of(old).map(|(new, unit)| (*old, new, unit)));
    let moved = MOVED
        .iter()
        .map(|(old, new)| (*old, *new, unit_of(old).map_or("", |(_, unit)| unit)));
    dropped.chain(moved)
}

/// A provider whose renamed keys are read under their new names.
pub struct Legacy<P>(pub P);

impl<P: Provider> Provider for Legacy<P> {
    fn metadata(&self) -> Metadata {
        self.0.metadata()
    }

    fn data(&self) -> Result<Map<Profile, Dict>, Error> {
        let mut data = self.0.data()?;
        for dict in data.values_mut() {
            upgrade(dict);
        }
        Ok(data)
    }
}

/// Rewrites the renamed keys of `dict`; a number becomes a duration in the old unit, any
/// other value is kept for the new key's parser to refuse.
fn upgrade(dict: &mut Dict) {
    for (old, new, unit) in renamed() {
        let (old_table, old_key) = split(old);
        let (new_table, new_key) = split(new);
        if old_table == new_table {
            each_table(dict, &old_table, &mut |table| {
                if let Some(value) = table.remove(old_key) {
                    table.insert(new_key.to_owned(), in_unit(value, unit));
                }
            });
            continue;
        }
        let mut moved = None;
        each_table(dict, &old_table, &mut |table| {
            moved = moved.take().or_else(|| table.remove(old_key));
        });
        if let Some(value) = moved {
            insert(dict, &new_table, new_key, in_unit(value, unit));
        }
    }
}

/// A dotted key's table path and its own name.
fn split(key: &str) -> (Vec<&str>, &str) {
    let mut path: Vec<&str> = key.split('.').collect();
    let name = path.pop().unwrap_or_default();
    (path, name)
}

/// `value` as a duration in `unit` when it is a number and the key had a unit.
fn in_unit(value: Value, unit: &str) -> Value {
    let number = value
        .to_u128()
        .or_else(|| value.to_i128().and_then(|n| u128::try_from(n).ok()));
    match number {
        Some(number) if !unit.is_empty() => Value::String(value.tag(), format!("{number}{unit}")),
        _ => value,
    }
}

/// Calls `f` on each table at `path` that exists.
fn each_table(dict: &mut Dict, path: &[&str], f: &mut dyn FnMut(&mut Dict)) {
    match path.split_first() {
        None => f(dict),
        Some((&"*", rest)) => {
            for value in dict.values_mut() {
                if let Value::Dict(_, table) = value {
                    each_table(table, rest, f);
                }
            }
        }
        Some((segment, rest)) => {
            if let Some(Value::Dict(_, table)) = dict.get_mut(*segment) {
                each_table(table, rest, f);
            }
        }
    }
}

/// Sets `key` to `value` in the table at `path`, making the tables on the way.
fn insert(dict: &mut Dict, path: &[&str], key: &str, value: Value) {
    match path.split_first() {
        None => {
            dict.insert(key.to_owned(), value);
        }
        Some((segment, rest)) => {
            let tag = value.tag();
            let table = dict
                .entry((*segment).to_owned())
                .or_insert_with(|| Value::Dict(tag, Dict::new()));
            if let Value::Dict(_, table) = table {
                insert(table, rest, key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use figment::providers::{Format, Toml};

    use super::*;

    #[test]
    fn old_keys_become_durations_under_their_new_names() {
        let provider = Legacy(Toml::string(
            "[tracking]\nretry_first_secs = 90\nstop_after_arrival_days = 56\npoll_ms = 250\n\
             workers = 8\nretry_max = \"2h\"\nmax_retries = 3\n[webhooks]\ntimeout_secs = 15\n",
        ));
        let data = provider.data().expect("parses");
        let dict = data.values().next().expect("a profile");
        let tracking = dict["tracking"].as_dict().expect("a section");
        let text = |key: &str| tracking[key].as_str().map(str::to_owned);
        assert_eq!(text("retry_first").as_deref(), Some("90s"));
        assert_eq!(text("stop_after_arrival").as_deref(), Some("56days"));
        let tracker = dict["tracker"].as_dict().expect("moved keys");
        assert_eq!(tracker["poll"].as_str(), Some("250ms"));
        assert_eq!(tracker["workers"].to_i128(), Some(8));
        assert!(!tracking.contains_key("poll_ms") && !tracking.contains_key("workers"));
        assert_eq!(text("retry_max").as_deref(), Some("2h"));
        assert!(!tracking.contains_key("retry_first_secs"));
        assert_eq!(tracking["max_retries"].to_i128(), Some(3));
        let webhooks = dict["webhooks"].as_dict().expect("a section");
        assert_eq!(webhooks["timeout"].as_str(), Some("15s"));
    }

    #[test]
    fn every_key_that_became_a_duration_names_its_unit() {
        for old in UNIT_DROPPED {
            assert!(unit_of(old).is_some(), "{old} ends in no unit");
        }
        assert_eq!(renamed().count(), UNIT_DROPPED.len() + MOVED.len());
        assert!(renamed().any(|key| key == ("tracking.poll_ms", "tracker.poll", "ms")));
        assert!(renamed().any(|key| key == ("webhooks.workers", "dispatcher.workers", "")));
    }

    #[test]
    fn nested_and_top_level_keys_are_renamed_in_every_table() {
        let provider = Legacy(Toml::string(
            "shutdown_grace_secs = 5
[carriers.defaults]
timeout_secs = 30
             [carriers.endpoints.MAEU.settings]
connect_timeout_secs = 4
             [carriers.endpoints.HLCU.settings]
timeout_secs = 9
",
        ));
        let data = provider.data().expect("parses");
        let dict = data.values().next().expect("a profile");
        assert_eq!(dict["shutdown_grace"].as_str(), Some("5s"));
        let carriers = dict["carriers"].as_dict().expect("carriers");
        let defaults = carriers["defaults"].as_dict().expect("defaults");
        assert_eq!(defaults["timeout"].as_str(), Some("30s"));
        let endpoints = carriers["endpoints"].as_dict().expect("endpoints");
        let settings = |scac: &str| {
            endpoints[scac].as_dict().expect("endpoint")["settings"]
                .as_dict()
                .expect("settings")
                .clone()
        };
        assert_eq!(settings("MAEU")["connect_timeout"].as_str(), Some("4s"));
        assert_eq!(settings("HLCU")["timeout"].as_str(), Some("9s"));
        assert!(!settings("HLCU").contains_key("timeout_secs"));
    }
}
