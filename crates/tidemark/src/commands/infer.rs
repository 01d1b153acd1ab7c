//! `tidemark infer`: number inference offline, with the answers of the endpoint.

use std::io::{BufRead, Write};

use serde::Serialize;
use tidemark_domain::inference::input::check_number;
use tidemark_domain::{CarrierMatrix, infer};
use tidemark_wire::infer_number::AttributesView;

/// One line of output: the number as given, then the endpoint's attributes or an error.
#[derive(Debug, Serialize)]
struct Line<'a> {
    number: &'a str,
    #[serde(flatten)]
    result: Outcome,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Outcome {
    Inferred(AttributesView),
    Refused { error: Refusal },
}

#[derive(Debug, Serialize)]
struct Refusal {
    code: &'static str,
    detail: String,
}

fn outcome(matrix: &CarrierMatrix, number: &str) -> Outcome {
    match check_number(number) {
        Ok(()) => Outcome::Inferred(tidemark_wire::infer_number::attributes(&infer(
            matrix, number,
        ))),
        Err((code, detail)) => Outcome::Refused {
            error: Refusal {
                code: code.as_str(),
                detail,
            },
        },
    }
}

/// Writes one JSON line per number; returns how many were refused.
fn write_line(out: &mut impl Write, matrix: &CarrierMatrix, number: &str) -> anyhow::Result<bool> {
    let result = outcome(matrix, number);
    let refused = matches!(result, Outcome::Refused { .. });
    serde_json::to_writer(&mut *out, &Line { number, result })?;
    out.write_all(b"\n")?;
    Ok(refused)
}

/// `tidemark infer NUMBER…`, or `tidemark infer -` for one number per line on stdin
/// (empty lines are skipped). Fails when any number was refused (blank, too long, not UTF-8).
pub fn run(settings: &crate::settings::Settings, numbers: &[String]) -> anyhow::Result<()> {
    let matrix = &settings.matrix;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut refused = 0usize;
    if numbers == ["-"] {
        for line in std::io::stdin().lock().split(b'\n') {
            let bytes = line?;
            let bytes = bytes.strip_suffix(b"\r").unwrap_or(&bytes);
            if bytes.is_empty() {
                continue;
            }
            match std::str::from_utf8(bytes) {
                Ok(number) => refused += usize::from(write_line(&mut out, matrix, number)?),
                Err(_) => {
                    refused += 1;
                    serde_json::to_writer(
                        &mut out,
                        &Line {
                            number: &String::from_utf8_lossy(bytes),
                            result: Outcome::Refused {
                                error: Refusal {
                                    code: "invalid",
                                    detail: "the line is not UTF-8".to_owned(),
                                },
                            },
                        },
                    )?;
                    out.write_all(b"\n")?;
                }
            }
        }
    } else {
        for number in numbers {
            refused += usize::from(write_line(&mut out, matrix, number)?);
        }
    }
    out.flush()?;
    if refused > 0 {
        anyhow::bail!("{refused} number(s) refused; see their \"error\" lines");
    }
    Ok(())
}
