//! The shipping line's Arrival Notices (DCSA Arrival Notice 1.0.1, publisher side):
//! `GET {base_url}/arrival-notices?transportDocumentReferences={bill}`, following
//! `Next-Page-Cursor`, with the carriers' credentials and failure rules ([`crate::http`]).
//! Of the notices of a bill, the latest issued is the line's word
//! ([`ArrivalNoticeConnector`]); the AN field names live only here (and in the simulator).

mod model;
pub mod push;
pub mod registry;

use std::fmt;

use async_trait::async_trait;
use reqwest::{StatusCode, Url};
use tidemark_domain::TemporaryReason;
use tidemark_domain::terminal::ContainerNotice;

use crate::http::{ConfigError, Endpoint, Failure, endpoint_url, unexpected};
use crate::limits::Gate;
use crate::settings::HttpSettings;

/// Most pages of notices followed for one bill.
const MAX_PAGES: usize = 10;

/// What the latest notice of a bill says of each of its containers, by normalized number;
/// empty when the line has issued none yet.
pub type Notices = Vec<(String, ContainerNotice)>;

/// "What does the line's latest Arrival Notice of this bill say?"
#[async_trait]
pub trait ArrivalNoticeConnector: Send + Sync + fmt::Debug {
    /// The notice's word on each container of `bill`, or why there is none. Never panics.
    async fn notices(&self, bill: &str) -> Result<Notices, Failure>;
}

/// A line's Arrival Notice publisher reached over HTTP.
#[derive(Debug)]
pub struct HttpArrivalNotices {
    url: Url,
    endpoint: Endpoint,
    gate: Gate,
}

fn unrecognized(problem: String) -> Failure {
    Failure::Temporary(TemporaryReason::Unrecognized(problem))
}

impl HttpArrivalNotices {
    /// A connector for the publisher at `base_url`.
    ///
    /// # Errors
    /// When the base URL is not http(s) or the client cannot be built.
    pub fn new(
        base_url: &str,
        auth: crate::auth::Auth,
        settings: &HttpSettings,
    ) -> Result<Self, ConfigError> {
        Ok(Self {
            url: endpoint_url(base_url, "/arrival-notices")?,
            endpoint: Endpoint::new(
                auth,
                settings.connect_timeout,
                settings.timeout,
                settings.max_response_bytes,
            )?,
            gate: Gate::new(settings.limits()),
        })
    }

    /// One page of notices and the cursor of the next.
    async fn page(&self, url: &Url) -> Result<(Vec<model::Notice>, Option<String>), Failure> {
        let _slot = self.gate.enter().await;
        let mut response = self
            .endpoint
            .call(|client| {
                client
                    .get(url.clone())
                    .header("Accept", "application/json")
                    .header("API-Version", "1.0.1")
            })
            .await?;
        if response.status() != StatusCode::OK {
            return Err(Failure::Temporary(unexpected(response.status())));
        }
        let next = response
            .headers()
            .get("Next-Page-Cursor")
            .and_then(|value| value.to_str().ok())
            .map(str::to_owned)
            .filter(|cursor| !cursor.is_empty());
        let body = self
            .endpoint
            .read(&mut response)
            .await
            .map_err(Failure::Temporary)?;
        let page: model::Page = serde_json::from_slice(&body)
            .map_err(|error| unrecognized(format!("not an arrival notice list: {error}")))?;
        Ok((page.arrival_notices, next))
    }
}

#[async_trait]
impl ArrivalNoticeConnector for HttpArrivalNotices {
    async fn notices(&self, bill: &str) -> Result<Notices, Failure> {
        let mut first = self.url.clone();
        first
            .query_pairs_mut()
            .append_pair("transportDocumentReferences", bill)
            .append_pair("includeVisualization", "false");
        let mut url = first.clone();
        let mut all = Vec::new();
        for _ in 0..MAX_PAGES {
            let (notices, next) = self.page(&url).await?;
            all.extend(notices);
            let Some(cursor) = next else {
                return latest(bill, all).map_err(unrecognized);
            };
            url = first.clone();
            url.query_pairs_mut().append_pair("cursor", &cursor);
        }
        Err(unrecognized(format!(
            "more than {MAX_PAGES} pages of notices"
        )))
    }
}

/// The word of the latest notice issued for `bill` among `notices`.
fn latest(bill: &str, notices: Vec<model::Notice>) -> Result<Notices, String> {
    let mut newest: Option<(tidemark_domain::Timestamp, model::Notice)> = None;
    for notice in notices.into_iter().filter(|notice| notice.is_of(bill)) {
        let issued = notice.issued_at()?;
        if newest.as_ref().is_none_or(|(at, _)| issued > *at) {
            newest = Some((issued, notice));
        }
    }
    newest.map_or_else(|| Ok(Vec::new()), |(_, notice)| notice.containers())
}

#[cfg(test)]
mod tests;
