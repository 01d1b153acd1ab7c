//! Throughput of number inference on one core, over the labelled numbers (containers,
//! bills of lading, bookings and invalid inputs in their published proportions).
//!
//! `cargo bench -p tidemark-domain --bench inference`; the target is 1,000,000 numbers/s.

// `criterion_group!` generates a public function without documentation.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tidemark_domain::{CarrierMatrix, infer};

fn numbers() -> Vec<&'static str> {
    include_str!("../../../data/eval/labelled-numbers.csv")
        .lines()
        .skip(1)
        .filter_map(|line| line.split(',').next())
        .collect()
}

fn inference(c: &mut Criterion) {
    let matrix = CarrierMatrix::bundled().expect("the bundled matrix is valid");
    let numbers = numbers();
    let mut group = c.benchmark_group("infer");
    group.throughput(Throughput::Elements(numbers.len() as u64));
    group.bench_function("labelled set", |b| {
        b.iter(|| {
            for number in &numbers {
                black_box(infer(&matrix, black_box(number)));
            }
        });
    });
    for (name, number) in [
        ("container", "MSKU3054388"),
        ("prefixed bill", "HLCUSHA1904CCVX4"),
        ("bare shared shape", "586118841"),
        ("unknown", "NSE22110345"),
    ] {
        group.throughput(Throughput::Elements(1));
        group.bench_function(name, |b| {
            b.iter(|| black_box(infer(&matrix, black_box(number))))
        });
    }
    group.finish();
}

criterion_group!(benches, inference);
criterion_main!(benches);
