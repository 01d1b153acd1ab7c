//! The sources over loopback: addresses are read as the operator writes them, a UDP
//! source hears every line of a datagram, a TCP source is reconnected after it drops.

use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, UdpSocket};
use tokio::sync::mpsc;

use super::{AisSource, Feed, FeedEvent};

#[test]
fn sources_are_tcp_or_udp_with_a_host_and_a_port() {
    assert_eq!(
        "tcp://ais.example.com:5631".parse(),
        Ok(AisSource::Tcp("ais.example.com:5631".into()))
    );
    let udp: AisSource = " udp://0.0.0.0:10110 ".parse().expect("a source");
    assert_eq!(udp.to_string(), "udp://0.0.0.0:10110");
    for refused in [
        "ais.example.com:5631",
        "http://a:1",
        "tcp://a",
        "tcp://:1",
        "udp://host:1",
        "tcp://a:99999",
    ] {
        assert!(refused.parse::<AisSource>().is_err(), "{refused}");
    }
}

async fn next(events: &mut mpsc::Receiver<FeedEvent>) -> FeedEvent {
    tokio::time::timeout(Duration::from_secs(10), events.recv())
        .await
        .expect("an event within the deadline")
        .expect("the feed runs")
}

#[tokio::test]
async fn a_udp_source_hears_every_line_of_a_datagram() {
    let probe = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
    let address = probe.local_addr().expect("address");
    drop(probe);
    let (tx, mut events) = mpsc::channel(16);
    let feed = tokio::spawn(Feed::new(AisSource::Udp(address)).run(tx));
    assert_eq!(next(&mut events).await, FeedEvent::Up);
    let sender = UdpSocket::bind("127.0.0.1:0").await.expect("bind");
    sender
        .send_to(b"!AIVDM,first\r\n!AIVDM,second\r\n", address)
        .await
        .expect("sent");
    assert_eq!(
        next(&mut events).await,
        FeedEvent::Line("!AIVDM,first".into())
    );
    assert_eq!(
        next(&mut events).await,
        FeedEvent::Line("!AIVDM,second".into())
    );
    feed.abort();
}

#[tokio::test]
async fn a_tcp_source_that_drops_is_reconnected_and_an_overlong_line_skipped() {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let address = listener.local_addr().expect("address").to_string();
    let (tx, mut events) = mpsc::channel(16);
    let feed = Feed::new(AisSource::Tcp(address))
        .with_backoff(Duration::from_millis(10), Duration::from_millis(20));
    let feed = tokio::spawn(feed.run(tx));
    let (mut first, _) = listener.accept().await.expect("connected");
    assert_eq!(next(&mut events).await, FeedEvent::Up);
    let long = "x".repeat(5_000);
    first
        .write_all(format!("!AIVDM,one\n{long}\n!AIVDM,two\n").as_bytes())
        .await
        .expect("sent");
    drop(first);
    assert_eq!(
        next(&mut events).await,
        FeedEvent::Line("!AIVDM,one".into())
    );
    let FeedEvent::Line(cut) = next(&mut events).await else {
        panic!("the long line, cut");
    };
    assert!(cut.len() <= super::LINE_MAX + 1, "{} bytes", cut.len());
    assert_eq!(
        next(&mut events).await,
        FeedEvent::Line("!AIVDM,two".into())
    );
    assert!(matches!(next(&mut events).await, FeedEvent::Down(_)));
    let (mut second, _) = listener.accept().await.expect("reconnected");
    assert_eq!(next(&mut events).await, FeedEvent::Up);
    second.write_all(b"!AIVDM,three\n").await.expect("sent");
    assert_eq!(
        next(&mut events).await,
        FeedEvent::Line("!AIVDM,three".into())
    );
    feed.abort();
}
