//! The bundled tables' rows: tab-separated, a header line first, every field borrowed
//! from the bundled text.

/// A sea port or an inland place.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Locality {
    /// UN/LOCODE.
    pub locode: &'static str,
    /// Its name (UN/LOCODE's).
    pub name: &'static str,
    /// ISO 3166-1 country code.
    pub country: &'static str,
    /// UN/LOCODE's subdivision (a US state's abbreviation); empty when none.
    pub subdivision: &'static str,
    /// Latitude, degrees north.
    pub latitude: f64,
    /// Longitude, degrees east.
    pub longitude: f64,
    /// IANA time zone.
    pub time_zone: &'static str,
}

/// A terminal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Facility {
    /// Its port's UN/LOCODE.
    pub port: &'static str,
    /// SMDG terminal code; empty when the SMDG lists none.
    pub smdg_code: &'static str,
    /// US CBP FIRMS code; empty when none is known.
    pub firms_code: &'static str,
    /// Its name.
    pub name: &'static str,
    /// A short name; empty when none is known.
    pub nickname: &'static str,
    /// The company operating it; empty when none is known.
    pub company: &'static str,
    /// Its address, as one line; empty when none is known.
    pub address: &'static str,
    /// Its city.
    pub city: &'static str,
    /// A US state's abbreviation; empty elsewhere.
    pub state_abbr: &'static str,
    /// Latitude, when known.
    pub latitude: Option<f64>,
    /// Longitude, when known.
    pub longitude: Option<f64>,
    /// IANA time zone.
    pub time_zone: &'static str,
}

impl Facility {
    /// The code carriers name it by: its SMDG code, else its FIRMS code.
    #[must_use]
    pub fn code(&self) -> &'static str {
        if self.smdg_code.is_empty() {
            self.firms_code
        } else {
            self.smdg_code
        }
    }
}

/// The rows of `text` after its header, each as `N` fields; on a malformed row, its line.
fn rows<const N: usize>(text: &'static str) -> Result<Vec<[&'static str; N]>, usize> {
    text.lines()
        .enumerate()
        .skip(1)
        .map(|(index, line)| {
            let fields: Vec<&'static str> = line.split('\t').collect();
            <[&'static str; N]>::try_from(fields).map_err(|_| index + 1)
        })
        .collect()
}

fn degrees(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|value| value.is_finite())
}

/// One row of ports or metro areas: `locode name country subdivision latitude longitude
/// time_zone`; `None` when malformed.
fn locality(line: &'static str) -> Option<Locality> {
    let fields: Vec<&'static str> = line.split('\t').collect();
    let [locode, name, country, subdivision, lat, lon, zone] =
        <[&str; 7]>::try_from(fields).ok()?;
    let (latitude, longitude) = (degrees(lat)?, degrees(lon)?);
    (locode.len() == 5 && !zone.is_empty()).then_some(Locality {
        locode,
        name,
        country,
        subdivision,
        latitude,
        longitude,
        time_zone: zone,
    })
}

/// A table of ports or metro areas kept compact: the bundled text and where each row
/// starts, sorted by UN/LOCODE; a row is read when asked for.
#[derive(Debug)]
pub(super) struct Localities {
    text: &'static str,
    starts: Vec<u32>,
}

impl Localities {
    /// The row starting at `start`.
    fn row(&self, start: u32) -> Option<Locality> {
        let rest = self.text.get(usize::try_from(start).ok()?..)?;
        locality(rest.lines().next()?)
    }

    /// The place with `locode` (any case).
    pub(super) fn find(&self, locode: &str) -> Option<Locality> {
        let wanted = locode.to_ascii_uppercase();
        let key = |start: &u32| {
            let at = usize::try_from(*start).unwrap_or(usize::MAX);
            self.text.get(at..at.saturating_add(5)).unwrap_or("")
        };
        let index = self
            .starts
            .binary_search_by(|start| key(start).cmp(wanted.as_str()))
            .ok()?;
        self.row(self.starts[index])
    }

    /// Every place, in UN/LOCODE order.
    pub(super) fn iter(&self) -> impl Iterator<Item = Locality> + '_ {
        self.starts.iter().filter_map(|start| self.row(*start))
    }

    /// How many places it holds.
    pub(super) fn len(&self) -> usize {
        self.starts.len()
    }
}

/// Ports or metro areas, every row checked once (well formed, sorted by UN/LOCODE, no
/// code twice); on a malformed row, its line.
pub(super) fn localities(text: &'static str) -> Result<Localities, usize> {
    let mut starts = Vec::new();
    let mut offset = 0usize;
    let mut last: Option<&str> = None;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        if index == 0 {
            continue;
        }
        let row = locality(line.trim_end_matches('\n')).ok_or(index + 1)?;
        if last.is_some_and(|previous| previous >= row.locode) {
            return Err(index + 1);
        }
        last = Some(row.locode);
        starts.push(u32::try_from(start).map_err(|_| index + 1)?);
    }
    Ok(Localities { text, starts })
}

/// Terminals: `port smdg_code firms_code name nickname company address city state_abbr
/// latitude longitude time_zone`.
pub(super) fn facilities(text: &'static str) -> Result<Vec<Facility>, usize> {
    rows::<12>(text)?
        .into_iter()
        .enumerate()
        .map(
            |(
                index,
                [
                    port,
                    smdg,
                    firms,
                    name,
                    nickname,
                    company,
                    address,
                    city,
                    state,
                    lat,
                    lon,
                    zone,
                ],
            )| {
                if port.len() != 5 || name.is_empty() || (smdg.is_empty() && firms.is_empty()) {
                    return Err(index + 2);
                }
                Ok(Facility {
                    port,
                    smdg_code: smdg,
                    firms_code: firms,
                    name,
                    nickname,
                    company,
                    address,
                    city,
                    state_abbr: state,
                    latitude: degrees(lat),
                    longitude: degrees(lon),
                    time_zone: zone,
                })
            },
        )
        .collect()
}
