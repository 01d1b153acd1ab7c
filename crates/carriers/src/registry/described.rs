//! What each `[carriers.endpoints.SCAC]` entry amounts to, told without building a
//! connector: its profile, DCSA version, authentication style, push or poll, and quota,
//! for the API's shipping lines and `tidemark carriers list`.

use std::collections::BTreeMap;

use tidemark_domain::quota::Quota;
use tidemark_domain::{LineEndpoint, Scac};

use super::endpoint::Resolved;
use super::{CarriersConfig, RegistryError};
use crate::auth::Auth;
use crate::profiles::{DcsaVersion, Profiles, Push, Quirk};

/// How `auth` authenticates, in words, without its secrets.
#[must_use]
pub fn auth_style(auth: &Auth) -> String {
    let names = |headers: &[(String, crate::Secret)]| {
        headers
            .iter()
            .map(|(name, _)| name.as_str())
            .collect::<Vec<_>>()
            .join(" + ")
    };
    match auth {
        Auth::None => "none".to_owned(),
        Auth::Header { name, .. } => format!("api_key {name}"),
        Auth::Headers(headers) => format!("headers {}", names(headers)),
        Auth::OAuth2 { headers, .. } if headers.is_empty() => "oauth2".to_owned(),
        Auth::OAuth2 { headers, .. } => format!("oauth2 + {}", names(headers)),
        Auth::TokenExchange { .. } => "token".to_owned(),
    }
}

/// The endpoint `resolved` from the entry naming `profile`, as told.
pub(super) fn line_endpoint(
    profile: Option<&str>,
    resolved: &Resolved,
    callbacks: bool,
) -> LineEndpoint {
    let settings = &resolved.settings;
    LineEndpoint {
        profile: profile.map(str::to_owned),
        dcsa_version: match resolved.version {
            DcsaVersion::V1_1 => "1.1.0",
            DcsaVersion::V3Beta => "3.0-beta",
            DcsaVersion::V2_2 | DcsaVersion::DcsaBased => "2.2",
        },
        auth_style: auth_style(&resolved.auth),
        push: callbacks && resolved.push == Push::Dcsa22,
        quota: Quota {
            per_second: settings.http.per_second,
            burst: settings.http.burst,
            per_day: settings.per_day,
        },
        asks_pairs: resolved.quirks.has(Quirk::BookingAndContainer),
    }
}

/// Every entry of `config` with its profile filled in: its key, SCAC and resolution.
///
/// # Errors
/// The first entry that does not resolve (a bad SCAC, profile or secret).
pub(super) fn resolve_all(
    config: &CarriersConfig,
) -> Result<Vec<(&str, Scac, Resolved)>, RegistryError> {
    let profiles = Profiles::bundled().map_err(|problem| RegistryError {
        entry: "data/carrier-profiles.toml".to_owned(),
        problem,
    })?;
    config
        .endpoints
        .iter()
        .map(|(key, endpoint)| {
            let error = |problem: String| entry_error(key, problem);
            let scac = Scac::parse(key).map_err(|_| error("not a SCAC".to_owned()))?;
            let resolved = endpoint
                .resolve(&profiles, &config.defaults)
                .map_err(error)?;
            Ok((key.as_str(), scac, resolved))
        })
        .collect()
}

/// A problem of the entry `[carriers.endpoints.KEY]`.
pub(super) fn entry_error(key: &str, problem: String) -> RegistryError {
    RegistryError {
        entry: format!("carriers.endpoints.{key}"),
        problem,
    }
}

/// Every entry of `config`, as told.
///
/// # Errors
/// The first entry that does not resolve (as the registry would refuse it).
pub fn describe(config: &CarriersConfig) -> Result<BTreeMap<Scac, LineEndpoint>, RegistryError> {
    Ok(resolve_all(config)?
        .into_iter()
        .map(|(key, scac, resolved)| {
            let profile = config.endpoints[key].profile.as_deref();
            let told = line_endpoint(profile, &resolved, config.callback_base_url.is_some());
            (scac, told)
        })
        .collect())
}
