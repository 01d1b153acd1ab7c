//! Settings renamed when they became human durations (`retry_first = "90s"`): the old
//! keys, numbers in the unit their name says (`retry_first_secs = 90`,
//! `stop_after_arrival_days = 56`, `poll_ms = 250`), are still read from the file and the
//! environment, rewritten to the new key before the settings are parsed. Where both are
//! given, the old key wins (the new one may be a default).

use figment::value::{Dict, Map, Value};
use figment::{Error, Metadata, Profile, Provider};

/// (section, old key, new section (empty: the top level), new key, unit of the old key's
/// numbers: none for a key that only moved).
const RENAMED: &[(&str, &str, &str, &str, &str)] = &[
    (
        "tracking",
        "retry_first_secs",
        "tracking",
        "retry_first",
        "s",
    ),
    ("tracking", "retry_max_secs", "tracking", "retry_max", "s"),
    (
        "tracking",
        "manifest_recheck_secs",
        "tracking",
        "manifest_recheck",
        "s",
    ),
    (
        "tracking",
        "manifest_expiry_secs",
        "tracking",
        "manifest_expiry",
        "s",
    ),
    ("tracking", "refresh_secs", "tracking", "refresh", "s"),
    (
        "tracking",
        "refresh_at_sea_secs",
        "tracking",
        "refresh_at_sea",
        "s",
    ),
    (
        "tracking",
        "refresh_near_secs",
        "tracking",
        "refresh_near",
        "s",
    ),
    (
        "tracking",
        "near_window_secs",
        "tracking",
        "near_window",
        "s",
    ),
    (
        "tracking",
        "stop_after_arrival_days",
        "tracking",
        "stop_after_arrival",
        "days",
    ),
    (
        "tracking",
        "stop_without_updates_days",
        "tracking",
        "stop_without_updates",
        "days",
    ),
    ("tracking", "workers", "tracker", "workers", ""),
    ("tracking", "lease_secs", "tracker", "lease", "s"),
    ("tracking", "poll_ms", "tracker", "poll", "ms"),
    ("webhooks", "timeout_secs", "webhooks", "timeout", "s"),
    ("webhooks", "lease_secs", "webhooks", "lease", "s"),
    (
        "webhooks",
        "disable_after_days",
        "webhooks",
        "disable_after",
        "days",
    ),
    ("webhooks", "workers", "dispatcher", "workers", ""),
    ("webhooks", "poll_ms", "dispatcher", "poll", "ms"),
    ("webhooks", "source_ips", "", "webhook_source_ips", ""),
];

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
    for (section, old, new_section, new, unit) in RENAMED {
        let Some(Value::Dict(_, table)) = dict.get_mut(*section) else {
            continue;
        };
        let Some(value) = table.remove(*old) else {
            continue;
        };
        let number = value
            .to_u128()
            .or_else(|| value.to_i128().and_then(|n| u128::try_from(n).ok()));
        let value = match number {
            Some(number) if !unit.is_empty() => {
                Value::String(value.tag(), format!("{number}{unit}"))
            }
            _ => value,
        };
        if new_section.is_empty() {
            dict.insert((*new).to_owned(), value);
            continue;
        }
        let tag = value.tag();
        let target = dict
            .entry((*new_section).to_owned())
            .or_insert_with(|| Value::Dict(tag, Dict::new()));
        if let Value::Dict(_, table) = target {
            table.insert((*new).to_owned(), value);
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
}
