//! What AIS feeds told of vessels: each transponder's identity and latest position
//! (`ais_vessels`), its thinned track (`ais_positions`), and the vessels a feed names by
//! IMO number added to the reference records, so `/v2/vessels/{imo}` answers a vessel no
//! carrier named yet. Coordinates are kept as whole micro-degrees, speed and course in
//! tenths, times as Unix seconds.

use std::collections::BTreeMap;

use async_trait::async_trait;
use tidemark_domain::vessel::{HeardVessel, Mmsi, Position, StaticData};
use tidemark_domain::{AccountId, ReferenceKind, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query, Row, Unit, Value};

/// What one flush of a feed reader writes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AisBatch {
    /// Positions heard; each vessel's latest becomes its position (unless a later one is
    /// stored).
    pub positions: Vec<Position>,
    /// Positions kept on the tracks (already thinned).
    pub track: Vec<Position>,
    /// Static data heard (a vessel's latest wins).
    pub statics: Vec<StaticData>,
}

impl AisBatch {
    /// Whether there is nothing to write.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty() && self.track.is_empty() && self.statics.is_empty()
    }

    /// The batch as batches of at most `rows` rows each (static data first, then latest
    /// positions, then track points), so that no one write, nor the building of its
    /// statements, takes long.
    #[must_use]
    pub fn split(self, rows: usize) -> Vec<Self> {
        let rows = rows.max(1);
        let mut parts = vec![Self::default()];
        let mut room = rows;
        let mut take = |parts: &mut Vec<Self>, put: &mut dyn FnMut(&mut Self)| {
            if room == 0 {
                parts.push(Self::default());
                room = rows;
            }
            room -= 1;
            if let Some(last) = parts.last_mut() {
                put(last);
            }
        };
        for data in self.statics {
            let mut data = Some(data);
            take(&mut parts, &mut |part| part.statics.extend(data.take()));
        }
        for position in self.positions {
            take(&mut parts, &mut |part| part.positions.push(position));
        }
        for point in self.track {
            take(&mut parts, &mut |part| part.track.push(point));
        }
        parts.retain(|part| !part.is_empty());
        parts
    }
}

/// Vessels' positions and identities heard on AIS feeds.
#[async_trait]
pub trait AisStore: Send + Sync {
    /// Writes a batch in one transaction.
    async fn record_ais(&self, batch: &AisBatch) -> Result<(), StoreError>;

    /// Forgets up to `limit` track points from before `before`; how many went.
    async fn forget_track(&self, before: Timestamp, limit: u32) -> Result<u64, StoreError>;

    /// The transponder that last said it is the vessel with this IMO number, and its
    /// latest position.
    async fn heard_vessel(&self, imo: &str) -> Result<Option<HeardVessel>, StoreError> {
        Ok(self
            .heard_vessels(&[imo.to_owned()])
            .await?
            .into_iter()
            .next())
    }

    /// The transponders that last said they are the vessels with these IMO numbers (one
    /// per number, in no order), with their latest positions.
    async fn heard_vessels(&self, imos: &[String]) -> Result<Vec<HeardVessel>, StoreError>;

    /// The vessels carrying `account`'s shipments at sea (`Shipment::sailing_vessel`)
    /// that a feed heard since `since`, with how many of its shipments each carries, the
    /// most laden first, at most `limit`.
    async fn vessels_at_sea(
        &self,
        account: AccountId,
        since: Timestamp,
        limit: u32,
    ) -> Result<Vec<(HeardVessel, u64)>, StoreError>;

    /// A transponder's track points from `from` to `to`, oldest first, at most `limit`.
    async fn track(
        &self,
        mmsi: Mmsi,
        (from, to): (Timestamp, Timestamp),
        limit: u32,
    ) -> Result<Vec<Position>, StoreError>;
}

const POSITION: &str = "latitude_e6, longitude_e6, speed_dk, course_dd, heading";

fn scaled(value: Option<f64>, by: f64) -> Value {
    // Coordinates and speeds are range-checked by `Position::read`: far inside i64.
    #[allow(clippy::cast_possible_truncation)]
    Value::Int(value.map(|value| (value * by).round() as i64))
}

fn position_values(position: &Position) -> Vec<Value> {
    vec![
        Value::from(i64::from(position.mmsi.get())),
        Value::from(position.at.unix_seconds()),
        scaled(Some(position.latitude), 1e6),
        scaled(Some(position.longitude), 1e6),
        scaled(position.speed_knots, 10.0),
        scaled(position.course_degrees, 10.0),
        scaled(position.heading_degrees, 1.0),
    ]
}

/// Each vessel's latest of `items`, in MMSI order (so writers lock rows in one order).
fn latest<T>(items: &[T], key: impl Fn(&T) -> (Mmsi, Timestamp)) -> BTreeMap<Mmsi, &T> {
    let mut by_vessel: BTreeMap<Mmsi, &T> = BTreeMap::new();
    for item in items {
        let (mmsi, at) = key(item);
        match by_vessel.get(&mmsi) {
            Some(kept) if key(kept).1 > at => {}
            _ => {
                by_vessel.insert(mmsi, item);
            }
        }
    }
    by_vessel
}

fn writes(batch: &AisBatch) -> Vec<Query> {
    let mut queries = Vec::new();
    let statics = latest(&batch.statics, |data| (data.mmsi, data.at));
    let mut vessels: BTreeMap<&str, Option<&str>> = BTreeMap::new();
    for data in statics.values() {
        if let Some(imo) = &data.imo {
            let name = vessels.entry(imo).or_default();
            *name = data.name.as_deref().or(*name);
        }
    }
    queries.extend(Query::insert_rows(
        "INSERT INTO vessels (id, imo, name, updated_at) VALUES ",
        vessels.into_iter().map(|(imo, name)| {
            let at = statics.values().map(|data| data.at).max();
            vec![
                ReferenceKind::Vessel.id(imo).into(),
                imo.into(),
                name.into(),
                at.into(),
            ]
        }),
        " ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at \
         WHERE vessels.name IS NULL AND excluded.name IS NOT NULL",
    ));
    queries.extend(Query::insert_rows(
        "INSERT INTO ais_vessels (mmsi, imo, name, static_at) VALUES ",
        statics.values().map(|data| {
            vec![
                Value::from(i64::from(data.mmsi.get())),
                data.imo.clone().into(),
                data.name.clone().into(),
                Value::from(data.at.unix_seconds()),
            ]
        }),
        " ON CONFLICT (mmsi) DO UPDATE SET imo = COALESCE(excluded.imo, ais_vessels.imo), \
         name = COALESCE(excluded.name, ais_vessels.name), static_at = excluded.static_at",
    ));
    let positions = latest(&batch.positions, |position| (position.mmsi, position.at));
    queries.extend(Query::insert_rows(
        &format!("INSERT INTO ais_vessels (mmsi, position_at, {POSITION}) VALUES "),
        positions.values().map(|position| position_values(position)),
        " ON CONFLICT (mmsi) DO UPDATE SET position_at = excluded.position_at, \
         latitude_e6 = excluded.latitude_e6, longitude_e6 = excluded.longitude_e6, \
         speed_dk = excluded.speed_dk, course_dd = excluded.course_dd, \
         heading = excluded.heading \
         WHERE ais_vessels.position_at IS NULL OR ais_vessels.position_at <= excluded.position_at",
    ));
    queries.extend(Query::insert_rows(
        &format!("INSERT INTO ais_positions (mmsi, at, {POSITION}) VALUES "),
        batch.track.iter().map(position_values),
        " ON CONFLICT DO NOTHING",
    ));
    queries
}

fn mmsi_of(row: &Row) -> Result<Mmsi, StoreError> {
    let number = row.int("mmsi")?;
    u32::try_from(number)
        .ok()
        .and_then(Mmsi::new)
        .ok_or_else(|| StoreError::corrupt(format!("mmsi {number}")))
}

fn parse_position(row: &Row, at_column: &str) -> Result<Option<Position>, StoreError> {
    let (Some(at), Some(latitude), Some(longitude)) = (
        row.int_opt(at_column)?,
        row.int_opt("latitude_e6")?,
        row.int_opt("longitude_e6")?,
    ) else {
        return Ok(None);
    };
    let mmsi = mmsi_of(row)?;
    let at = Timestamp::from_unix_micros(at.saturating_mul(1_000_000))
        .ok_or_else(|| StoreError::corrupt(format!("{at_column} {at} out of range")))?;
    #[allow(clippy::cast_precision_loss)]
    let unscaled = |value: Option<i64>, by: f64| value.map(|value| value as f64 / by);
    Ok(Position::read(
        mmsi,
        at,
        [
            unscaled(Some(latitude), 1e6),
            unscaled(Some(longitude), 1e6),
            unscaled(row.int_opt("speed_dk")?, 10.0),
            unscaled(row.int_opt("course_dd")?, 10.0),
            unscaled(row.int_opt("heading")?, 1.0),
        ],
    ))
}

#[async_trait]
impl<T: Backend> AisStore for T {
    async fn record_ais(&self, batch: &AisBatch) -> Result<(), StoreError> {
        if batch.is_empty() {
            return Ok(());
        }
        self.write(Unit::retry_safe(writes(batch))).await.map(drop)
    }

    async fn forget_track(&self, before: Timestamp, limit: u32) -> Result<u64, StoreError> {
        let mut query = Query::new(
            "DELETE FROM ais_positions WHERE (mmsi, at) IN \
             (SELECT mmsi, at FROM ais_positions WHERE at < ",
        );
        query
            .bind(before.unix_seconds())
            .push(" ORDER BY at LIMIT ")
            .bind(i64::from(limit))
            .push(")");
        self.execute(query).await
    }

    async fn heard_vessels(&self, imos: &[String]) -> Result<Vec<HeardVessel>, StoreError> {
        if imos.is_empty() {
            return Ok(Vec::new());
        }
        let mut query = Query::new(&format!(
            "SELECT mmsi, imo, name, position_at, {POSITION} FROM ais_vessels WHERE imo IN "
        ));
        query
            .bind_list(imos.iter().map(String::as_str))
            .push(" ORDER BY imo, position_at IS NULL, position_at DESC, mmsi");
        let mut heard: Vec<HeardVessel> = Vec::new();
        for row in self.fetch(&query).await? {
            let imo = row.text("imo")?;
            // Two transponders that say they are one vessel: the later heard stands.
            if heard.last().is_some_and(|known| known.imo == imo) {
                continue;
            }
            heard.push(HeardVessel {
                mmsi: mmsi_of(&row)?,
                imo,
                name: row.text("name")?,
                position: parse_position(&row, "position_at")?,
            });
        }
        Ok(heard)
    }

    async fn vessels_at_sea(
        &self,
        account: AccountId,
        since: Timestamp,
        limit: u32,
    ) -> Result<Vec<(HeardVessel, u64)>, StoreError> {
        let mut query = Query::new(
            "SELECT v.mmsi, v.imo, v.name, v.position_at, v.latitude_e6, v.longitude_e6, \
             v.speed_dk, v.course_dd, v.heading, s.shipments \
             FROM (SELECT sailing_vessel_imo AS imo, COUNT(*) AS shipments FROM shipments \
             WHERE account_id = ",
        );
        query
            .bind(account.as_uuid())
            .push(
                " AND sailing_vessel_imo IS NOT NULL GROUP BY sailing_vessel_imo) s \
                 JOIN ais_vessels v ON v.imo = s.imo WHERE v.position_at >= ",
            )
            .bind(since.unix_seconds())
            .push(" ORDER BY s.shipments DESC, v.imo, v.position_at DESC, v.mmsi LIMIT ")
            .bind(i64::from(limit));
        let mut vessels: Vec<(HeardVessel, u64)> = Vec::new();
        for row in self.fetch(&query).await? {
            let imo = row.text("imo")?;
            // Two transponders that say they are one vessel: the later heard stands.
            if vessels.iter().any(|(known, _)| known.imo == imo) {
                continue;
            }
            let shipments = row.int_opt("shipments")?.unwrap_or(0);
            vessels.push((
                HeardVessel {
                    mmsi: mmsi_of(&row)?,
                    imo,
                    name: row.text("name")?,
                    position: parse_position(&row, "position_at")?,
                },
                u64::try_from(shipments).unwrap_or(0),
            ));
        }
        Ok(vessels)
    }

    async fn track(
        &self,
        mmsi: Mmsi,
        (from, to): (Timestamp, Timestamp),
        limit: u32,
    ) -> Result<Vec<Position>, StoreError> {
        let mut query = Query::new(&format!(
            "SELECT mmsi, at, {POSITION} FROM ais_positions WHERE mmsi = "
        ));
        query
            .bind(i64::from(mmsi.get()))
            .push(" AND at >= ")
            .bind(from.unix_seconds())
            .push(" AND at <= ")
            .bind(to.unix_seconds())
            .push(" ORDER BY at LIMIT ")
            .bind(i64::from(limit));
        let mut points = Vec::new();
        for row in self.fetch(&query).await? {
            points.extend(parse_position(&row, "at")?);
        }
        Ok(points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_splits_into_parts_of_at_most_so_many_rows_keeping_every_row() {
        let mmsi = Mmsi::new(477_123_400).expect("an MMSI");
        let at = |s: i64| Timestamp::from_unix_micros(s * 1_000_000).expect("in range");
        let position = |s| Position::read(mmsi, at(s), [Some(1.0), Some(2.0), None, None, None]);
        let batch = AisBatch {
            positions: (0..3).filter_map(position).collect(),
            track: (0..4).filter_map(position).collect(),
            statics: vec![StaticData::read(mmsi, at(0), Some(9_301_366), Some("A"))],
        };
        let parts = batch.clone().split(3);
        assert_eq!(
            parts
                .iter()
                .map(|p| (p.statics.len(), p.positions.len(), p.track.len()))
                .collect::<Vec<_>>(),
            [(1, 2, 0), (0, 1, 2), (0, 0, 2)]
        );
        let whole = batch.clone().split(100);
        assert_eq!(whole, vec![batch]);
        assert!(AisBatch::default().split(10).is_empty());
    }
}
