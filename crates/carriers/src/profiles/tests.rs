//! The bundled profiles validate, name carriers the matrix knows, and say what they do not
//! know; a profile out of shape is refused with every problem named.

use tidemark_domain::{CarrierMatrix, Scac};

use super::{AuthStyle, DcsaVersion, Profiles, Push, Quirk};

#[test]
fn the_bundled_profiles_validate_and_name_known_carriers() {
    let profiles = Profiles::bundled().expect("valid");
    let names: Vec<&str> = profiles.iter().map(|(name, _)| name).collect();
    assert_eq!(
        names,
        [
            "cma-cgm",
            "evergreen",
            "hapag-lloyd",
            "hmm",
            "maersk",
            "msc",
            "one",
            "yang-ming",
            "zim"
        ]
    );
    let matrix = CarrierMatrix::bundled().expect("matrix");
    for (name, profile) in profiles.iter() {
        for scac in &profile.scacs {
            let scac = Scac::parse(scac).expect("scac");
            assert!(
                matrix.resolve(&scac).is_some(),
                "{name}: {scac} is in the carrier matrix"
            );
        }
    }
}

#[test]
fn the_profiles_say_what_the_reference_says() {
    let profiles = Profiles::bundled().expect("valid");
    let profile = |name: &str| profiles.get(name).expect(name).clone();
    assert_eq!(
        profile("hapag-lloyd").auth,
        Some(AuthStyle::HeaderPair {
            id_header: "X-IBM-Client-Id".into(),
            secret_header: "X-IBM-Client-Secret".into(),
        })
    );
    assert!(
        profile("hapag-lloyd")
            .quirks
            .contains(&Quirk::NotManifested500)
    );
    assert_eq!(profile("hapag-lloyd").per_day, Some(6_000));
    assert!(matches!(
        profile("maersk").auth,
        Some(AuthStyle::Oauth2WithKey { ref key_header, .. }) if key_header == "Consumer-Key"
    ));
    assert_eq!(
        profile("hmm").filters,
        [["carrierBookingReference", "equipmentReference"]]
    );
    assert_eq!(profile("yang-ming").dcsa_version, DcsaVersion::V1_1);
    assert!(profile("evergreen").quirks.contains(&Quirk::PlanForPln));
    assert_eq!(profile("msc").per_second, Some(4));
    assert_eq!(profile("hapag-lloyd").push, Push::None);
    // Not public: left out, and said so.
    let one = profile("one");
    assert!(one.base_url.is_none() && one.auth.is_none());
    assert!(!one.unverified.is_empty());
}

#[test]
fn a_profile_out_of_shape_is_refused_with_every_problem_named() {
    let text = r#"
        [profiles.Bad_Name]
        name = "Bad"
        scacs = ["MAEU", "TOOLONG"]
        dcsa_version = "2.2"
        base_url = "ftp://example.com"
        events_path = "events"
        filters = [["containerNumber"], []]
        paging = "cursor"
        push = "none"
        sources = []

        [profiles.twin]
        name = "Twin"
        scacs = ["MAEU"]
        dcsa_version = "2.2"
        base_url = "https://example.com"
        events_path = "/events"
        auth = { style = "api_key", header = "keyId" }
        filters = [["equipmentReference"]]
        paging = "cursor"
        push = "none"
        sources = ["a test"]
    "#;
    let problems = Profiles::parse_toml(text).expect_err("refused");
    for expected in [
        "profiles.Bad_Name: a profile's name",
        "\"TOOLONG\" is not a SCAC",
        "base_url \"ftp://example.com\"",
        "events_path starts with '/'",
        "filter \"containerNumber\"",
        "names no source",
        "without saying why",
        "profiles.twin: MAEU is in another profile too",
    ] {
        assert!(problems.contains(expected), "{expected:?} in {problems}");
    }
    let unknown = Profiles::parse_toml("[profiles.x]\nname = \"X\"\nsurprise = 1\n");
    assert!(unknown.is_err(), "unknown keys are refused");
}
