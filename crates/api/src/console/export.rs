//! A list exported as it is shown, with its filters and its order: CSV (`?format=csv`,
//! `text/csv`, a header row and a row per record) or Excel (`?format=xlsx`). Read from the
//! store a page at a time and written to the answer as it is read, so a list of 100,000
//! rows never holds more than a page of them: the CSV a page per chunk, the workbook in
//! `rust_xlsxwriter`'s constant-memory mode (rows spilled to a temporary file) and zipped
//! straight into the answer. Only what existed when the export began is read, so pages do
//! not shift under it as records arrive. A failure part-way ends the answer with an error,
//! never a file that looks whole.

use std::io::{self, Write};

use async_trait::async_trait;
use axum::body::{Body, Bytes};
use axum::http::HeaderValue;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::Response;
use tidemark_store::StoreError;
use tokio::sync::mpsc;

use super::ConsoleError;
use crate::extract::QueryParams;

/// Records read a page at a time.
pub const EXPORT_PAGE: u32 = 500;

/// How a list answers: its page, or an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Page,
    Csv,
    Xlsx,
}

impl Format {
    /// The `format` of `query`: none for the page.
    ///
    /// # Errors
    /// 400 for a format the console does not write.
    pub fn take(query: &mut QueryParams) -> Result<Self, ConsoleError> {
        match query.take("format").as_deref().map(str::trim) {
            None | Some("" | "html") => Ok(Self::Page),
            Some("csv") => Ok(Self::Csv),
            Some("xlsx") => Ok(Self::Xlsx),
            Some(other) => Err(ConsoleError::bad_request(&format!(
                "format: “{other}” is not one this list is exported in (csv or xlsx)."
            ))),
        }
    }
}

/// A list as a table to export.
#[async_trait]
pub trait Table: Send + 'static {
    /// The file's name, without its extension: `containers`.
    const NAME: &'static str;

    /// The header row.
    fn header(&self) -> Vec<String>;

    /// The rows of page `number` (from 1) of [`EXPORT_PAGE`] records; none past the end.
    async fn rows(&mut self, number: u32) -> Result<Vec<Vec<String>>, StoreError>;
}

/// `table` exported in `format` (not [`Format::Page`]).
pub fn answer<T: Table>(format: Format, table: T) -> Response {
    let (kind, extension, body) = match format {
        Format::Xlsx => (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "xlsx",
            workbook(table),
        ),
        Format::Csv | Format::Page => ("text/csv; charset=utf-8", "csv", csv(table)),
    };
    let mut response = super::with_headers(body);
    let headers = response.headers_mut();
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    let file = format!("attachment; filename=\"{}.{extension}\"", T::NAME);
    if let Ok(value) = HeaderValue::from_str(&file) {
        headers.insert(CONTENT_DISPOSITION, value);
    }
    response
}

/// The chunks of an answer, as a body.
fn body(chunks: mpsc::Receiver<io::Result<Bytes>>) -> Body {
    Body::from_stream(futures_util::stream::unfold(chunks, |mut chunks| async {
        chunks.recv().await.map(|chunk| (chunk, chunks))
    }))
}

/// Why an export stopped part-way, logged, and ending its answer with an error.
fn failed(table: &str, error: &dyn std::fmt::Display) -> io::Error {
    tracing::error!(%error, table, "an export failed part-way");
    io::Error::other("the export failed part-way; its error has been logged")
}

/// A text as a spreadsheet reads it from CSV: one that would start a formula (`=`, `+`,
/// `-`, `@`, a tab or a carriage return) is kept as text by a leading `'`.
fn inert(text: &str) -> std::borrow::Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}").into()
    } else {
        text.into()
    }
}

/// `rows` as CSV.
fn csv_bytes<'a>(rows: impl IntoIterator<Item = &'a [String]>) -> Result<Bytes, csv::Error> {
    let mut writer = csv::Writer::from_writer(Vec::new());
    for row in rows {
        writer.write_record(row.iter().map(|cell| inert(cell).into_owned()))?;
    }
    writer
        .into_inner()
        .map(Bytes::from)
        .map_err(|error| csv::Error::from(error.into_error()))
}

/// The CSV of `table`, written as its pages are read.
fn csv<T: Table>(mut table: T) -> Body {
    let (chunks, answer) = mpsc::channel(4);
    tokio::spawn(async move {
        let header = table.header();
        let mut next = csv_bytes([header.as_slice()]);
        let mut number = 1;
        loop {
            let chunk = next.map_err(|error| failed(T::NAME, &error));
            let stop = chunk.is_err();
            if chunks.send(chunk).await.is_err() || stop {
                return;
            }
            next = match table.rows(number).await {
                Ok(rows) if rows.is_empty() => return,
                Ok(rows) => csv_bytes(rows.iter().map(Vec::as_slice)),
                Err(error) => Err(csv::Error::from(failed(T::NAME, &error))),
            };
            number += 1;
        }
    });
    body(answer)
}

/// Bytes written into an answer's chunks, from a blocking thread.
struct Chunks(mpsc::Sender<io::Result<Bytes>>);

impl Write for Chunks {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0
            .blocking_send(Ok(Bytes::copy_from_slice(bytes)))
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// What the workbook's writer is handed: a page of rows, or the news that reading failed.
type Handed = Result<Vec<Vec<String>>, String>;

/// Writes the workbook of `header` and the pages `pages` brings, into `chunks`; a page that
/// could not be read stops it before anything is zipped.
fn write_workbook(
    name: &str,
    header: Vec<String>,
    mut pages: mpsc::Receiver<Handed>,
    chunks: mpsc::Sender<io::Result<Bytes>>,
) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet_with_constant_memory()?;
    sheet.set_name(name)?;
    let bold = rust_xlsxwriter::Format::new().set_bold();
    sheet.write_row_with_format(0, 0, header.iter().map(String::as_str), &bold)?;
    sheet.set_freeze_panes(1, 0)?;
    let mut row: u32 = 1;
    while let Some(page) = pages.blocking_recv() {
        for cells in page? {
            sheet.write_row(row, 0, cells)?;
            row += 1;
        }
    }
    // Zipped straight into the answer, a buffer's worth at a time.
    let writer = io::BufWriter::with_capacity(64 * 1024, Chunks(chunks));
    workbook.save_to_writer(writer)?;
    Ok(())
}

/// The workbook of `table`, written as its pages are read.
fn workbook<T: Table>(mut table: T) -> Body {
    let (chunks, answer) = mpsc::channel(4);
    let (pages, read) = mpsc::channel::<Handed>(2);
    let header = table.header();
    let errors = chunks.clone();
    tokio::task::spawn_blocking(move || {
        if let Err(error) = write_workbook(T::NAME, header, read, chunks) {
            let _ = errors.blocking_send(Err(failed(T::NAME, &error)));
        }
    });
    tokio::spawn(async move {
        for number in 1.. {
            let page = table.rows(number).await.map_err(|error| error.to_string());
            let last = page.as_ref().is_ok_and(Vec::is_empty) || page.is_err();
            if last && page.is_ok() {
                return;
            }
            if pages.send(page).await.is_err() || last {
                return;
            }
        }
    });
    body(answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pages` pages of two rows each; page `fails` (if any) cannot be read.
    struct Pages {
        pages: u32,
        fails: Option<u32>,
    }

    #[async_trait]
    impl Table for Pages {
        const NAME: &'static str = "pages";

        fn header(&self) -> Vec<String> {
            vec!["page".to_owned(), "row".to_owned()]
        }

        async fn rows(&mut self, number: u32) -> Result<Vec<Vec<String>>, StoreError> {
            if self.fails == Some(number) {
                return Err(StoreError::WriterStopped);
            }
            if number > self.pages {
                return Ok(Vec::new());
            }
            Ok((1..=2)
                .map(|row| vec![number.to_string(), format!("={row}")])
                .collect())
        }
    }

    async fn read(body: Body) -> Result<Bytes, axum::Error> {
        axum::body::to_bytes(body, usize::MAX).await
    }

    #[tokio::test]
    async fn every_page_is_written_once_in_order_and_a_formula_stays_text() {
        let body = read(csv(Pages {
            pages: 3,
            fails: None,
        }))
        .await
        .expect("the CSV");
        let text = String::from_utf8(body.to_vec()).expect("UTF-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines,
            [
                "page,row", "1,'=1", "1,'=2", "2,'=1", "2,'=2", "3,'=1", "3,'=2"
            ]
        );
        let none = read(csv(Pages {
            pages: 0,
            fails: None,
        }))
        .await
        .expect("the CSV");
        assert_eq!(none.as_ref(), b"page,row\n");
    }

    #[tokio::test]
    async fn a_page_that_cannot_be_read_ends_the_answer_with_an_error() {
        let failing = Pages {
            pages: 3,
            fails: Some(2),
        };
        assert!(read(csv(failing)).await.is_err());
        let failing = Pages {
            pages: 3,
            fails: Some(3),
        };
        assert!(
            read(workbook(failing)).await.is_err(),
            "no workbook that looks whole"
        );
    }

    #[tokio::test]
    async fn a_workbook_holds_every_page() {
        use calamine::{Reader, Xlsx, open_workbook_from_rs};
        let body = read(workbook(Pages {
            pages: 3,
            fails: None,
        }))
        .await
        .expect("a workbook");
        let mut book: Xlsx<_> =
            open_workbook_from_rs(std::io::Cursor::new(body.to_vec())).expect("it opens");
        let sheet = book.worksheet_range("pages").expect("the sheet");
        let rows: Vec<String> = sheet.rows().map(|row| row[0].to_string()).collect();
        assert_eq!(rows, ["page", "1", "1", "2", "2", "3", "3"]);
    }
}
