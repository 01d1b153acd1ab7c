//! The HTTP client deliveries go out through: no redirects, a timeout, and a resolver that
//! refuses non-public addresses (unless allowed), so a webhook whose name points at an
//! internal address, or is re-pointed there later, is never reached. Literal addresses in
//! URLs are checked too, since they skip the resolver.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use tidemark_domain::webhook::{Networks, UrlError, WebhookUrl};
use url::Host;

/// Resolves names and keeps only the addresses `networks` permits.
#[derive(Debug, Clone)]
struct GuardedResolver {
    networks: Arc<Networks>,
}

/// A name that resolved only to refused addresses.
#[derive(Debug, thiserror::Error)]
#[error("{name} resolves only to addresses webhooks may not reach ({addresses})")]
struct Refused {
    name: String,
    addresses: String,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let networks = Arc::clone(&self.networks);
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> = found
                .iter()
                .copied()
                .filter(|address| networks.permits(address.ip()))
                .collect();
            if allowed.is_empty() {
                let addresses = found
                    .iter()
                    .map(|a| a.ip().to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(Box::new(Refused {
                    name: host,
                    addresses,
                })
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

/// Builds the delivery client.
///
/// # Errors
/// When the TLS backend cannot start.
pub fn build(networks: Arc<Networks>, timeout: Duration) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(timeout)
        .connect_timeout(timeout)
        .user_agent(concat!("Tidemark-Webhooks/", env!("CARGO_PKG_VERSION")))
        .dns_resolver(Arc::new(GuardedResolver { networks }))
        .build()
}

/// Refuses a URL whose host is a literal address outside `networks` (names are checked by
/// the resolver).
///
/// # Errors
/// [`UrlError::NotPublic`].
pub fn check_literal(url: &WebhookUrl, networks: &Networks) -> Result<(), UrlError> {
    match url.as_url().host() {
        Some(Host::Ipv4(ip)) => networks.check(ip.into()),
        Some(Host::Ipv6(ip)) => networks.check(ip.into()),
        _ => Ok(()),
    }
}
