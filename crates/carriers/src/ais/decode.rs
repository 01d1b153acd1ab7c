//! Sentences into what they say of vessels: positions (message types 1–3, 18, 19) and
//! static data (5, 19, 24), fragments put together per channel and sequence, checksums
//! checked. A broken sentence is reported, never a panic: the `ais` crate parses, and
//! this module only routes sentences to it in an order it can take.

use std::collections::HashMap;

use ais::messages::AisMessage;
use ais::messages::static_data_report::MessagePart;
use ais::{AisFragments, AisParser};
use tidemark_domain::Timestamp;
use tidemark_domain::vessel::{Heard, Mmsi, Position, StaticData};

/// The longest line read; an NMEA sentence is at most 82 characters, a tag block adds
/// some.
pub const LINE_MAX: usize = 512;

/// What one line came to.
#[derive(Debug, Clone, PartialEq)]
pub enum Decoded {
    /// A vessel's position or static data.
    Heard(Heard),
    /// A fragment kept until the rest of its message arrives.
    Partial,
    /// A whole message of a kind Tidemark does not keep (base stations, binary messages,
    /// other sentences such as `$GPGGA`).
    Other,
    /// A sentence that cannot be read: a bad checksum, a malformed field, a fragment out
    /// of order.
    Broken(String),
}

/// The fragments under way of one channel and sequence number.
#[derive(Debug, Default)]
struct Assembly {
    parser: AisParser,
    next: u8,
}

/// Decodes one feed's lines, in the order they arrive.
#[derive(Debug, Default)]
pub struct Decoder {
    assemblies: HashMap<(Option<char>, u8), Assembly>,
}

/// The fields that route a sentence: its fragment count and number, sequence, channel.
struct Envelope {
    count: u8,
    number: u8,
    sequence: u8,
    channel: Option<char>,
}

impl Decoder {
    /// A decoder with nothing under way.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// What `line` says, heard at `now` unless its tag block (`c:`) says when.
    pub fn line(&mut self, line: &str, now: Timestamp) -> Decoded {
        let line = line.trim();
        if line.len() > LINE_MAX {
            return Decoded::Broken(format!("a line of {} bytes", line.len()));
        }
        let (tag_time, sentence) = split_tag_block(line);
        let Some(envelope) = envelope(sentence) else {
            return if sentence.starts_with('$') {
                Decoded::Other
            } else {
                Decoded::Broken("not an AIVDM or AIVDO sentence".into())
            };
        };
        let at = tag_time.unwrap_or(now);
        let key = (envelope.channel, envelope.sequence);
        let fragments = if envelope.count <= 1 {
            AisParser::new().parse(line.as_bytes(), true)
        } else {
            let assembly = self.assemblies.entry(key).or_default();
            if envelope.number != 1 && envelope.number != assembly.next {
                assembly.next = 0;
                return Decoded::Broken(format!(
                    "fragment {} of {} out of order",
                    envelope.number, envelope.count
                ));
            }
            let parsed = assembly.parser.parse(line.as_bytes(), true);
            assembly.next = match &parsed {
                Ok(AisFragments::Incomplete(_)) => envelope.number.saturating_add(1),
                _ => 0,
            };
            parsed
        };
        match fragments {
            Ok(AisFragments::Incomplete(_)) => Decoded::Partial,
            Ok(AisFragments::Complete(sentence)) => sentence
                .message
                .map_or(Decoded::Other, |message| heard(&message, at)),
            Err(error) => Decoded::Broken(error.to_string()),
        }
    }
}

/// The tag block's time (`c:`, Unix seconds or milliseconds) and the sentence after it.
fn split_tag_block(line: &str) -> (Option<Timestamp>, &str) {
    let Some(rest) = line.strip_prefix('\\') else {
        return (None, line);
    };
    let Some((block, sentence)) = rest.split_once('\\') else {
        return (None, line);
    };
    let fields = block.split('*').next().unwrap_or_default();
    let time = fields
        .split(',')
        .find_map(|field| field.strip_prefix("c:"))
        .and_then(|value| value.parse::<i64>().ok())
        .and_then(|value| {
            let micros = if value > 100_000_000_000 {
                value.checked_mul(1_000)?
            } else {
                value.checked_mul(1_000_000)?
            };
            Timestamp::from_unix_micros(micros)
        });
    (time, sentence)
}

/// The routing fields of an `!xxVDM`/`!xxVDO` sentence.
fn envelope(sentence: &str) -> Option<Envelope> {
    let mut fields = sentence.split(',');
    let kind = fields.next()?;
    if !(kind.len() == 6
        && kind.starts_with('!')
        && (kind.ends_with("VDM") || kind.ends_with("VDO")))
    {
        return None;
    }
    let count = fields.next()?.parse().ok()?;
    let number = fields.next()?.parse().ok()?;
    let sequence = fields.next()?.parse().unwrap_or(0);
    let channel = fields.next()?.chars().next();
    Some(Envelope {
        count,
        number,
        sequence,
        channel,
    })
}

/// What a decoded message says of a vessel.
fn heard(message: &AisMessage, at: Timestamp) -> Decoded {
    let position = |mmsi: u32, fields: [Option<f64>; 5]| {
        Mmsi::new(mmsi)
            .and_then(|mmsi| Position::read(mmsi, at, fields))
            .map_or(Decoded::Other, |position| {
                Decoded::Heard(Heard::Position(position))
            })
    };
    let identity = |mmsi: u32, imo: Option<u32>, name: Option<&str>| {
        Mmsi::new(mmsi).map_or(Decoded::Other, |mmsi| {
            Decoded::Heard(Heard::Static(StaticData::read(mmsi, at, imo, name)))
        })
    };
    // The same five fields, named alike, in each kind of position report.
    macro_rules! fields {
        ($report:expr) => {
            [
                $report.latitude.map(f64::from),
                $report.longitude.map(f64::from),
                $report.speed_over_ground.map(f64::from),
                $report.course_over_ground.map(f64::from),
                $report.true_heading.map(f64::from),
            ]
        };
    }
    match message {
        AisMessage::PositionReport(report) => position(report.mmsi, fields!(report)),
        AisMessage::StandardClassBPositionReport(report) => position(report.mmsi, fields!(report)),
        AisMessage::ExtendedClassBPositionReport(report) => position(report.mmsi, fields!(report)),
        AisMessage::StaticAndVoyageRelatedData(data) => {
            identity(data.mmsi, Some(data.imo_number), Some(&data.vessel_name))
        }
        AisMessage::StaticDataReport(report) => match &report.message_part {
            MessagePart::PartA { vessel_name } => identity(report.mmsi, None, Some(vessel_name)),
            _ => Decoded::Other,
        },
        _ => Decoded::Other,
    }
}

#[cfg(test)]
mod tests;
