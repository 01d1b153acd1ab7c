//! The terminal protocol's answer (`POST /import-availability`, and the same shape pushed
//! to a subscriber) and its mapping onto what the domain keeps, and its subscription
//! (`POST /import-availability/subscriptions`). A member that breaks the protocol makes the
//! whole answer unrecognized: nothing of a garbled answer is taken for truth.

use serde::Deserialize;
use tidemark_domain::terminal::{
    Amount, Currency, Fee, FeeType, Hold, HoldName, HoldStatus, TerminalReport,
};
use tidemark_domain::{ContainerNumber, Timestamp};

/// Most containers asked in one request.
pub const MAX_CONTAINERS: usize = 100;

/// The request body.
#[derive(Debug, serde::Serialize)]
pub struct Ask<'a> {
    /// The container numbers asked, at most [`MAX_CONTAINERS`].
    pub containers: &'a [String],
}

/// The subscription request body.
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subscribe<'a> {
    /// The container numbers, at most [`MAX_CONTAINERS`].
    pub containers: &'a [String],
    /// Where the terminal pushes its answers.
    pub callback_url: &'a str,
    /// The bearer token it pushes with.
    pub callback_token: &'a str,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Subscribed {
    expires_at: String,
}

/// Until when a terminal pushes, from its answer to a subscription.
///
/// # Errors
/// An answer without an RFC 3339 `expiresAt`.
pub fn read_subscription(body: &[u8]) -> Result<Timestamp, String> {
    let answer: Subscribed =
        serde_json::from_slice(body).map_err(|error| format!("not a subscription: {error}"))?;
    Timestamp::parse_rfc3339(&answer.expires_at)
        .map_err(|_| format!("expiresAt {:?} is not RFC 3339", answer.expires_at))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Answer {
    #[serde(default)]
    checked_at: Option<String>,
    containers: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Entry {
    container_number: String,
    known: bool,
    #[serde(default)]
    available: Option<bool>,
    #[serde(default)]
    holds: Vec<RawHold>,
    #[serde(default)]
    fees: Vec<RawFee>,
    #[serde(default)]
    last_free_day: Option<String>,
    #[serde(default)]
    appointment: Option<String>,
    #[serde(default)]
    yard_location: Option<String>,
    #[serde(default)]
    terminal: Option<String>,
    #[serde(default)]
    pickup_facility: Option<String>,
    #[serde(default)]
    out_gate_at: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RawHold {
    #[serde(rename = "type")]
    kind: String,
    status: String,
    #[serde(default)]
    description: Option<String>,
}

#[derive(Debug, Deserialize)]
struct RawFee {
    #[serde(rename = "type")]
    kind: String,
    amount: serde_json::Number,
    currency: String,
}

/// What a terminal said of each container it was asked about: the normalized number, and
/// its report, or `None` when the terminal has no record of it.
pub type Reports = Vec<(String, Option<TerminalReport>)>;

/// Reads an answer to a request for `asked`.
///
/// # Errors
/// What is wrong with it: not JSON of this shape, a container not asked, a member out of
/// the protocol.
pub fn read(body: &[u8], asked: &[String]) -> Result<Reports, String> {
    read_where(body, |number| asked.iter().any(|a| a == number), usize::MAX)
}

/// Reads an answer a terminal pushed (to a subscription): at most [`MAX_CONTAINERS`].
///
/// # Errors
/// As [`read`], or too many containers.
pub fn read_pushed(body: &[u8]) -> Result<Reports, String> {
    read_where(body, |_| true, MAX_CONTAINERS)
}

fn read_where(body: &[u8], asked: impl Fn(&str) -> bool, most: usize) -> Result<Reports, String> {
    let mut answer: Answer = serde_json::from_slice(body)
        .map_err(|error| format!("not the terminal protocol: {error}"))?;
    time(answer.checked_at.take(), "checkedAt")?;
    if answer.containers.len() > most {
        return Err(format!(
            "{} containers; at most {most} are taken at once",
            answer.containers.len()
        ));
    }
    answer
        .containers
        .into_iter()
        .map(|entry| {
            let number = ContainerNumber::parse(&entry.container_number)
                .map_err(|problem| {
                    format!("containerNumber {:?} {problem}", entry.container_number)
                })?
                .as_str()
                .to_owned();
            if !asked(&number) {
                return Err(format!("{number} was not asked about"));
            }
            let report = if entry.known {
                Some(report(entry)?)
            } else {
                None
            };
            Ok((number, report))
        })
        .collect()
}

fn report(entry: Entry) -> Result<TerminalReport, String> {
    Ok(TerminalReport {
        available: entry.available,
        holds: entry
            .holds
            .into_iter()
            .map(hold)
            .collect::<Result<_, _>>()?,
        fees: entry.fees.into_iter().map(fee).collect::<Result<_, _>>()?,
        last_free_day: time(entry.last_free_day, "lastFreeDay")?,
        appointment: time(entry.appointment, "appointment")?,
        location: entry.yard_location.filter(|text| !text.trim().is_empty()),
        terminal: entry.terminal.filter(|code| !code.trim().is_empty()),
        pickup_facility: entry.pickup_facility.filter(|code| !code.trim().is_empty()),
        out_gate_at: time(entry.out_gate_at, "outGateAt")?,
    })
}

/// A hold; a type the protocol does not name is `other`, described by its type.
fn hold(raw: RawHold) -> Result<Hold, String> {
    let named = HoldName::ALL
        .into_iter()
        .find(|name| name.as_str().eq_ignore_ascii_case(&raw.kind));
    let status = HoldStatus::parse(&raw.status.to_ascii_lowercase())
        .ok_or_else(|| format!("hold status {:?} is neither hold nor pending", raw.status))?;
    Ok(Hold {
        name: named.unwrap_or(HoldName::Other),
        status,
        description: raw
            .description
            .or_else(|| named.is_none().then_some(raw.kind)),
    })
}

/// A fee; a type the protocol does not name is `other`.
fn fee(raw: RawFee) -> Result<Fee, String> {
    Ok(Fee {
        kind: FeeType::parse(&raw.kind.to_ascii_lowercase()).unwrap_or(FeeType::Other),
        amount: Amount::parse(&raw.amount.to_string())
            .ok_or_else(|| format!("fee amount {} is not an amount", raw.amount))?,
        currency: Currency::parse(&raw.currency)
            .ok_or_else(|| format!("fee currency {:?} is not ISO 4217", raw.currency))?,
    })
}

fn time(text: Option<String>, member: &str) -> Result<Option<Timestamp>, String> {
    text.map(|text| {
        Timestamp::parse_rfc3339(&text).map_err(|_| format!("{member} {text:?} is not RFC 3339"))
    })
    .transpose()
}

#[cfg(test)]
mod tests;
