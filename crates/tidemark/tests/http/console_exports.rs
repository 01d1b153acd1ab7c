//! The console's lists exported as shown: CSV (`text/csv`, a header row, a row per record,
//! the list's filters applied) and Excel (`.xlsx`, read back with `calamine`, an
//! independent reader), for the containers, shipments and tracking requests lists; a
//! format or filter the console cannot act on is its HTML 400, never a file of other rows.

use std::io::Cursor;

use axum::http::StatusCode;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use calamine::{Reader, Xlsx, open_workbook_from_rs};

use crate::common::{TestApp, document, with_tracking};
use crate::console_errors::{html_page, signed_in_get};
use crate::shipments::track;

tidemark_store::backends!(
    with_tracking,
    a_list_exports_as_csv_with_its_filters,
    a_list_exports_as_a_workbook_a_spreadsheet_reader_opens,
    an_export_it_cannot_make_is_refused_with_the_page_s_400,
);

/// The container numbers the API lists with `filter` (`&…` or empty).
async fn numbers(t: &TestApp, filter: &str) -> Vec<String> {
    let path = format!("/v2/containers?page[size]=100{filter}");
    let mut numbers: Vec<String> = document(t.get(&path).await).await["data"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| {
            c["attributes"]["number"]
                .as_str()
                .expect("a number")
                .to_owned()
        })
        .collect();
    numbers.sort();
    numbers
}

/// The rows of the CSV at `path`: its header first.
async fn csv_rows(t: &TestApp, path: &str) -> Vec<Vec<String>> {
    let response = signed_in_get(t, path).await;
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    let kind = response.headers()[CONTENT_TYPE]
        .to_str()
        .expect("text")
        .to_owned();
    assert_eq!(kind, "text/csv; charset=utf-8");
    let disposition = response.headers()[CONTENT_DISPOSITION]
        .to_str()
        .expect("text")
        .to_owned();
    assert!(
        disposition.starts_with("attachment; filename="),
        "{disposition}"
    );
    let body = response.bytes().await.expect("a body");
    csv::Reader::from_reader(body.as_ref())
        .records()
        .map(|record| {
            record
                .expect("a CSV row")
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect::<Vec<_>>()
        .into_iter()
        .collect()
}

/// The column `name` of CSV `rows`, whose header `header` is.
fn column(header: &csv::StringRecord, rows: &[Vec<String>], name: &str) -> Vec<String> {
    let at = header
        .iter()
        .position(|column| column == name)
        .expect("the column");
    let mut values: Vec<String> = rows.iter().map(|row| row[at].clone()).collect();
    values.sort();
    values
}

async fn header(t: &TestApp, path: &str) -> csv::StringRecord {
    let body = signed_in_get(t, path).await.bytes().await.expect("a body");
    csv::Reader::from_reader(body.as_ref())
        .headers()
        .expect("a header")
        .clone()
}

async fn a_list_exports_as_csv_with_its_filters(t: TestApp) {
    track(&t, "TEST-TR-HOLDS", "TEST").await;
    track(&t, "TEST-TR-LFD-EXTENDED", "TEST").await;
    let path = "/console/containers?format=csv";
    let head = header(&t, path).await;
    assert_eq!(&head[0], "number");
    assert!(head.iter().any(|column| column == "pickup_lfd"), "{head:?}");
    let rows = csv_rows(&t, path).await;
    assert_eq!(column(&head, &rows, "number"), numbers(&t, "").await);
    // A last free day is a time with its zone's offset, as ISO 8601 writes it.
    let lfds = column(&head, &rows, "pickup_lfd");
    let dated: Vec<_> = lfds.iter().filter(|lfd| !lfd.is_empty()).collect();
    assert!(!dated.is_empty(), "{lfds:?}");
    for lfd in dated {
        let parsed =
            time::OffsetDateTime::parse(lfd, &time::format_description::well_known::Rfc3339);
        assert!(parsed.is_ok(), "{lfd}");
    }

    let held = csv_rows(&t, "/console/containers?hold=yes&format=csv").await;
    assert_eq!(
        column(&head, &held, "number"),
        numbers(&t, "&filter[has_holds]=true").await,
        "the list's filter applies"
    );

    let shipments = csv_rows(&t, "/console/shipments?format=csv&sort=number").await;
    assert_eq!(shipments.len(), 2);
    let requests = csv_rows(&t, "/console/requests?format=csv").await;
    assert_eq!(requests.len(), 2);
    let one = csv_rows(&t, "/console/requests?q=TEST-TR-HOLDS&format=csv").await;
    assert_eq!(one.len(), 1);
    assert_eq!(one[0][0], "TEST-TR-HOLDS");

    // The page's own link exports what it shows.
    let list = crate::console_truth::page(&t, "/console/containers?hold=yes").await;
    let list = list.replace("&#38;", "&");
    assert!(
        list.contains(r#"href="/console/containers?hold=yes&format=csv""#),
        "{list}"
    );
}

async fn a_list_exports_as_a_workbook_a_spreadsheet_reader_opens(t: TestApp) {
    track(&t, "TEST-TR-HOLDS", "TEST").await;
    let response = signed_in_get(&t, "/console/containers?format=xlsx").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[CONTENT_TYPE],
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    );
    let body = response.bytes().await.expect("a body");
    let mut workbook: Xlsx<_> =
        open_workbook_from_rs(Cursor::new(body.to_vec())).expect("a workbook");
    assert_eq!(workbook.sheet_names(), ["containers"]);
    let sheet = workbook.worksheet_range("containers").expect("the sheet");
    let rows: Vec<Vec<String>> = sheet
        .rows()
        .map(|row| row.iter().map(ToString::to_string).collect())
        .collect();
    assert_eq!(rows[0][0], "number");
    let mut found: Vec<String> = rows[1..].iter().map(|row| row[0].clone()).collect();
    found.sort();
    assert_eq!(found, numbers(&t, "").await);
}

async fn an_export_it_cannot_make_is_refused_with_the_page_s_400(t: TestApp) {
    track(&t, "TEST-TR-HOLDS", "TEST").await;
    let pdf = signed_in_get(&t, "/console/containers?format=pdf").await;
    let page = html_page(pdf, StatusCode::BAD_REQUEST).await;
    assert!(page.contains("csv or xlsx"), "{page}");
    let unread = signed_in_get(&t, "/console/containers?status=sunk&format=csv").await;
    let page = html_page(unread, StatusCode::BAD_REQUEST).await;
    assert!(page.contains("is not a container status"), "{page}");
}
