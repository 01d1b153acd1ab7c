//! The decoder against sentences an independent library made: `fixtures/ais/`, written
//! by pyais (`fixtures/ais/make.py`), with what pyais decodes from each message.

use serde_json::Value;
use tidemark_domain::Timestamp;
use tidemark_domain::vessel::Heard;

use super::{Decoded, Decoder};

fn fixture(name: &str) -> String {
    let path = format!("{}/../../fixtures/ais/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"))
}

fn now() -> Timestamp {
    Timestamp::from_unix_micros(1_800_000_000_000_000).expect("in range")
}

fn decode_all(text: &str) -> Vec<Decoded> {
    let mut decoder = Decoder::new();
    text.lines().map(|line| decoder.line(line, now())).collect()
}

fn number(value: &Value) -> Option<f64> {
    value.as_f64()
}

fn close(ours: Option<f64>, theirs: Option<f64>, what: &str) {
    match (ours, theirs) {
        (Some(a), Some(b)) => assert!((a - b).abs() < 1e-3, "{what}: {a} against pyais' {b}"),
        (a, b) => assert_eq!(a, b, "{what}"),
    }
}

#[test]
fn every_message_pyais_made_decodes_as_pyais_reads_it() {
    let expected: Value = serde_json::from_str(&fixture("pyais.json")).expect("JSON");
    let expected = expected["messages"].as_array().expect("messages");
    let whole: Vec<Decoded> = decode_all(&fixture("pyais.nmea"))
        .into_iter()
        .filter(|decoded| *decoded != Decoded::Partial)
        .collect();
    assert_eq!(whole.len(), expected.len(), "{whole:#?}");
    for (decoded, theirs) in whole.iter().zip(expected) {
        let mmsi = theirs["mmsi"].as_u64().expect("an MMSI");
        match decoded {
            Decoded::Heard(Heard::Position(position)) => {
                assert_eq!(u64::from(position.mmsi.get()), mmsi);
                assert_eq!(position.at, now());
                close(Some(position.latitude), number(&theirs["lat"]), "latitude");
                close(
                    Some(position.longitude),
                    number(&theirs["lon"]),
                    "longitude",
                );
                let speed = number(&theirs["speed"]).filter(|speed| *speed < 102.3);
                close(position.speed_knots, speed, "speed");
                let course = number(&theirs["course"]).filter(|course| *course < 360.0);
                close(position.course_degrees, course, "course");
                let heading = number(&theirs["heading"]).filter(|heading| *heading < 360.0);
                close(position.heading_degrees, heading, "heading");
            }
            Decoded::Heard(Heard::Static(data)) => {
                assert_eq!(u64::from(data.mmsi.get()), mmsi);
                let imo = theirs["imo"].as_u64().map(|imo| format!("{imo:07}"));
                assert_eq!(data.imo, imo);
                assert_eq!(data.name.as_deref(), theirs["shipname"].as_str());
            }
            other => panic!("pyais decoded {theirs}, Tidemark {other:?}"),
        }
    }
}

#[test]
fn broken_sentences_are_reported_and_the_next_good_one_still_decodes() {
    let good = fixture("pyais.nmea")
        .lines()
        .nth(2)
        .expect("a position")
        .to_owned();
    let mut decoder = Decoder::new();
    for line in fixture("pyais-broken.nmea").lines() {
        let decoded = decoder.line(line, now());
        assert!(matches!(decoded, Decoded::Broken(_)), "{line}: {decoded:?}");
    }
    for line in [
        "",
        "garbage",
        "!AIVDM",
        "!AIVDM,9,9,9,A,,0*00",
        &"!".repeat(2_000),
    ] {
        assert!(
            matches!(decoder.line(line, now()), Decoded::Broken(_)),
            "{line}"
        );
    }
    assert!(matches!(
        decoder.line(&good, now()),
        Decoded::Heard(Heard::Position(_))
    ));
    assert_eq!(
        decoder.line(
            "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47",
            now()
        ),
        Decoded::Other
    );
}

#[test]
fn a_lost_fragment_spoils_only_its_own_message() {
    let lines: Vec<String> = fixture("pyais.nmea").lines().map(str::to_owned).collect();
    let mut decoder = Decoder::new();
    // The second fragment of the first message never arrives; the next message's first.
    assert_eq!(decoder.line(&lines[0], now()), Decoded::Partial);
    assert!(matches!(decoder.line(&lines[2], now()), Decoded::Heard(_)));
    // A second fragment with no first is refused, not joined to a stale first.
    assert!(matches!(decoder.line(&lines[7], now()), Decoded::Broken(_)));
    // The sequence starts over cleanly.
    assert_eq!(decoder.line(&lines[0], now()), Decoded::Partial);
    assert!(matches!(
        decoder.line(&lines[1], now()),
        Decoded::Heard(Heard::Static(_))
    ));
}

#[test]
fn a_tag_block_says_when_the_sentence_was_received() {
    let line = fixture("pyais.nmea")
        .lines()
        .nth(2)
        .expect("a position")
        .to_owned();
    let mut decoder = Decoder::new();
    let tagged = format!("\\s:station1,c:1700000000*00\\{line}");
    let Decoded::Heard(Heard::Position(position)) = decoder.line(&tagged, now()) else {
        panic!("a position");
    };
    assert_eq!(position.at.unix_seconds(), 1_700_000_000);
    let millis = format!("\\c:1700000000123*00\\{line}");
    let Decoded::Heard(Heard::Position(position)) = decoder.line(&millis, now()) else {
        panic!("a position");
    };
    assert_eq!(position.at.unix_micros(), 1_700_000_000_123_000);
}

proptest::proptest! {
    #[test]
    fn no_line_makes_the_decoder_panic(line in "\\PC{0,120}", tail in "[!A-Za-z0-9,*\\\\:]{0,90}") {
        let mut decoder = Decoder::new();
        decoder.line(&line, now());
        decoder.line(&format!("!AIVDM,2,1,1,A,{tail}"), now());
        decoder.line(&format!("!AIVDM,2,2,1,A,{tail}"), now());
        decoder.line(&tail, now());
    }
}
