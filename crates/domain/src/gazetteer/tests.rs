//! The bundled places read whole, and answer for the places the sandbox and real carriers
//! name.

use super::*;

#[test]
fn the_bundled_tables_read_whole_and_sorted() {
    let (ports, metro_areas, terminals) = Gazetteer::bundled().counts();
    assert!(ports > 3_000, "{ports}");
    assert!(metro_areas > 10_000, "{metro_areas}");
    assert!(terminals > 1_000, "{terminals}");
    let header_and_rows = |text: &str| text.lines().count() - 1;
    assert_eq!(ports, header_and_rows(PORTS));
    assert_eq!(metro_areas, header_and_rows(METRO_AREAS));
    assert_eq!(terminals, header_and_rows(TERMINALS));
}

#[test]
fn ports_carry_their_coordinates_and_iana_zone() {
    let places = Gazetteer::bundled();
    for (locode, name, zone, lat, lon) in [
        ("ESVLC", "Valencia", "Europe/Madrid", 39.45, -0.33),
        ("KRPUS", "Busan", "Asia/Seoul", 35.10, 129.04),
        ("CNYTN", "Yantian", "Asia/Shanghai", 22.58, 114.29),
        ("DEHAM", "Hamburg", "Europe/Berlin", 53.55, 9.97),
        ("SGSIN", "Singapore", "Asia/Singapore", 1.24, 103.83),
        (
            "USLAX",
            "Los Angeles",
            "America/Los_Angeles",
            33.72,
            -118.28,
        ),
    ] {
        let port = places.port(locode).unwrap_or_else(|| panic!("{locode}"));
        assert_eq!((port.name, port.time_zone), (name, zone), "{locode}");
        assert!(
            (port.latitude - lat).abs() < 0.1,
            "{locode} {}",
            port.latitude
        );
        assert!(
            (port.longitude - lon).abs() < 0.1,
            "{locode} {}",
            port.longitude
        );
        assert_eq!(port.country, &locode[..2]);
        assert_eq!(places.port(&locode.to_lowercase()), Some(port), "any case");
        assert_eq!(
            places.port_by_id(ReferenceKind::Port.id(locode)),
            Some(port)
        );
        assert_eq!(places.time_zone(locode), Some(zone));
    }
    assert_eq!(places.port("XXXXX"), None);
    assert_eq!(places.port("ES"), None);
}

#[test]
fn no_place_sits_in_a_nautical_zone_but_a_few_offshore_points() {
    let places = Gazetteer::bundled();
    let nautical = places
        .ports
        .iter()
        .filter(|p| p.time_zone.starts_with("Etc/"))
        .count();
    assert!(nautical <= 5, "{nautical} ports in Etc/ zones");
    assert!(
        places
            .metro_areas
            .iter()
            .all(|p| !p.time_zone.starts_with("Etc/"))
    );
}

#[test]
fn every_place_has_a_zone_the_bundled_iana_database_knows() {
    let places = Gazetteer::bundled();
    let zones = places
        .ports
        .iter()
        .chain(places.metro_areas.iter())
        .map(|p| p.time_zone)
        .chain(places.terminals.iter().map(|t| t.time_zone));
    let mut unknown: Vec<&str> = zones
        .filter(|zone| crate::local_time::Zone::named(zone).is_none())
        .collect();
    unknown.dedup();
    assert!(unknown.is_empty(), "{unknown:?}");
}

#[test]
fn inland_places_are_metro_areas_not_ports() {
    let places = Gazetteer::bundled();
    let denver = places.metro_area("USDEN").expect("Denver");
    assert_eq!(denver.time_zone, "America/Denver");
    assert_eq!(denver.subdivision, "CO");
    assert_eq!(places.port("USDEN"), None);
    assert_eq!(places.place("USDEN"), Some(denver));
    assert_eq!(
        places.metro_area_by_id(metro_area_id("USDEN")),
        Some(denver)
    );
    assert_eq!(places.port_by_id(metro_area_id("USDEN")), None);
    assert_eq!(
        places.metro_area("ESVLC"),
        None,
        "a port is not listed twice"
    );
}

#[test]
fn terminals_are_named_by_their_port_and_code() {
    let places = Gazetteer::bundled();
    let cta = places.terminal(Some("DEHAM"), "CTA").expect("Altenwerder");
    assert!(cta.name.contains("ALTENWERDER"), "{}", cta.name);
    assert_eq!(cta.time_zone, "Europe/Berlin");
    assert!(cta.latitude.is_some());
    // APMT is a terminal at Los Angeles and another at New York: the port decides.
    let la = places.terminal(Some("USLAX"), "APMT").expect("Pier 400");
    let ny = places.terminal(Some("USNYC"), "APMT").expect("Elizabeth");
    assert_ne!(la, ny);
    assert_eq!(la.firms_code, "W185");
    assert_eq!(la.nickname, "APMT");
    assert_eq!(la.state_abbr, "CA");
    assert_eq!(
        places.terminal(None, "APMT"),
        None,
        "ambiguous without its port"
    );
    // A FIRMS code finds a US terminal the SMDG does not list.
    let pier_f = places.terminal(Some("USLGB"), "W183").expect("LBCT Pier F");
    assert_eq!(pier_f.code(), "W183");
    assert_eq!(places.terminal(Some("USLGB"), "NOPE"), None);
}

#[test]
fn a_malformed_table_names_its_line() {
    let header = "locode\tname\tcountry\tsubdivision\tlatitude\tlongitude\ttime_zone\n";
    let good = "ESVLC\tValencia\tES\t\t39.45\t-0.33\tEurope/Madrid\n";
    let terminals = "port\ta\tb\tc\td\te\tf\tg\th\ti\tj\tk\n";
    let leak = |text: String| -> &'static str { Box::leak(text.into_boxed_str()) };
    for (ports, line) in [
        (format!("{header}{good}ESBCN\tBarcelona\tES\n"), 3),
        (
            format!("{header}{good}ESBCN\tBarcelona\tES\t\tnorth\t2.1\tEurope/Madrid\n"),
            3,
        ),
        (format!("{header}{good}{good}"), 3),
        (format!("{header}ES\tSpain\tES\t\t1\t1\tEurope/Madrid\n"), 2),
    ] {
        let error = Gazetteer::parse(leak(ports), leak(header.to_owned()), terminals)
            .expect_err("malformed");
        assert_eq!(error, format!("ports.tsv:{line}"));
    }
}
