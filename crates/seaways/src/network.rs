//! The maritime network as a graph, and the shortest sea route over it.

use std::collections::HashMap;
use std::sync::LazyLock;

use petgraph::algo::astar;
use petgraph::graph::{NodeIndex, UnGraph};

use crate::geo::{Point, polylines};
use crate::route::Route;

static BUNDLED: LazyLock<Network> = LazyLock::new(|| {
    Network::from_polylines(&polylines(include_str!(
        "../../../data/maps/sea_routes.txt"
    )))
});

/// Lanes between points; a point where polylines meet is one node.
#[derive(Debug, Clone)]
pub struct Network {
    graph: UnGraph<Point, f64>,
}

impl Network {
    /// The bundled network (`data/maps/sea_routes.txt`), read on first use.
    #[must_use]
    pub fn bundled() -> &'static Self {
        &BUNDLED
    }

    /// A network of these polylines: each consecutive pair of points a lane, weighed by
    /// its length; points equal to 0.00001° are one node.
    #[must_use]
    pub fn from_polylines(lines: &[Vec<Point>]) -> Self {
        let mut graph = UnGraph::new_undirected();
        let mut nodes: HashMap<(i64, i64), NodeIndex> = HashMap::new();
        let mut node = |graph: &mut UnGraph<Point, f64>, point: Point| {
            // Coordinates within ±180° scaled by 1e5 are far inside i64.
            #[allow(clippy::cast_possible_truncation)]
            let key = (
                (point.lat * 1e5).round() as i64,
                (point.lon * 1e5).round() as i64,
            );
            *nodes.entry(key).or_insert_with(|| graph.add_node(point))
        };
        for line in lines {
            for pair in line.windows(2) {
                let (a, b) = (node(&mut graph, pair[0]), node(&mut graph, pair[1]));
                if a != b {
                    graph.add_edge(a, b, pair[0].distance_nm(pair[1]));
                }
            }
        }
        Self { graph }
    }

    /// How many points and lanes the network has.
    #[must_use]
    pub fn size(&self) -> (usize, usize) {
        (self.graph.node_count(), self.graph.edge_count())
    }

    /// The network's point nearest `point`, and how far it is.
    #[must_use]
    pub fn nearest(&self, point: Point) -> Option<(Point, f64)> {
        self.nearest_node(point)
            .map(|(node, distance)| (self.graph[node], distance))
    }

    fn nearest_node(&self, point: Point) -> Option<(NodeIndex, f64)> {
        self.graph
            .node_indices()
            .map(|node| (node, self.graph[node].distance_nm(point)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The shortest sea route from `from` to `to`: to the network's nearest point, along
    /// its lanes, and from its point nearest `to`. `None` when the network is empty.
    #[must_use]
    pub fn route(&self, from: Point, to: Point) -> Option<Route> {
        let (start, _) = self.nearest_node(from)?;
        let (goal, _) = self.nearest_node(to)?;
        let target = self.graph[goal];
        let (_, path) = astar(
            &self.graph,
            start,
            |node| node == goal,
            |edge| *edge.weight(),
            |node| self.graph[node].distance_nm(target),
        )?;
        let mut points = Vec::with_capacity(path.len() + 2);
        points.push(from);
        points.extend(path.into_iter().map(|node| self.graph[node]));
        points.push(to);
        Some(Route::new(points))
    }

    /// The route through `stops` in order (a vessel's next ports), its legs joined.
    #[must_use]
    pub fn route_through(&self, stops: &[Point]) -> Option<Route> {
        let mut legs = stops.windows(2).map(|pair| self.route(pair[0], pair[1]));
        let first = legs.next()??;
        legs.try_fold(first, |route, leg| Some(route.then(&leg?)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn port(lat: f64, lon: f64) -> Point {
        Point::new(lat, lon)
    }

    #[test]
    fn the_bundled_network_is_read_whole() {
        let (points, lanes) = Network::bundled().size();
        assert!(
            points > 9_000 && lanes > 10_000,
            "{points} points, {lanes} lanes"
        );
    }

    #[test]
    fn shanghai_to_rotterdam_goes_by_suez_and_is_about_ten_thousand_miles() {
        let route = Network::bundled()
            .route(port(31.23, 121.90), port(51.95, 4.05))
            .expect("a route");
        let length = route.length_nm();
        // The searoute package finds 10,546 nm over this network, by Suez.
        assert!((length - 10_546.0).abs() < 60.0, "{length}");
        let suez = port(30.0, 32.55);
        let by_suez = route.points().iter().any(|p| p.distance_nm(suez) < 60.0);
        assert!(by_suez, "the route passes the Suez Canal");
    }

    #[test]
    fn a_route_across_the_pacific_crosses_the_antimeridian_the_short_way() {
        let route = Network::bundled()
            .route(port(35.0, 140.0), port(33.7, -118.3))
            .expect("a route");
        let length = route.length_nm();
        // Tokyo Bay to Los Angeles: the searoute package finds 4,862 nm over this network.
        assert!((length - 4_862.0).abs() < 50.0, "{length}");
    }

    #[test]
    fn a_route_through_stops_is_its_legs_joined() {
        let network = Network::bundled();
        let stops = [port(31.23, 121.90), port(1.26, 103.84), port(51.95, 4.05)];
        let through = network.route_through(&stops).expect("a route");
        let first = network.route(stops[0], stops[1]).expect("a leg");
        let second = network.route(stops[1], stops[2]).expect("a leg");
        assert!((through.length_nm() - first.length_nm() - second.length_nm()).abs() < 1e-6);
    }
}
