//! Where AIS sentences come from: `tcp://host:port`, which Tidemark connects to and
//! reconnects to with backoff when the connection drops (AIS-catcher's and most
//! providers' way), or `udp://host:port`, where Tidemark listens for datagrams (rtl-ais's
//! and a ship-to-shore forwarder's way).

use std::fmt;
use std::net::SocketAddr;
use std::str::FromStr;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};
use tokio::net::{TcpStream, UdpSocket};
use tokio::sync::mpsc;

use super::decode::LINE_MAX;

/// One configured source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AisSource {
    /// Connect to a server that streams sentences.
    Tcp(String),
    /// Listen for datagrams of sentences.
    Udp(SocketAddr),
}

impl FromStr for AisSource {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let text = text.trim();
        let (scheme, address) = text.split_once("://").ok_or_else(|| {
            format!("AIS source {text:?} is not tcp://host:port or udp://host:port")
        })?;
        let has_port = address
            .rsplit_once(':')
            .is_some_and(|(host, port)| !host.is_empty() && port.parse::<u16>().is_ok());
        if !has_port {
            return Err(format!("AIS source {text:?} needs a host and a port"));
        }
        match scheme {
            "tcp" => Ok(Self::Tcp(address.to_owned())),
            "udp" => address.parse().map(Self::Udp).map_err(|_| {
                format!("AIS source {text:?}: a UDP source is an IP address and port to listen on")
            }),
            _ => Err(format!("AIS source {text:?}: the scheme is tcp or udp")),
        }
    }
}

impl fmt::Display for AisSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Tcp(address) => write!(f, "tcp://{address}"),
            Self::Udp(address) => write!(f, "udp://{address}"),
        }
    }
}

/// What a feed reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FeedEvent {
    /// Connected (TCP) or listening (UDP).
    Up,
    /// The connection dropped or could not be made; retried after the backoff.
    Down(String),
    /// One line, as received (without its line end).
    Line(String),
}

/// Reads one source into a channel until the channel's receiver is gone.
#[derive(Debug, Clone)]
pub struct Feed {
    source: AisSource,
    backoff: (Duration, Duration),
}

impl Feed {
    /// A feed of `source`, reconnecting after 1 s, doubling to a minute.
    #[must_use]
    pub fn new(source: AisSource) -> Self {
        Self {
            source,
            backoff: (Duration::from_secs(1), Duration::from_secs(60)),
        }
    }

    /// The same feed with another backoff between reconnections.
    #[must_use]
    pub fn with_backoff(mut self, first: Duration, most: Duration) -> Self {
        self.backoff = (first, most.max(first));
        self
    }

    /// Reads the source forever, sending what it hears to `events`; returns once
    /// `events` is closed.
    pub async fn run(self, events: mpsc::Sender<FeedEvent>) {
        let (first, most) = self.backoff;
        let mut wait = first;
        loop {
            let outcome = match &self.source {
                AisSource::Tcp(address) => tcp(address, &events).await,
                AisSource::Udp(address) => udp(*address, &events).await,
            };
            let reason = match outcome {
                Read::ReceiverGone => return,
                Read::Dropped { reason, had_data } => {
                    if had_data {
                        wait = first;
                    }
                    reason
                }
            };
            if events.send(FeedEvent::Down(reason)).await.is_err() {
                return;
            }
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(most);
        }
    }
}

/// How a connection ended.
enum Read {
    ReceiverGone,
    Dropped { reason: String, had_data: bool },
}

async fn tcp(address: &str, events: &mpsc::Sender<FeedEvent>) -> Read {
    let stream = match TcpStream::connect(address).await {
        Ok(stream) => stream,
        Err(error) => return dropped(format!("cannot connect: {error}"), false),
    };
    if events.send(FeedEvent::Up).await.is_err() {
        return Read::ReceiverGone;
    }
    let mut reader = BufReader::new(stream);
    let mut buffer = Vec::with_capacity(LINE_MAX);
    let mut had_data = false;
    loop {
        buffer.clear();
        match (&mut reader)
            .take(LINE_MAX as u64 + 1)
            .read_until(b'\n', &mut buffer)
            .await
        {
            Ok(0) => return dropped("the server closed the connection".into(), had_data),
            Ok(_) => {}
            Err(error) => return dropped(format!("read failed: {error}"), had_data),
        }
        had_data = true;
        if buffer.last() != Some(&b'\n') && buffer.len() > LINE_MAX {
            // Too long for a sentence: the rest of the line is skipped as it arrives,
            // never held, and what was read goes on to be reported broken.
            if let Err(error) = skip_line(&mut reader).await {
                return dropped(format!("read failed: {error}"), had_data);
            }
        }
        let line = String::from_utf8_lossy(&buffer).trim_end().to_owned();
        if !line.is_empty() && events.send(FeedEvent::Line(line)).await.is_err() {
            return Read::ReceiverGone;
        }
    }
}

/// Reads past the end of the current line (or to the end of the stream).
async fn skip_line(reader: &mut BufReader<TcpStream>) -> std::io::Result<()> {
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(());
        }
        match available.iter().position(|byte| *byte == b'\n') {
            Some(end) => {
                reader.consume(end + 1);
                return Ok(());
            }
            None => {
                let all = available.len();
                reader.consume(all);
            }
        }
    }
}

async fn udp(address: SocketAddr, events: &mpsc::Sender<FeedEvent>) -> Read {
    let socket = match UdpSocket::bind(address).await {
        Ok(socket) => socket,
        Err(error) => return dropped(format!("cannot listen: {error}"), false),
    };
    if events.send(FeedEvent::Up).await.is_err() {
        return Read::ReceiverGone;
    }
    let mut datagram = vec![0u8; 65_536];
    loop {
        let size = match socket.recv(&mut datagram).await {
            Ok(size) => size,
            Err(error) => return dropped(format!("receive failed: {error}"), true),
        };
        let text = String::from_utf8_lossy(&datagram[..size]);
        for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
            if events.send(FeedEvent::Line(line.to_owned())).await.is_err() {
                return Read::ReceiverGone;
            }
        }
    }
}

fn dropped(reason: String, had_data: bool) -> Read {
    Read::Dropped { reason, had_data }
}

#[cfg(test)]
mod tests;
