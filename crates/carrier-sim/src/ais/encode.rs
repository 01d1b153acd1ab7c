//! AIS messages as a transponder sends them: the bits of message types 1 (a position
//! report) and 5 (static and voyage data) per ITU-R M.1371, armoured six bits a character
//! into `!AIVDM` sentences with their checksums, behind a tag block that says when they
//! were received (`c:`, Unix seconds), as a receiver such as AIS-catcher writes them.

/// Bits, most significant first.
#[derive(Debug, Default)]
struct Bits(Vec<bool>);

impl Bits {
    fn push(&mut self, value: u64, width: usize) {
        for shift in (0..width).rev() {
            self.0.push((value >> shift) & 1 == 1);
        }
    }

    fn push_signed(&mut self, value: i64, width: usize) {
        // Two's complement in `width` bits.
        #[allow(clippy::cast_sign_loss)]
        self.push((value as u64) & ((1 << width) - 1), width);
    }

    /// Six-bit ASCII, padded with `@` to `chars` characters.
    fn push_text(&mut self, text: &str, chars: usize) {
        let mut codes = text.bytes().map(|byte| match byte.to_ascii_uppercase() {
            code @ 64..=95 => u64::from(code - 64),
            code @ 32..=63 => u64::from(code),
            _ => 32,
        });
        for _ in 0..chars {
            self.push(codes.next().unwrap_or(0), 6);
        }
    }

    /// The armoured payload and its fill bits.
    fn armour(&self) -> (String, usize) {
        let fill = (6 - self.0.len() % 6) % 6;
        let mut payload = String::with_capacity(self.0.len() / 6 + 1);
        for chunk in self.0.chunks(6) {
            let mut value = 0u8;
            for bit in 0..6 {
                value = (value << 1) | u8::from(chunk.get(bit).copied().unwrap_or(false));
            }
            let armoured = if value < 40 { value + 48 } else { value + 56 };
            payload.push(char::from(armoured));
        }
        (payload, fill)
    }
}

/// The NMEA checksum of a sentence's body (between `!` or `\` and `*`).
fn checksum(body: &str) -> u8 {
    body.bytes().fold(0, |sum, byte| sum ^ byte)
}

/// The sentences of one message, each behind a tag block received at `at`.
fn sentences(bits: &Bits, sequence: u8, at: i64) -> Vec<String> {
    let (payload, fill) = bits.armour();
    let parts: Vec<&str> = payload
        .as_bytes()
        .chunks(60)
        .map(|chunk| std::str::from_utf8(chunk).unwrap_or_default())
        .collect();
    let count = parts.len();
    let tag = format!("c:{at}");
    let tag = format!("\\{tag}*{:02X}\\", checksum(&tag));
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let last = i + 1 == count;
            let id = if count > 1 {
                sequence.to_string()
            } else {
                String::new()
            };
            let body = format!(
                "AIVDM,{count},{},{id},A,{part},{}",
                i + 1,
                if last { fill } else { 0 }
            );
            format!("{tag}!{body}*{:02X}", checksum(&body))
        })
        .collect()
}

/// A position report: where a vessel is, how fast and which way it goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Report {
    /// The transponder's identity.
    pub mmsi: u32,
    /// Degrees north.
    pub latitude: f64,
    /// Degrees east.
    pub longitude: f64,
    /// Knots over ground.
    pub speed: f64,
    /// Degrees, course and heading alike.
    pub course: f64,
    /// Under way (0) or moored (5).
    pub moored: bool,
}

/// Message type 1's sentence for `report`, received at Unix second `at`.
#[must_use]
pub fn position(report: &Report, at: i64) -> String {
    let mut bits = Bits::default();
    bits.push(1, 6);
    bits.push(0, 2);
    bits.push(u64::from(report.mmsi), 30);
    bits.push(if report.moored { 5 } else { 0 }, 4);
    bits.push_signed(-128, 8);
    // The report's values are a simulated vessel's, far inside each field's range.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    {
        bits.push((report.speed * 10.0).round().clamp(0.0, 1_022.0) as u64, 10);
        bits.push(1, 1);
        bits.push_signed((report.longitude * 600_000.0).round() as i64, 28);
        bits.push_signed((report.latitude * 600_000.0).round() as i64, 27);
        bits.push(
            (report.course * 10.0).round().rem_euclid(3_600.0) as u64,
            12,
        );
        bits.push(report.course.round().rem_euclid(360.0) as u64, 9);
        bits.push(at.rem_euclid(60) as u64, 6);
    }
    bits.push(0, 2);
    bits.push(0, 3);
    bits.push(0, 1);
    bits.push(0, 19);
    sentences(&bits, 0, at).remove(0)
}

/// Who a vessel is, as message type 5 says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity<'a> {
    /// The transponder's identity.
    pub mmsi: u32,
    /// IMO number.
    pub imo: u32,
    /// Call sign.
    pub call_sign: &'a str,
    /// Name.
    pub name: &'a str,
    /// Where it is bound (a UN/LOCODE).
    pub destination: &'a str,
}

/// Message type 5's two sentences for `identity`, received at `at`; `sequence` (0 to 9)
/// tells its fragments from another message's.
#[must_use]
pub fn static_data(identity: &Identity<'_>, sequence: u8, at: i64) -> Vec<String> {
    let mut bits = Bits::default();
    bits.push(5, 6);
    bits.push(0, 2);
    bits.push(u64::from(identity.mmsi), 30);
    bits.push(0, 2);
    bits.push(u64::from(identity.imo), 30);
    bits.push_text(identity.call_sign, 7);
    bits.push_text(identity.name, 20);
    bits.push(71, 8);
    bits.push(300, 9);
    bits.push(66, 9);
    bits.push(25, 6);
    bits.push(26, 6);
    bits.push(1, 4);
    bits.push(0, 4);
    bits.push(0, 5);
    bits.push(24, 5);
    bits.push(60, 6);
    bits.push(145, 8);
    bits.push_text(identity.destination, 20);
    bits.push(0, 1);
    bits.push(0, 1);
    sentences(&bits, sequence % 10, at)
}
