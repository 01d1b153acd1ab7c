//! Where ships can sail, and how far: the maritime network Tidemark bundles
//! (`data/maps/sea_routes.txt`, from the `searoute` package's MARNET), the shortest sea
//! route between two points over it ([`Network::route`]), points along a route by
//! distance ([`Route::at`]), and the land a map draws (`data/maps/land.txt`, Natural
//! Earth's 1:110m, [`land`]). Distances are in nautical miles, as speeds are in knots.
//!
//! No I/O and nothing of Tidemark's: the data is compiled in, read on first use. Tidemark's
//! domain routes its vessels over it; the carrier simulator sails its vessels over it, as
//! real ships follow the lanes this network was drawn from.

mod geo;
mod network;
mod route;

pub use geo::{EARTH_RADIUS_NM, Point};
pub use network::Network;
pub use route::Route;

use std::sync::LazyLock;

static LAND: LazyLock<Vec<Vec<Point>>> =
    LazyLock::new(|| geo::polylines(include_str!("../../../data/maps/land.txt")));

/// Natural Earth's 1:110m land, one ring per polygon part (the first point repeated
/// last), for drawing.
#[must_use]
pub fn land() -> &'static [Vec<Point>] {
    &LAND
}
