//! The HTTP client deliveries go out through: no redirects, a timeout, and a resolver that
//! refuses non-public addresses (unless allowed), so a webhook whose name points at an
//! internal address, or is re-pointed there later, is never reached. Literal addresses in
//! URLs are checked too, since they skip the resolver.

use std::fmt;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use tidemark_domain::webhook::{Networks, UrlError, WebhookUrl};
use url::Host;

/// Where names are looked up: the system resolver in service; a fixed table in tests, so
/// a name can be made to point anywhere without touching DNS.
pub trait HostResolver: Send + Sync + fmt::Debug {
    /// The addresses `host` resolves to.
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn Future<Output = std::io::Result<Vec<IpAddr>>> + Send + 'a>>;
}

/// The system resolver (`getaddrinfo`, through tokio).
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemResolver;

impl HostResolver for SystemResolver {
    fn resolve<'a>(
        &'a self,
        host: &'a str,
    ) -> Pin<Box<dyn Future<Output = std::io::Result<Vec<IpAddr>>> + Send + 'a>> {
        Box::pin(async move {
            Ok(tokio::net::lookup_host((host, 0))
                .await?
                .map(|address| address.ip())
                .collect())
        })
    }
}

/// Resolves names and keeps only the addresses `networks` permits.
#[derive(Debug, Clone)]
struct GuardedResolver {
    networks: Arc<Networks>,
    resolver: Arc<dyn HostResolver>,
}

/// A name that resolved only to refused addresses.
#[derive(Debug, thiserror::Error)]
#[error(
    "{name} resolves only to addresses webhooks may not reach ({addresses}); allow their \
     network with webhook_allowed_networks"
)]
struct Refused {
    name: String,
    addresses: String,
}

impl Resolve for GuardedResolver {
    fn resolve(&self, name: Name) -> Resolving {
        let networks = Arc::clone(&self.networks);
        let resolver = Arc::clone(&self.resolver);
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found = resolver.resolve(&host).await?;
            let allowed: Vec<SocketAddr> = found
                .iter()
                .copied()
                .filter(|ip| networks.permits(*ip))
                .map(|ip| SocketAddr::new(ip, 0))
                .collect();
            if allowed.is_empty() {
                let addresses = found
                    .iter()
                    .map(ToString::to_string)
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
pub fn build(
    networks: Arc<Networks>,
    resolver: Arc<dyn HostResolver>,
    timeout: Duration,
) -> reqwest::Result<reqwest::Client> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        // A proxy would resolve names itself, past the guard: deliveries never use one,
        // whatever HTTP_PROXY says.
        .no_proxy()
        .timeout(timeout)
        .connect_timeout(timeout)
        .user_agent(concat!("Tidemark-Webhooks/", env!("CARGO_PKG_VERSION")))
        .dns_resolver(Arc::new(GuardedResolver { networks, resolver }))
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
