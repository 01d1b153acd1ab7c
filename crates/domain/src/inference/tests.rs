//! Unit tests of number inference, one file per reading.

use super::validation::Untrackable;
use super::*;
use crate::{ContainerNumber, RequestType, Scac};

static MATRIX: std::sync::LazyLock<CarrierMatrix> =
    std::sync::LazyLock::new(|| CarrierMatrix::bundled().expect("the bundled matrix is valid"));

fn matrix() -> &'static CarrierMatrix {
    &MATRIX
}

fn scacs(inference: &Inference<'_>) -> Vec<String> {
    inference
        .candidates
        .iter()
        .map(|c| c.carrier.scac.to_string())
        .collect()
}

/// A valid container number with `prefix` (the check digit computed).
fn container_with(prefix: &str, serial: &str) -> String {
    let body = format!("{prefix}{serial}");
    (0..10)
        .map(|digit| format!("{body}{digit}"))
        .find(|candidate| ContainerNumber::parse(candidate).is_ok())
        .expect("one digit is right")
}

mod container;
mod shipment;
mod validation;
