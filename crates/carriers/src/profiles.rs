//! Carrier profiles: how each shipping line's Track & Trace API is reached, kept as data
//! (`data/carrier-profiles.toml`, bundled) and validated when Tidemark starts: base URL,
//! DCSA version, authentication style, the filter combinations it takes, paging, push,
//! quotas and quirks, with what is uncertain said and sourced.

use std::collections::{BTreeMap, BTreeSet};

use serde::Deserialize;
use tidemark_domain::Scac;

/// The profiles shipped with Tidemark.
pub const BUNDLED: &str = include_str!("../../../data/carrier-profiles.toml");

/// The query parameters a lookup may name, across the DCSA versions the profiles speak.
const FILTERS: [&str; 5] = [
    "equipmentReference",
    "transportDocumentReference",
    "carrierBookingReference",
    "billOfLadingNumber",
    "bookingReference",
];

/// Which DCSA Track & Trace a carrier speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, Deserialize)]
pub enum DcsaVersion {
    /// 1.1.0 (older parameter names).
    #[serde(rename = "1.1.0")]
    V1_1,
    /// 2.2.
    #[serde(rename = "2.2")]
    V2_2,
    /// The 3.0 beta.
    #[serde(rename = "3.0-beta")]
    V3Beta,
    /// DCSA's fields in a shape of the carrier's own.
    #[serde(rename = "dcsa-based")]
    DcsaBased,
}

/// How a carrier authenticates its callers; the secrets come from the endpoint's settings.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(tag = "style", rename_all = "snake_case", deny_unknown_fields)]
pub enum AuthStyle {
    /// An API key in a header of this name.
    ApiKey {
        /// The header.
        header: String,
    },
    /// A client id and a client secret, each in a header of its own.
    HeaderPair {
        /// The id's header.
        id_header: String,
        /// The secret's header.
        secret_header: String,
    },
    /// OAuth2 client credentials.
    Oauth2 {
        /// The token endpoint, when public.
        #[serde(default)]
        token_url: Option<String>,
        /// The scope asked, when one is required.
        #[serde(default)]
        scope: Option<String>,
    },
    /// OAuth2 client credentials, and a key header on every call.
    Oauth2WithKey {
        /// The token endpoint, when public.
        #[serde(default)]
        token_url: Option<String>,
        /// The key's header.
        key_header: String,
        /// The scope asked, when one is required.
        #[serde(default)]
        scope: Option<String>,
    },
    /// A client id and secret posted as JSON to a token URL for a bearer token, the
    /// line's own exchange; the names of its members when they are not `client_id`,
    /// `client_secret` and one of `access_token`, `token`, `jwt`, `id_token`.
    Token {
        /// The token endpoint, when public.
        #[serde(default)]
        token_url: Option<String>,
        /// The client id's member in the request.
        #[serde(default)]
        id_field: Option<String>,
        /// The client secret's member in the request.
        #[serde(default)]
        secret_field: Option<String>,
        /// The token's member in the answer.
        #[serde(default)]
        token_field: Option<String>,
    },
}

/// How a carrier pages its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Paging {
    /// `Next-Page-Cursor` and `cursor`.
    Cursor,
    /// 2.x's `Next-Page` header.
    NextPageHeader,
    /// One page.
    None,
    /// Not known.
    Unknown,
}

/// Whether a carrier pushes its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Push {
    /// DCSA 2.2 event subscriptions.
    #[serde(rename = "dcsa_2_2")]
    Dcsa22,
    /// A push of its own.
    Proprietary,
    /// It does not.
    None,
    /// Not known.
    Unknown,
}

/// How a carrier's answers differ from the standard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quirk {
    /// A 500 for a bill not yet manifested.
    #[serde(rename = "not_manifested_500")]
    NotManifested500,
    /// A booking and a container must be asked together.
    BookingAndContainer,
    /// An unknown number and a not-yet-manifested one answer the same.
    UnknownLikeUnmanifested,
    /// Barge codes (`ABA`/`ABD`, `PBA`/`PBD`) for feeder legs.
    BargeFeederCodes,
    /// `PLAN` for `PLN`.
    PlanForPln,
    /// DCSA 1.1.0's parameter names.
    #[serde(rename = "version_1_1_names")]
    Version11Names,
    /// Answers without a containers list.
    MissingContainers,
    /// A 403 that means no access.
    ForbiddenMeansNoAccess,
    /// Bookings without containers answer events of their own.
    ContainerLessBookings,
}

/// One carrier's profile.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// The carrier, as people say it.
    pub name: String,
    /// The SCACs it answers for.
    pub scacs: Vec<String>,
    /// Its DCSA version.
    pub dcsa_version: DcsaVersion,
    /// Where its API lives, when public.
    #[serde(default)]
    pub base_url: Option<String>,
    /// The events resource under the base URL.
    pub events_path: String,
    /// How it authenticates, when public.
    #[serde(default)]
    pub auth: Option<AuthStyle>,
    /// The lookups it takes, each a combination of parameters given together.
    pub filters: Vec<Vec<String>>,
    /// How it pages.
    pub paging: Paging,
    /// Whether it pushes.
    pub push: Push,
    /// Requests a second it holds callers to, when known.
    #[serde(default)]
    pub per_second: Option<u32>,
    /// Requests a day it holds callers to, when known.
    #[serde(default)]
    pub per_day: Option<u32>,
    /// How its answers differ from the standard.
    #[serde(default)]
    pub quirks: Vec<Quirk>,
    /// Which facts are uncertain, and how to check them.
    #[serde(default)]
    pub unverified: Vec<String>,
    /// Where the facts come from.
    pub sources: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    profiles: BTreeMap<String, Profile>,
}

/// The profiles, by name (`maersk`, `hapag-lloyd`, …).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Profiles {
    by_name: BTreeMap<String, Profile>,
}

impl Profiles {
    /// The profiles shipped with Tidemark.
    ///
    /// # Errors
    /// When the bundled file does not validate.
    pub fn bundled() -> Result<Self, String> {
        Self::parse_toml(BUNDLED)
    }

    /// Profiles from a TOML document, validated.
    ///
    /// # Errors
    /// Every problem found, each naming its profile.
    pub fn parse_toml(text: &str) -> Result<Self, String> {
        let file: File = toml::from_str(text).map_err(|error| error.to_string())?;
        let mut problems = Vec::new();
        let mut scacs = BTreeSet::new();
        for (name, profile) in &file.profiles {
            for problem in check(name, profile) {
                problems.push(format!("profiles.{name}: {problem}"));
            }
            for scac in &profile.scacs {
                if !scacs.insert(scac.to_ascii_uppercase()) {
                    problems.push(format!("profiles.{name}: {scac} is in another profile too"));
                }
            }
        }
        if problems.is_empty() {
            Ok(Self {
                by_name: file.profiles,
            })
        } else {
            Err(problems.join("; "))
        }
    }

    /// The profile named `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&Profile> {
        self.by_name.get(name)
    }

    /// Every profile, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Profile)> {
        self.by_name
            .iter()
            .map(|(name, profile)| (name.as_str(), profile))
    }
}

fn http_url(text: &str) -> bool {
    reqwest::Url::parse(text).is_ok_and(|url| matches!(url.scheme(), "http" | "https"))
}

/// What is wrong with `profile`, named `name`.
fn check(name: &str, profile: &Profile) -> Vec<String> {
    let mut problems = Vec::new();
    if !name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        problems.push("a profile's name has only lowercase letters, digits and '-'".to_owned());
    }
    if profile.scacs.is_empty() {
        problems.push("names no SCAC".to_owned());
    }
    for scac in &profile.scacs {
        if Scac::parse(scac).is_err() {
            problems.push(format!("{scac:?} is not a SCAC"));
        }
    }
    if let Some(url) = &profile.base_url
        && !http_url(url)
    {
        problems.push(format!("base_url {url:?} is not an http(s) URL"));
    }
    if !profile.events_path.starts_with('/') {
        problems.push("events_path starts with '/'".to_owned());
    }
    let token_url = match &profile.auth {
        Some(
            AuthStyle::Oauth2 { token_url, .. }
            | AuthStyle::Oauth2WithKey { token_url, .. }
            | AuthStyle::Token { token_url, .. },
        ) => token_url.as_deref(),
        _ => None,
    };
    if let Some(url) = token_url
        && !http_url(url)
    {
        problems.push(format!("auth.token_url {url:?} is not an http(s) URL"));
    }
    if profile.filters.is_empty() || profile.filters.iter().any(Vec::is_empty) {
        problems.push("filters lists at least one combination, none empty".to_owned());
    }
    for filter in profile.filters.iter().flatten() {
        if !FILTERS.contains(&filter.as_str()) {
            problems.push(format!(
                "filter {filter:?} is none of {}",
                FILTERS.join(", ")
            ));
        }
    }
    if profile.sources.is_empty() {
        problems.push("names no source".to_owned());
    }
    let unknown = profile.base_url.is_none() || profile.auth.is_none();
    if unknown && profile.unverified.is_empty() {
        problems.push("leaves base_url or auth out without saying why in unverified".to_owned());
    }
    problems
}

#[cfg(test)]
mod tests;
