//! `[carriers.endpoints.SCAC]`: a carrier's endpoint, named by its profile and secrets, or
//! written out whole; whatever the entry gives wins over the profile. And the credentials
//! every endpoint (carrier, terminal, Arrival Notice publisher) may be written with.

use serde::{Deserialize, Serialize};

use super::ConnectionSettings;
use crate::Secret;
use crate::auth::{Auth, ExchangeFields};
use crate::dcsa::DEFAULT_EVENTS_PATH;
use crate::dcsa::Quirks;
use crate::profiles::{AuthStyle, DcsaVersion, Profile, Profiles, Push, Quirk};

/// How Tidemark authenticates at a carrier's endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AuthConfig {
    /// No credentials.
    #[default]
    None,
    /// A fixed header.
    Header {
        /// Header name, e.g. `API-Key` or `Consumer-Key`.
        name: String,
        /// Its value.
        value: Secret,
    },
    /// Several fixed headers: a client id and secret pair, say.
    Headers {
        /// The headers, each `{ name, value }`.
        headers: Vec<HeaderConfig>,
    },
    /// OAuth2 client credentials.
    Oauth2 {
        /// The token endpoint.
        token_url: String,
        /// `client_id`.
        client_id: String,
        /// `client_secret`.
        client_secret: Secret,
        /// `scope`, when required.
        #[serde(default)]
        scope: Option<String>,
        /// Headers sent with the token on every call, and on the token request (a
        /// `Consumer-Key`, a subscription key).
        #[serde(default)]
        headers: Vec<HeaderConfig>,
    },
    /// A client id and secret posted as JSON to a token URL for a bearer token.
    Token {
        /// The token endpoint.
        token_url: String,
        /// The client id.
        client_id: String,
        /// The client secret.
        client_secret: Secret,
        /// The client id's member in the request (`client_id`).
        #[serde(default)]
        id_field: Option<String>,
        /// The client secret's member in the request (`client_secret`).
        #[serde(default)]
        secret_field: Option<String>,
        /// The token's member in the answer (else the first of `access_token`, `token`,
        /// `jwt`, `id_token`).
        #[serde(default)]
        token_field: Option<String>,
    },
}

/// One header and its secret value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeaderConfig {
    /// Its name.
    pub name: String,
    /// Its value.
    pub value: Secret,
}

fn headers(list: Vec<HeaderConfig>) -> Vec<(String, Secret)> {
    list.into_iter().map(|h| (h.name, h.value)).collect()
}

impl From<AuthConfig> for Auth {
    fn from(value: AuthConfig) -> Self {
        match value {
            AuthConfig::None => Self::None,
            AuthConfig::Header { name, value } => Self::Header { name, value },
            AuthConfig::Headers { headers: list } => Self::Headers(headers(list)),
            AuthConfig::Oauth2 {
                token_url,
                client_id,
                client_secret,
                scope,
                headers: list,
            } => Self::OAuth2 {
                token_url,
                client_id,
                client_secret,
                scope,
                headers: headers(list),
            },
            AuthConfig::Token {
                token_url,
                client_id,
                client_secret,
                id_field,
                secret_field,
                token_field,
            } => Self::TokenExchange {
                token_url,
                client_id,
                client_secret,
                fields: ExchangeFields::named(id_field, secret_field, token_field),
            },
        }
    }
}

/// One carrier's endpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CarrierEndpoint {
    /// A profile of `data/carrier-profiles.toml` (`maersk`, `hapag-lloyd`, …): its base URL,
    /// events path and authentication style fill what this entry leaves out.
    #[serde(default)]
    pub profile: Option<String>,
    /// Base URL (a staging host, a simulator); the profile's when absent.
    #[serde(default)]
    pub base_url: Option<String>,
    /// The DCSA version, instead of the profile's (a carrier that upgraded).
    #[serde(default)]
    pub dcsa_version: Option<DcsaVersion>,
    /// The events resource under the base URL; the profile's, else `/v2/events`.
    #[serde(default)]
    pub events_path: Option<String>,
    /// The carrier's departures from the standard, instead of the profile's (`[]` for none).
    #[serde(default)]
    pub quirks: Option<Vec<Quirk>>,
    /// Whether the carrier pushes, instead of the profile's (`"dcsa_2_2"` for a carrier
    /// that offers DCSA 2.2 event subscriptions).
    #[serde(default)]
    pub push: Option<Push>,
    /// Credentials written out whole, instead of the profile's style and the secrets below.
    #[serde(default)]
    pub auth: Option<AuthConfig>,
    /// The token URL, instead of the profile's (a staging host, a simulator).
    #[serde(default)]
    pub token_url: Option<String>,
    /// The API key the profile's style sends (its key header).
    #[serde(default)]
    pub api_key: Option<Secret>,
    /// The client id the profile's style sends (a header, or OAuth2's `client_id`).
    #[serde(default)]
    pub client_id: Option<String>,
    /// The client secret the profile's style sends.
    #[serde(default)]
    pub client_secret: Option<Secret>,
    /// Limits and timeouts, when they differ from the section's `defaults`.
    #[serde(default)]
    pub settings: Option<ConnectionSettings>,
}

/// Where and how a carrier's events are asked.
#[derive(Debug, Clone)]
pub(super) struct Resolved {
    pub(super) base_url: String,
    pub(super) events_path: String,
    pub(super) auth: Auth,
    /// The version it speaks.
    pub(super) version: DcsaVersion,
    /// Its departures from the standard.
    pub(super) quirks: Quirks,
    /// Whether it pushes.
    pub(super) push: Push,
    /// The entry's own limits and timeouts, else the section's defaults held to the rate
    /// the profile says the carrier allows.
    pub(super) settings: ConnectionSettings,
}

impl CarrierEndpoint {
    /// This entry with its profile's fields filled in.
    ///
    /// # Errors
    /// An unknown profile, a carrier version the connector does not speak, or what the
    /// entry must still give (a base URL, a secret).
    pub(super) fn resolve(
        &self,
        profiles: &Profiles,
        defaults: &ConnectionSettings,
    ) -> Result<Resolved, String> {
        let profile = match &self.profile {
            Some(name) => Some(profiles.get(name).ok_or_else(|| {
                let known: Vec<&str> = profiles.iter().map(|(name, _)| name).collect();
                format!("no profile {name:?}; known: {}", known.join(", "))
            })?),
            None => None,
        };
        let version = self
            .dcsa_version
            .or_else(|| profile.map(|p| p.dcsa_version))
            .unwrap_or(DcsaVersion::V2_2);
        let quirks = self
            .quirks
            .clone()
            .or_else(|| profile.map(|p| p.quirks.clone()))
            .unwrap_or_default()
            .into_iter()
            .collect();
        let base_url = self
            .base_url
            .clone()
            .or_else(|| profile.and_then(|p| p.base_url.clone()))
            .ok_or(match profile {
                Some(_) => "the profile knows no base URL (see its unverified notes): set base_url",
                None => "set base_url, or name a profile",
            })?;
        let events_path = self
            .events_path
            .clone()
            .or_else(|| profile.map(|p| p.events_path.clone()))
            .unwrap_or_else(|| DEFAULT_EVENTS_PATH.to_owned());
        let auth = match (&self.auth, profile) {
            (Some(auth), _) => auth.clone().into(),
            (None, Some(profile)) => self.profile_auth(profile)?,
            (None, None) => Auth::None,
        };
        let settings = self.settings.clone().unwrap_or_else(|| {
            let mut settings = defaults.clone();
            if let Some(cap) = profile
                .and_then(|p| p.per_second)
                .and_then(std::num::NonZeroU32::new)
            {
                settings.http.per_second = settings.http.per_second.min(cap);
                settings.http.burst = settings.http.burst.min(cap);
            }
            if settings.per_day.is_none() {
                settings.per_day = profile
                    .and_then(|p| p.per_day)
                    .and_then(std::num::NonZeroU32::new);
            }
            settings
        });
        Ok(Resolved {
            base_url,
            events_path,
            auth,
            version,
            quirks,
            push: self
                .push
                .or_else(|| profile.map(|p| p.push))
                .unwrap_or(Push::None),
            settings,
        })
    }

    /// The credentials `profile`'s style makes of this entry's secrets.
    fn profile_auth(&self, profile: &Profile) -> Result<Auth, String> {
        let missing = |key: &str| format!("the profile's authentication needs {key}");
        let api_key = || self.api_key.clone().ok_or_else(|| missing("api_key"));
        let client_id = || self.client_id.clone().ok_or_else(|| missing("client_id"));
        let client_secret = || {
            self.client_secret
                .clone()
                .ok_or_else(|| missing("client_secret"))
        };
        let token_url = |url: &Option<String>| {
            self.token_url
                .clone()
                .or_else(|| url.clone())
                .ok_or_else(|| "the profile knows no token URL: set token_url".to_owned())
        };
        Ok(match &profile.auth {
            None => return Err("the profile knows no authentication: set auth".to_owned()),
            Some(AuthStyle::ApiKey { header }) => Auth::Header {
                name: header.clone(),
                value: api_key()?,
            },
            Some(AuthStyle::HeaderPair {
                id_header,
                secret_header,
            }) => Auth::Headers(vec![
                (id_header.clone(), Secret::new(client_id()?)),
                (secret_header.clone(), client_secret()?),
            ]),
            Some(AuthStyle::Oauth2 {
                token_url: url,
                scope,
            }) => Auth::OAuth2 {
                token_url: token_url(url)?,
                client_id: client_id()?,
                client_secret: client_secret()?,
                scope: scope.clone(),
                headers: Vec::new(),
            },
            Some(AuthStyle::Oauth2WithKey {
                token_url: url,
                key_header,
                scope,
            }) => {
                let id = client_id()?;
                // The key is the client id unless the carrier issued one of its own.
                let key = self
                    .api_key
                    .clone()
                    .unwrap_or_else(|| Secret::new(id.clone()));
                Auth::OAuth2 {
                    token_url: token_url(url)?,
                    client_id: id,
                    client_secret: client_secret()?,
                    scope: scope.clone(),
                    headers: vec![(key_header.clone(), key)],
                }
            }
            Some(AuthStyle::Token {
                token_url: url,
                id_field,
                secret_field,
                token_field,
            }) => Auth::TokenExchange {
                token_url: token_url(url)?,
                client_id: client_id()?,
                client_secret: client_secret()?,
                fields: ExchangeFields::named(
                    id_field.clone(),
                    secret_field.clone(),
                    token_field.clone(),
                ),
            },
        })
    }
}
