//! A container's map as GeoJSON (RFC 7946), as the reference's `map_geojson` draws it: a
//! `FeatureCollection` of the voyage's ports (points, `feature_type: port`), the vessel
//! (`current_vessel`), the path it sailed (`past_vessel_locations`) and the legs ahead
//! (`estimated_partial_leg` from the vessel to its next port, `estimated_full_legs`
//! between the ports after). Longitudes along a line run on across the antimeridian
//! (179, 181 …) so a line is drawn the short way.

use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

/// A GeoJSON feature collection.
#[derive(Debug, Serialize, ToSchema)]
pub struct FeatureCollection {
    /// Always `FeatureCollection`.
    #[serde(rename = "type")]
    #[schema(pattern = "FeatureCollection")]
    pub type_: &'static str,
    /// The features.
    pub features: Vec<Feature>,
}

/// A GeoJSON feature.
#[derive(Debug, Serialize, ToSchema)]
pub struct Feature {
    /// Always `Feature`.
    #[serde(rename = "type")]
    #[schema(pattern = "Feature")]
    pub type_: &'static str,
    /// Where.
    pub geometry: Geometry,
    /// What (`feature_type` says which kind of feature, with the reference's properties).
    #[schema(value_type = Object)]
    pub properties: Map<String, Value>,
}

/// A point or a line, `[longitude, latitude]` pairs.
#[derive(Debug, Serialize, ToSchema)]
#[serde(tag = "type")]
pub enum Geometry {
    /// One position.
    Point {
        /// `[longitude, latitude]`.
        coordinates: [f64; 2],
    },
    /// Positions in order.
    LineString {
        /// `[longitude, latitude]` pairs.
        coordinates: Vec<[f64; 2]>,
    },
}

impl Feature {
    /// A feature at `(latitude, longitude)`.
    #[must_use]
    pub fn point((latitude, longitude): (f64, f64), properties: Map<String, Value>) -> Self {
        Self {
            type_: "Feature",
            geometry: Geometry::Point {
                coordinates: [longitude, latitude],
            },
            properties,
        }
    }

    /// A line through `(latitude, longitude)` points, with `point_count` added to its
    /// properties; `None` for fewer than two points.
    #[must_use]
    pub fn line(points: &[(f64, f64)], mut properties: Map<String, Value>) -> Option<Self> {
        if points.len() < 2 {
            return None;
        }
        let mut coordinates: Vec<[f64; 2]> = Vec::with_capacity(points.len());
        for &(latitude, longitude) in points {
            let longitude = match coordinates.last() {
                Some([previous, _]) => previous + wrapped(longitude - previous),
                None => longitude,
            };
            coordinates.push([longitude, latitude]);
        }
        properties.insert("point_count".into(), Value::from(coordinates.len()));
        Some(Self {
            type_: "Feature",
            geometry: Geometry::LineString { coordinates },
            properties,
        })
    }
}

/// A longitude difference brought within ±180°.
fn wrapped(delta: f64) -> f64 {
    (delta + 540.0).rem_euclid(360.0) - 180.0
}

impl FeatureCollection {
    /// The collection of `features`.
    #[must_use]
    pub fn of(features: Vec<Feature>) -> Self {
        Self {
            type_: "FeatureCollection",
            features,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_across_the_antimeridian_runs_on_the_short_way() {
        let line = Feature::line(&[(0.0, 179.0), (0.0, -179.0), (0.0, -178.0)], Map::new())
            .expect("a line");
        let Geometry::LineString { coordinates } = line.geometry else {
            panic!("a line");
        };
        assert_eq!(coordinates, vec![[179.0, 0.0], [181.0, 0.0], [182.0, 0.0]]);
        assert_eq!(line.properties["point_count"], 3);
        assert!(Feature::line(&[(0.0, 0.0)], Map::new()).is_none());
    }
}
