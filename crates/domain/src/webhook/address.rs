//! Where a webhook may deliver: `http`/`https` URLs, and the networks their addresses may be
//! in. Non-public addresses (private, loopback, link-local, shared, documentation, multicast
//! …) are refused unless the operator allows them; the check runs on every address a name
//! resolves to, at every delivery, not only on the URL as written.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::str::FromStr;

use ipnet::{IpNet, Ipv4Net, Ipv6Net};
use url::{Host, Url};

/// The longest URL accepted.
pub const MAX_URL_LEN: usize = 2048;

/// Why a webhook URL was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// Longer than [`MAX_URL_LEN`].
    #[error("the URL is longer than {MAX_URL_LEN} characters")]
    TooLong,
    /// Not an absolute URL.
    #[error("not a valid absolute URL: {0}")]
    Malformed(String),
    /// Another scheme than `http` or `https`.
    #[error("the scheme must be http or https, not {0:?}")]
    Scheme(String),
    /// User name or password in the URL (they would end up in logs).
    #[error("credentials in the URL are not accepted; use the webhook's headers")]
    Credentials,
    /// A literal address outside the allowed networks.
    #[error(
        "{0} is not a public address; to let webhooks reach it, the operator adds its network to \
         webhook_allowed_networks (TIDEMARK_WEBHOOK_ALLOWED_NETWORKS, serve \
         --webhook-allowed-networks), e.g. 127.0.0.0/8 for receivers on the same machine"
    )]
    NotPublic(IpAddr),
}

/// A webhook's URL: absolute, `http` or `https`, with a host, without credentials. A
/// fragment (`#…`, as in the reference API's own example URL) is kept as given and never
/// sent: HTTP has no place for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookUrl(Url);

impl WebhookUrl {
    /// Parses `text`, refusing a literal address that `networks` does not permit. A host
    /// name is accepted here; its addresses are checked when it is resolved.
    ///
    /// # Errors
    /// The first rule `text` breaks.
    pub fn parse(text: &str, networks: &Networks) -> Result<Self, UrlError> {
        if text.len() > MAX_URL_LEN {
            return Err(UrlError::TooLong);
        }
        let url =
            Url::parse(text.trim()).map_err(|error| UrlError::Malformed(error.to_string()))?;
        match url.scheme() {
            "http" | "https" => {}
            other => return Err(UrlError::Scheme(other.to_owned())),
        }
        if !url.username().is_empty() || url.password().is_some() {
            return Err(UrlError::Credentials);
        }
        match url.host() {
            None => return Err(UrlError::Malformed("no host".to_owned())),
            Some(Host::Ipv4(ip)) => networks.check(IpAddr::V4(ip))?,
            Some(Host::Ipv6(ip)) => networks.check(IpAddr::V6(ip))?,
            Some(Host::Domain(_)) => {}
        }
        Ok(Self(url))
    }

    /// A URL read back from storage: checked when it was stored, so only parsed here (the
    /// allowed networks may have changed since; deliveries check every address anyway).
    ///
    /// # Errors
    /// When `text` is not a URL.
    pub fn from_stored(text: &str) -> Result<Self, UrlError> {
        Url::parse(text)
            .map(Self)
            .map_err(|error| UrlError::Malformed(error.to_string()))
    }

    /// The URL.
    #[must_use]
    pub fn as_url(&self) -> &Url {
        &self.0
    }

    /// Where a delivery goes: the URL without its fragment.
    #[must_use]
    pub fn target(&self) -> Url {
        let mut target = self.0.clone();
        target.set_fragment(None);
        target
    }

    /// The URL as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Display for WebhookUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.as_str())
    }
}

/// A network list that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a network in CIDR notation (e.g. 127.0.0.0/8 or ::1/128)")]
pub struct NetworkError(pub String);

/// The networks webhooks may reach beyond the public internet (none by default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Networks {
    allowed: Vec<IpNet>,
}

impl Networks {
    /// Only public addresses.
    #[must_use]
    pub fn public_only() -> Self {
        Self::default()
    }

    /// Public addresses and those in `allowed`.
    #[must_use]
    pub fn allowing(allowed: Vec<IpNet>) -> Self {
        Self { allowed }
    }

    /// Parses a comma-separated list such as `127.0.0.0/8,::1/128` (a bare address is one
    /// host).
    ///
    /// # Errors
    /// The first entry that is not a network.
    pub fn parse_list(text: &str) -> Result<Self, NetworkError> {
        let allowed = text
            .split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                IpNet::from_str(entry)
                    .or_else(|_| IpAddr::from_str(entry).map(IpNet::from))
                    .map(|net| net.trunc())
                    .map_err(|_| NetworkError(entry.to_owned()))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { allowed })
    }

    /// The allowed networks.
    #[must_use]
    pub fn allowed(&self) -> &[IpNet] {
        &self.allowed
    }

    /// Whether a delivery may go to `ip`.
    #[must_use]
    pub fn permits(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        is_public(ip) || self.allowed.iter().any(|net| net.contains(&ip))
    }

    /// [`Self::permits`] as a result.
    ///
    /// # Errors
    /// [`UrlError::NotPublic`] when `ip` is not permitted.
    pub fn check(&self, ip: IpAddr) -> Result<(), UrlError> {
        if self.permits(ip) {
            Ok(())
        } else {
            Err(UrlError::NotPublic(canonical(ip)))
        }
    }
}

/// An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is the IPv4 address it carries.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        IpAddr::V4(_) => ip,
    }
}

/// IPv4 blocks that are not globally reachable (IANA special-purpose registry).
const V4_SPECIAL: [(Ipv4Addr, u8); 16] = [
    (Ipv4Addr::new(0, 0, 0, 0), 8),          // "this network"
    (Ipv4Addr::new(10, 0, 0, 0), 8),         // private
    (Ipv4Addr::new(100, 64, 0, 0), 10),      // shared address space (CGNAT)
    (Ipv4Addr::new(127, 0, 0, 0), 8),        // loopback
    (Ipv4Addr::new(169, 254, 0, 0), 16),     // link-local (cloud metadata)
    (Ipv4Addr::new(172, 16, 0, 0), 12),      // private
    (Ipv4Addr::new(192, 0, 0, 0), 24),       // IETF protocol assignments
    (Ipv4Addr::new(192, 0, 2, 0), 24),       // documentation (TEST-NET-1)
    (Ipv4Addr::new(192, 88, 99, 0), 24),     // 6to4 relay anycast
    (Ipv4Addr::new(192, 168, 0, 0), 16),     // private
    (Ipv4Addr::new(198, 18, 0, 0), 15),      // benchmarking
    (Ipv4Addr::new(198, 51, 100, 0), 24),    // documentation (TEST-NET-2)
    (Ipv4Addr::new(203, 0, 113, 0), 24),     // documentation (TEST-NET-3)
    (Ipv4Addr::new(224, 0, 0, 0), 4),        // multicast
    (Ipv4Addr::new(240, 0, 0, 0), 4),        // reserved, and broadcast
    (Ipv4Addr::new(255, 255, 255, 255), 32), // broadcast
];

/// IPv6 blocks that are not globally reachable, or that embed IPv4 addresses we cannot
/// vouch for.
const V6_SPECIAL: [(Ipv6Addr, u8); 14] = [
    (Ipv6Addr::UNSPECIFIED, 128),
    (Ipv6Addr::LOCALHOST, 128),
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0xffff, 0, 0), 96), // IPv4-mapped (checked as IPv4 first)
    (Ipv6Addr::new(0, 0, 0, 0, 0, 0, 0, 0), 96),      // IPv4-compatible (deprecated)
    (Ipv6Addr::new(0x64, 0xff9b, 0, 0, 0, 0, 0, 0), 96), // NAT64
    (Ipv6Addr::new(0x64, 0xff9b, 1, 0, 0, 0, 0, 0), 48), // local NAT64
    (Ipv6Addr::new(0x100, 0, 0, 0, 0, 0, 0, 0), 64),  // discard
    (Ipv6Addr::new(0x2001, 0, 0, 0, 0, 0, 0, 0), 23), // IETF protocol assignments (Teredo …)
    (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 0), 32), // documentation
    (Ipv6Addr::new(0x2002, 0, 0, 0, 0, 0, 0, 0), 16), // 6to4
    (Ipv6Addr::new(0x3fff, 0, 0, 0, 0, 0, 0, 0), 20), // documentation
    (Ipv6Addr::new(0xfc00, 0, 0, 0, 0, 0, 0, 0), 7),  // unique local
    (Ipv6Addr::new(0xfe80, 0, 0, 0, 0, 0, 0, 0), 10), // link-local (and site-local below)
    (Ipv6Addr::new(0xff00, 0, 0, 0, 0, 0, 0, 0), 8),  // multicast
];

/// Whether `ip` is a globally reachable unicast address.
#[must_use]
pub fn is_public(ip: IpAddr) -> bool {
    match canonical(ip) {
        IpAddr::V4(v4) => !V4_SPECIAL.iter().any(|(network, prefix)| {
            Ipv4Net::new(*network, *prefix).is_ok_and(|net| net.contains(&v4))
        }),
        IpAddr::V6(v6) => {
            // fec0::/10, deprecated site-local, sits next to link-local.
            let site_local = (v6.segments()[0] & 0xffc0) == 0xfec0;
            !site_local
                && !V6_SPECIAL.iter().any(|(network, prefix)| {
                    Ipv6Net::new(*network, *prefix).is_ok_and(|net| net.contains(&v6))
                })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("an address")
    }

    #[test]
    fn public_addresses_are_public_and_the_rest_are_not() {
        for public in [
            "8.8.8.8",
            "1.1.1.1",
            "151.101.1.69",
            "2606:4700::1111",
            "2a00:1450::1",
        ] {
            assert!(is_public(ip(public)), "{public}");
        }
        for special in [
            "0.0.0.0",
            "10.1.2.3",
            "100.64.0.1",
            "100.127.255.254",
            "127.0.0.1",
            "127.255.255.255",
            "169.254.169.254",
            "172.16.0.1",
            "172.31.255.255",
            "192.0.0.8",
            "192.0.2.1",
            "192.168.1.1",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "100::1",
            "2001::1",
            "2001:db8::1",
            "2002:a9fe:a9fe::1",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
        ] {
            assert!(!is_public(ip(special)), "{special}");
        }
        // The neighbours of the private blocks are public.
        for public in [
            "172.15.255.255",
            "172.32.0.0",
            "100.63.255.255",
            "100.128.0.0",
            "11.0.0.0",
        ] {
            assert!(is_public(ip(public)), "{public}");
        }
    }

    #[test]
    fn allowed_networks_open_exactly_themselves() {
        let networks = Networks::parse_list(" 127.0.0.0/8, ::1/128 ,10.9.8.7").expect("list");
        assert!(networks.permits(ip("127.0.0.1")));
        assert!(networks.permits(ip("::ffff:127.0.0.1")), "mapped IPv4 too");
        assert!(networks.permits(ip("::1")));
        assert!(networks.permits(ip("10.9.8.7")));
        assert!(!networks.permits(ip("10.9.8.6")));
        assert!(!networks.permits(ip("169.254.169.254")));
        assert!(
            Networks::parse_list("")
                .expect("empty")
                .allowed()
                .is_empty()
        );
        assert_eq!(
            Networks::parse_list("127.0.0.0/8,localhost"),
            Err(NetworkError("localhost".to_owned()))
        );
        assert!(Networks::parse_list("10.0.0.0/33").is_err());
    }

    #[test]
    fn urls_are_http_with_a_host_and_no_credentials() {
        let public = Networks::public_only();
        let ok = WebhookUrl::parse("https://hooks.example.com/tidemark?x=1", &public).expect("ok");
        assert_eq!(ok.as_str(), "https://hooks.example.com/tidemark?x=1");
        assert!(WebhookUrl::parse("http://8.8.8.8:8080/hook", &public).is_ok());
        // A name is checked when it is resolved, not here.
        assert!(WebhookUrl::parse("http://localhost/hook", &public).is_ok());
        // A fragment is kept as given and never sent.
        let fragment =
            WebhookUrl::parse("https://webhook.site/#!/39084fbb", &public).expect("a fragment");
        assert_eq!(fragment.as_str(), "https://webhook.site/#!/39084fbb");
        assert_eq!(fragment.target().as_str(), "https://webhook.site/");

        for (text, expected) in [
            ("ftp://example.com/", UrlError::Scheme("ftp".to_owned())),
            ("file:///etc/passwd", UrlError::Scheme("file".to_owned())),
            ("https://user:pw@example.com/", UrlError::Credentials),
            (
                "http://169.254.169.254/latest/meta-data",
                UrlError::NotPublic(ip("169.254.169.254")),
            ),
            (
                "http://127.0.0.1:9000/",
                UrlError::NotPublic(ip("127.0.0.1")),
            ),
            ("http://[::1]/", UrlError::NotPublic(ip("::1"))),
            (
                "http://[::ffff:a9fe:a9fe]/",
                UrlError::NotPublic(ip("169.254.169.254")),
            ),
            ("http://2130706433/", UrlError::NotPublic(ip("127.0.0.1"))),
            ("http://0x7f.1/", UrlError::NotPublic(ip("127.0.0.1"))),
        ] {
            assert_eq!(WebhookUrl::parse(text, &public), Err(expected), "{text}");
        }
        assert!(matches!(
            WebhookUrl::parse("not a url", &public),
            Err(UrlError::Malformed(_))
        ));
        assert!(matches!(
            WebhookUrl::parse(
                &format!("https://example.com/{}", "a".repeat(MAX_URL_LEN)),
                &public
            ),
            Err(UrlError::TooLong)
        ));

        let local = Networks::parse_list("127.0.0.0/8").expect("list");
        assert!(WebhookUrl::parse("http://127.0.0.1:9000/", &local).is_ok());
        assert!(WebhookUrl::parse("http://169.254.169.254/", &local).is_err());
    }
}
