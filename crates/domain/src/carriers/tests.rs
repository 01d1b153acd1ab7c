//! The matrix's validation and lookups.

use super::*;

fn scac(text: &str) -> Scac {
    Scac::parse(text).expect("valid SCAC")
}

fn matrix() -> CarrierMatrix {
    CarrierMatrix::bundled().expect("the bundled matrix is valid")
}

#[test]
fn the_bundled_matrix_is_valid_and_complete() {
    let matrix = matrix();
    assert_eq!(
        matrix.carriers().len(),
        74,
        "73 reference carriers and the sandbox"
    );
    assert!(matrix.resolve(&scac("TEST")).is_some());
    assert!(matrix.lessor("TGHU").is_some(), "Textainer is a lessor");
    assert_eq!(
        matrix.lessor("KOCU").and_then(|l| l.affiliation),
        Some(scac("HDMU"))
    );
}

#[test]
fn alternative_scacs_resolve_to_the_canonical_carrier() {
    let matrix = matrix();
    assert_eq!(
        matrix.resolve(&scac("medu")).map(|c| c.scac),
        Some(scac("MSCU"))
    );
    assert_eq!(
        matrix.resolve(&scac("YMJA")).map(|c| c.scac),
        Some(scac("YMLU"))
    );
}

#[test]
fn capabilities_follow_the_matrix() {
    let matrix = matrix();
    let evergreen = matrix.resolve(&scac("EGLV")).expect("known");
    assert!(evergreen.supports(RequestType::Container));
    assert!(!evergreen.supports(RequestType::BillOfLading));
}

#[test]
fn prefixes_map_to_their_group() {
    let matrix = matrix();
    let owners: Vec<_> = matrix
        .prefix_owners("SUDU")
        .map(|c| c.scac.to_string())
        .collect();
    assert!(
        owners.contains(&"MAEU".to_owned()) && owners.contains(&"SUDU".to_owned()),
        "{owners:?}"
    );
    assert!(matrix.prefix_owners("TGHU").next().is_none());
}

const ROW: &str = r#"
[[carrier]]
scac = "AAAA"
name = "Alpha"
short_name = "Alpha"
group = "Alpha"
alternative_scacs = []
container_prefixes = ["AAAU"]
bill_of_lading = true
booking_number = true
container = true
capabilities_source = "test"
sources = ["test"]
"#;

fn with(second: &str) -> Result<CarrierMatrix, MatrixError> {
    CarrierMatrix::parse_toml(&format!("{ROW}\n{second}"))
}

fn row(scac: &str, group: &str, prefix: &str) -> String {
    ROW.replace("\"AAAA\"", &format!("{scac:?}"))
        .replace("group = \"Alpha\"", &format!("group = {group:?}"))
        .replace("\"AAAU\"", &format!("{prefix:?}"))
        .replace("name = \"Alpha\"", &format!("name = \"Row {scac}\""))
}

#[test]
fn a_prefix_of_two_unrelated_carriers_is_refused() {
    assert!(matches!(
        with(&row("BBBB", "Beta", "AAAU")),
        Err(MatrixError::PrefixConflict { .. })
    ));
    assert!(
        with(&row("BBBB", "Alpha", "AAAU")).is_ok(),
        "one group may share prefixes"
    );
}

fn shape(fields: &str) -> Result<CarrierMatrix, MatrixError> {
    with(&format!(
        "{}\n[[shape]]\n{fields}\ndescription = \"d\"\nsource = \"s\"\n",
        row("BBBB", "Beta", "BBBU")
    ))
}

#[test]
fn number_shapes_are_validated_at_load() {
    let good = "carriers = [\"AAAA\"]\nnumber_type = \"booking\"\npattern = \"[0-9]{9}\"\nconfidence = 0.5\nexamples = [\"123456789\"]";
    let matrix = shape(good).expect("a valid shape");
    assert_eq!(matrix.shapes().len(), 1);
    assert_eq!(matrix.matching_shapes("123456789").count(), 1);
    assert_eq!(matrix.matching_shapes("1234567890").count(), 0, "anchored");
    for (fields, expected) in [
        (good.replace("[0-9]{9}", "[0-9"), "pattern"),
        (
            good.replace("\"AAAA\"]", "\"AAAA\", \"BBBB\"]"),
            "not in one group",
        ),
        (good.replace("\"AAAA\"]", "\"ZZZZ\"]"), "not a known SCAC"),
        (good.replace("0.5", "1.0"), "confidence"),
        (good.replace("\"booking\"", "\"container\""), "number_type"),
        (
            good.replace("123456789\"]", "12345678\"]"),
            "example \"12345678\"",
        ),
        (good.replace("[0-9]{9}", "[0-9]*"), "empty number"),
        (format!("{good}\nprefix = \"a b\""), "prefix"),
    ] {
        let error = shape(&fields).expect_err(expected);
        assert!(
            matches!(error, MatrixError::Shape { row: 1, .. })
                && error.to_string().contains(expected),
            "{error} should mention {expected}"
        );
    }
}

#[test]
fn malformed_rows_are_refused_with_their_name() {
    let error = with(&row("BB-B", "Beta", "BBBU")).expect_err("bad SCAC");
    assert!(error.to_string().contains("BB-B"), "{error}");
    assert!(matches!(
        with(&row("BBBB", "Beta", "BBBX")),
        Err(MatrixError::Prefix { .. })
    ));
    assert!(matches!(
        with(&row("AAAA", "Beta", "BBBU")),
        Err(MatrixError::ScacTwice { .. })
    ));
    assert!(matches!(
        CarrierMatrix::parse_toml("[[carrier]]\nscac = 1"),
        Err(MatrixError::Format(_))
    ));
    assert!(matches!(
        with(
            "[[lessor]]\nprefix = \"AAAU\"\nowner = \"L\"\ncategory = \"lessor\"\nsources = [\"x\"]\n"
        ),
        Err(MatrixError::LessorConflict { .. })
    ));
    assert!(matches!(
        with(
            "[[lessor]]\nprefix = \"LLLU\"\nowner = \"L\"\ncategory = \"lessor\"\naffiliation = \"ZZZZ\"\nsources = [\"x\"]\n"
        ),
        Err(MatrixError::UnknownAffiliation { .. })
    ));
}

#[test]
fn lines_carrying_other_lines_boxes_are_known_and_checked() {
    let matrix = matrix();
    let oocl = matrix.resolve(&scac("OOLU")).expect("known");
    let carriers: Vec<_> = matrix
        .box_carriers(oocl)
        .map(|c| c.scac.to_string())
        .collect();
    assert_eq!(carriers, ["COSU"]);
    let error = with(
        &ROW.replace("AAAA", "BBBB").replace("AAAU", "BBBU").replace(
            "container = true",
            "container = true\ncarries_boxes_of = [\"ZZZZ\"]",
        ),
    )
    .expect_err("an unknown owner is refused");
    assert!(
        matches!(error, MatrixError::UnknownBoxOwner { ref scac, .. } if scac == "ZZZZ"),
        "{error}"
    );
}
