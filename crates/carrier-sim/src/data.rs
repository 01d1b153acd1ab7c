//! The simulator's reference data: real ports (UN/LOCODE), plausible vessel names, the
//! container prefixes of the large carriers, and the two check digits it must get right
//! (ISO 6346 for containers, IMO for vessels). The simulator is an outside party, so it
//! carries its own copy rather than using Tidemark's.

/// A port: UN/LOCODE, name, the terminal the simulator uses there (its code in the
/// SMDG's terminal list where the list has the port; Shanghai and Qingdao it has not), and
/// where it is (the `searoute` package's port list).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Port {
    /// UN/LOCODE.
    pub locode: &'static str,
    /// Name.
    pub name: &'static str,
    /// An SMDG terminal code at the port.
    pub terminal: &'static str,
    /// Where it is: latitude and longitude in millionths of a degree.
    pub at: (i32, i32),
}

impl Port {
    /// Latitude and longitude in degrees.
    #[must_use]
    pub fn degrees(&self) -> (f64, f64) {
        (f64::from(self.at.0) / 1e6, f64::from(self.at.1) / 1e6)
    }
}

const fn port(
    locode: &'static str,
    name: &'static str,
    terminal: &'static str,
    at: (i32, i32),
) -> Port {
    Port {
        locode,
        name,
        terminal,
        at,
    }
}

/// Ports of loading (Asia).
pub const ORIGINS: &[Port] = &[
    port("CNSHA", "Shanghai", "SIPGY", (31_400_090, 121_497_110)),
    port("CNNGB", "Ningbo", "BLCT1", (29_871_880, 121_559_400)),
    port("CNYTN", "Yantian", "YICT", (22_583_520, 114_292_080)),
    port("KRPUS", "Busan", "PNP", (35_098_200, 129_035_800)),
    port(
        "VNSGN",
        "Ho Chi Minh City",
        "CATLAI",
        (10_826_170, 106_753_000),
    ),
    port("TWKHH", "Kaohsiung", "KAOCT", (22_642_020, 120_271_970)),
    port("CNTAO", "Qingdao", "QQCT", (36_064_990, 120_385_330)),
    port("INNSA", "Nhava Sheva", "NSICT", (18_970_000, 72_930_000)),
];

/// Ports of discharge (Europe and North America).
pub const DESTINATIONS: &[Port] = &[
    port("NLRTM", "Rotterdam", "EMX", (51_904_380, 4_442_450)),
    port("DEHAM", "Hamburg", "CTA", (53_547_720, 9_969_410)),
    port("BEANR", "Antwerp", "K869", (51_202_370, 4_382_900)),
    port("GBFXT", "Felixstowe", "TTY", (51_957_930, 1_344_450)),
    port("USLAX", "Los Angeles", "APMT", (33_716_670, -118_283_330)),
    port("USLGB", "Long Beach", "LBCT", (33_738_580, -118_193_320)),
    port("USNYC", "New York", "PNCT", (40_705_470, -74_017_680)),
    port("USSAV", "Savannah", "GCMT", (32_086_580, -81_099_740)),
    port("ESVLC", "Valencia", "MSCVC", (39_451_070, -330_280)),
    port("CAVAN", "Vancouver", "DLT", (49_308_210, -123_148_840)),
];

/// Transshipment hubs.
pub const HUBS: &[Port] = &[
    port("SGSIN", "Singapore", "PSAPPT", (1_239_210, 103_832_460)),
    port("LKCMB", "Colombo", "CICT", (6_930_830, 79_848_630)),
    port("MYPKG", "Port Klang", "KMT", (3_003_430, 101_382_650)),
    port("AEJEA", "Jebel Ali", "DPWJ2", (25_019_490, 55_051_800)),
    port("PAMIT", "Manzanillo", "MIT", (9_611_590, -79_602_130)),
];

/// Vessel names (invented, shaped like real ones).
pub const VESSEL_NAMES: &[&str] = &[
    "Northern Jubilee",
    "Sea Meridian",
    "Atlantic Crest",
    "Pacific Harmony",
    "Cape Torrent",
    "Ocean Lantern",
    "Maple Horizon",
    "Coral Tide",
    "Baltic Resolve",
    "Amber Voyager",
    "Silver Current",
    "Granite Bay",
    "Eastern Falcon",
    "Harbour Star",
    "Polar Wind",
    "Jade Navigator",
];

/// Two-letter flag states of the vessels.
pub const FLAGS: &[&str] = &["PA", "LR", "MH", "SG", "MT", "HK", "DK", "DE"];

/// Container owner prefixes the simulator puts on a carrier's boxes; other carriers use the
/// first three letters of their SCAC and `U`.
const PREFIXES: &[(&str, &[&str])] = &[
    ("MAEU", &["MSKU", "MRKU", "MAEU"]),
    ("MSCU", &["MSCU", "MEDU", "MSDU"]),
    ("CMDU", &["CMAU", "CGMU", "ECMU"]),
    ("HLCU", &["HLXU", "HLBU", "UACU"]),
    ("COSU", &["CSNU", "CBHU", "CCLU"]),
    ("OOLU", &["OOLU", "OOCU"]),
    ("ONEY", &["ONEU", "NYKU", "MOLU"]),
    ("EGLV", &["EGHU", "EMCU", "EITU"]),
    ("HDMU", &["HDMU", "HMMU"]),
    ("YMLU", &["YMLU", "YMMU"]),
    ("ZIMU", &["ZIMU", "ZCSU"]),
    ("TEST", &["TSTU"]),
];

/// The owner prefixes of `scac`'s boxes.
#[must_use]
pub fn container_prefixes(scac: &str) -> Vec<String> {
    PREFIXES.iter().find(|(code, _)| *code == scac).map_or_else(
        || {
            let owner: String = scac
                .chars()
                .filter(char::is_ascii_alphabetic)
                .take(3)
                .collect();
            let owner = format!("{owner:X<3}");
            vec![format!("{owner}U")]
        },
        |(_, prefixes)| prefixes.iter().map(|p| (*p).to_owned()).collect(),
    )
}

/// ISO 6346 value of a character: digits as such, letters from A = 10 skipping multiples
/// of 11.
fn iso6346_value(c: u8) -> u32 {
    if c.is_ascii_digit() {
        return u32::from(c - b'0');
    }
    // 10, 12, 13 … 21, 23 … 38: counting from 10 and stepping over 11, 22 and 33.
    let value = 10 + u32::from(c.saturating_sub(b'A'));
    value + (value - 1) / 10
}

/// The ISO 6346 check digit of the first ten characters of a container number.
#[must_use]
pub fn iso6346_check_digit(first_ten: &str) -> Option<u8> {
    let bytes = first_ten.as_bytes();
    if bytes.len() != 10 || !bytes.iter().all(u8::is_ascii_alphanumeric) {
        return None;
    }
    let sum: u32 = bytes
        .iter()
        .enumerate()
        .map(|(i, &b)| iso6346_value(b.to_ascii_uppercase()) << i)
        .sum();
    u8::try_from(sum % 11 % 10).ok()
}

/// Whether `text` is an ISO 6346 container number with a correct check digit.
#[must_use]
pub fn is_container_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 11
        && bytes[..4].iter().all(u8::is_ascii_uppercase)
        && bytes[4..].iter().all(u8::is_ascii_digit)
        && iso6346_check_digit(&text[..10]) == Some(bytes[10] - b'0')
}

/// The IMO check digit of a vessel's six-digit base: digits weighted 7 down to 2.
#[must_use]
pub fn imo_check_digit(six: [u8; 6]) -> u8 {
    let sum: u32 = six
        .iter()
        .zip((2..=7).rev())
        .map(|(&d, weight)| u32::from(d) * weight)
        .sum();
    u8::try_from(sum % 10).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_digits_match_published_numbers() {
        // ISO 6346 worked example, and a published IMO number (9074729).
        assert!(is_container_number("CSQU3054383"));
        assert!(!is_container_number("CSQU3054384"));
        assert_eq!(imo_check_digit([9, 0, 7, 4, 7, 2]), 9);
    }

    #[test]
    fn every_carrier_gets_box_prefixes() {
        assert_eq!(container_prefixes("MAEU")[0], "MSKU");
        assert_eq!(container_prefixes("SUDU"), ["SUDU"]);
        assert_eq!(container_prefixes("11DX"), ["DXXU"]);
        for port in ORIGINS.iter().chain(DESTINATIONS).chain(HUBS) {
            assert_eq!(port.locode.len(), 5);
            assert!(port.terminal.len() <= 6);
        }
    }
}
