//! The numbers of a bulk tracking, as a person gives them: pasted (a number a line, or
//! separated by commas or spaces), or a CSV or Excel (`.xlsx`, read with `calamine`) file
//! whose first column holds the numbers and whose second may name the line (a SCAC). A
//! header row (`number`, `container`, `bill of lading`, …) is skipped, blank rows too. At
//! most [`ROWS_MAX`] numbers; more, or a file that cannot be read, is refused whole.

use std::io::Cursor;

use calamine::{Reader, Xlsx, open_workbook_from_rs};

/// The most numbers one bulk tracking takes.
pub const ROWS_MAX: usize = 5_000;

/// One number as given, with the line its row names, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Given {
    /// The number, trimmed.
    pub number: String,
    /// The second cell, trimmed, when the row has one.
    pub line: Option<String>,
}

/// Words a header row's first cell holds.
const HEADERS: [&str; 9] = [
    "number",
    "numbers",
    "container",
    "container number",
    "bill of lading",
    "bill",
    "booking",
    "booking number",
    "request_number",
];

fn is_header(cell: &str) -> bool {
    let cell = cell.trim().to_ascii_lowercase().replace(['_', '-'], " ");
    HEADERS
        .iter()
        .any(|header| header.replace('_', " ") == cell)
}

/// The numbers of `rows` (each a row's cells): a header first row skipped, blank rows
/// dropped.
fn numbers(rows: impl IntoIterator<Item = Vec<String>>) -> Result<Vec<Given>, String> {
    let mut given = Vec::new();
    for (index, cells) in rows.into_iter().enumerate() {
        let mut cells = cells.into_iter().map(|cell| cell.trim().to_owned());
        let Some(number) = cells.next().filter(|cell| !cell.is_empty()) else {
            continue;
        };
        if index == 0 && is_header(&number) {
            continue;
        }
        if given.len() == ROWS_MAX {
            return Err(format!(
                "More than {ROWS_MAX} numbers: track at most {ROWS_MAX} at once; nothing was \
                 tracked."
            ));
        }
        let line = cells.next().filter(|cell| !cell.is_empty());
        given.push(Given { number, line });
    }
    if given.is_empty() {
        return Err(
            "No number was found: give one a line, or a file whose first column \
                    holds them."
                .to_owned(),
        );
    }
    Ok(given)
}

/// Pasted text: a row a line, its cells separated by a comma, semicolon or tab; a line of
/// numbers separated by spaces alone is a number each.
pub fn pasted(text: &str) -> Result<Vec<Given>, String> {
    let rows = text.lines().flat_map(|line| {
        if line.contains([',', ';', '\t']) {
            vec![
                line.split([',', ';', '\t'])
                    .map(str::to_owned)
                    .collect::<Vec<_>>(),
            ]
        } else {
            line.split_whitespace()
                .map(|number| vec![number.to_owned()])
                .collect()
        }
    });
    numbers(rows)
}

/// A CSV file (UTF-8; a comma or semicolon between cells).
pub fn csv(bytes: &[u8]) -> Result<Vec<Given>, String> {
    let text = std::str::from_utf8(bytes)
        .map_err(|_| "The CSV file is not UTF-8 text; save it as CSV UTF-8.".to_owned())?;
    let delimiter = if text
        .lines()
        .next()
        .is_some_and(|line| line.contains(';') && !line.contains(','))
    {
        b';'
    } else {
        b','
    };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|error| format!("The CSV file cannot be read: {error}."))?;
        rows.push(record.iter().map(str::to_owned).collect());
    }
    numbers(rows)
}

/// An Excel workbook (`.xlsx`): its first sheet.
pub fn xlsx(bytes: &[u8]) -> Result<Vec<Given>, String> {
    let unreadable = |error: &dyn std::fmt::Display| {
        format!("The Excel file cannot be read ({error}); save it as .xlsx and try again.")
    };
    let mut workbook: Xlsx<_> =
        open_workbook_from_rs(Cursor::new(bytes)).map_err(|error| unreadable(&error))?;
    let sheet = workbook
        .worksheet_range_at(0)
        .ok_or_else(|| "The Excel file has no sheet.".to_owned())?
        .map_err(|error| unreadable(&error))?;
    numbers(
        sheet
            .rows()
            .map(|row| row.iter().map(ToString::to_string).collect()),
    )
}

/// The numbers of an uploaded file, read by its name's extension.
pub fn file(name: &str, bytes: &[u8]) -> Result<Vec<Given>, String> {
    let name = name.to_ascii_lowercase();
    if name.ends_with(".xlsx") {
        xlsx(bytes)
    } else if name.ends_with(".csv") || name.ends_with(".txt") {
        csv(bytes)
    } else {
        Err(format!(
            "“{name}” is neither a CSV (.csv) nor an Excel (.xlsx) file; nothing was tracked."
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers_of(given: &[Given]) -> Vec<&str> {
        given.iter().map(|row| row.number.as_str()).collect()
    }

    #[test]
    fn pasted_numbers_are_read_a_line_or_a_space_apart_with_an_optional_line() {
        let given = pasted("MSKU1234565\n\n  TEST-TR-HOLDS, TEST \nA B\n").expect("numbers");
        assert_eq!(
            numbers_of(&given),
            ["MSKU1234565", "TEST-TR-HOLDS", "A", "B"]
        );
        assert_eq!(given[1].line.as_deref(), Some("TEST"));
        assert!(pasted(" \n ").is_err(), "nothing given");
    }

    #[test]
    fn a_csv_s_header_is_skipped_and_its_second_column_is_the_line() {
        let given = csv(b"Container number,SCAC\nMSKU1234565,MAEU\nTCLU7654321,\n").expect("rows");
        assert_eq!(numbers_of(&given), ["MSKU1234565", "TCLU7654321"]);
        assert_eq!(given[0].line.as_deref(), Some("MAEU"));
        assert_eq!(given[1].line, None);
        let semicolons = csv(b"number;line\nX1;CMDU\n").expect("rows");
        assert_eq!(semicolons[0].line.as_deref(), Some("CMDU"));
        assert!(
            csv(&[0xff, 0xfe, 0x00])
                .expect_err("not UTF-8")
                .contains("UTF-8")
        );
    }

    #[test]
    fn more_than_the_most_is_refused_whole() {
        let many: String = (0..=ROWS_MAX).map(|n| format!("N{n}\n")).collect();
        assert!(pasted(&many).expect_err("too many").contains("5000"));
        let most: String = (0..ROWS_MAX).map(|n| format!("N{n}\n")).collect();
        assert_eq!(pasted(&most).expect("the most").len(), ROWS_MAX);
    }

    #[test]
    fn a_file_is_read_by_its_extension_and_a_broken_workbook_is_said() {
        assert!(
            file("numbers.pdf", b"x")
                .expect_err("refused")
                .contains("neither")
        );
        assert!(
            file("numbers.xlsx", b"not a zip")
                .expect_err("refused")
                .contains("Excel")
        );
        assert_eq!(file("a.CSV", b"X1\n").expect("read").len(), 1);
    }
}
