//! Bulk tracking from the console: numbers uploaded as CSV or Excel (`.xlsx`, written here
//! with `rust_xlsxwriter`, an independent writer) or pasted, previewed with each number's
//! type and line and the duplicates and the invalid number marked, then tracked by the
//! API's rules with a summary that the API's own list confirms. Too many rows, or a file
//! that cannot be read, is refused whole.

use axum::http::StatusCode;
use reqwest::header::COOKIE;
use reqwest::multipart::{Form, Part};

use crate::common::{TestApp, document, with_app};
use crate::console::{csrf, post_form};
use crate::console_truth::page;

tidemark_store::backends!(
    with_app,
    fifty_rows_of_a_csv_are_previewed_and_tracked_with_duplicates_and_the_invalid_one_marked,
    fifty_rows_of_a_workbook_are_previewed_like_a_csv,
    too_many_rows_or_an_unreadable_file_track_nothing,
);

/// 47 sandbox numbers, two of them again, and a container number whose check digit is
/// wrong: 50 rows.
fn numbers() -> Vec<String> {
    let mut numbers: Vec<String> = (1..=47).map(|n| format!("TEST-BULK-{n:04}")).collect();
    numbers.push("TEST-BULK-0001".into());
    numbers.push("TEST-BULK-0002".into());
    numbers.push("MSKU1234560".into());
    numbers
}

/// Posts `form` to the upload, signed in.
async fn upload(t: &TestApp, form: Form) -> reqwest::Response {
    let form = form.text("csrf", csrf(t, &t.key).await);
    reqwest::Client::new()
        .post(format!("{}/console/requests/bulk", t.base))
        .header(COOKIE, format!("tidemark_session={}", t.key))
        .multipart(form)
        .send()
        .await
        .expect("request")
}

fn file(name: &str, bytes: Vec<u8>) -> Form {
    Form::new().part("file", Part::bytes(bytes).file_name(name.to_owned()))
}

/// Checks the preview of [`numbers`] and answers its page.
async fn previewed(response: reqwest::Response) -> String {
    assert_eq!(response.status(), StatusCode::OK);
    let preview = response.text().await.expect("a page");
    assert!(preview.contains("50 numbers"), "{preview}");
    assert_eq!(preview.matches("duplicate of row").count(), 2, "{preview}");
    assert!(preview.contains("duplicate of row 1"), "{preview}");
    assert_eq!(preview.matches("invalid:").count(), 1, "{preview}");
    assert!(
        preview.contains("the sandbox&#39;s number") || preview.contains("the sandbox's number")
    );
    assert!(
        preview.contains(r#"name="line" value="TEST""#),
        "a sandbox number suggests TEST"
    );
    preview
}

async fn requests_total(t: &TestApp) -> u64 {
    document(t.get("/v2/tracking_requests").await).await["meta"]["total"]
        .as_u64()
        .expect("a total")
}

async fn fifty_rows_of_a_csv_are_previewed_and_tracked_with_duplicates_and_the_invalid_one_marked(
    t: TestApp,
) {
    let requests = page(&t, "/console/requests").await;
    assert!(
        requests.contains(r#"type="file" name="file""#),
        "{requests}"
    );
    let csv: String = std::iter::once("Number,Line".to_owned())
        .chain(numbers())
        .map(|line| format!("{line}\n"))
        .collect();
    previewed(upload(&t, file("numbers.csv", csv.into_bytes())).await).await;
    assert_eq!(requests_total(&t).await, 0, "a preview tracks nothing");

    let token = csrf(&t, &t.key).await;
    let mut form: Vec<(&str, String)> = vec![("csrf", token)];
    for number in numbers() {
        let (kind, line) = if number.starts_with("TEST-") {
            ("bill_of_lading", "TEST")
        } else {
            ("container", "MAEU")
        };
        form.extend([
            ("number", number),
            ("kind", kind.into()),
            ("line", line.into()),
        ]);
    }
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let done = post_form(&t, "/console/requests/bulk/track", &t.key, &form).await;
    assert_eq!(done.status(), StatusCode::OK);
    let summary = done.text().await.expect("a page");
    assert!(
        summary.contains("Done: 47 created, 2 duplicate, 1 refused."),
        "{summary}"
    );
    assert_eq!(summary.matches("<tr data-row=").count(), 50);
    assert_eq!(
        requests_total(&t).await,
        47,
        "the API lists what was created"
    );
}

async fn fifty_rows_of_a_workbook_are_previewed_like_a_csv(t: TestApp) {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.write(0, 0, "Container number").expect("a cell");
    for (row, number) in (1..).zip(numbers()) {
        sheet.write(row, 0, number).expect("a cell");
    }
    let bytes = workbook.save_to_buffer().expect("a workbook");
    previewed(upload(&t, file("numbers.xlsx", bytes)).await).await;

    let pasted = Form::new().text("numbers", "TEST-TR-HOLDS\nMSKU1234565, MAEU\n");
    let preview = upload(&t, pasted).await.text().await.expect("a page");
    assert!(preview.contains("2 numbers"), "{preview}");
    assert!(preview.contains(r#"name="line" value="MAEU""#), "{preview}");
}

async fn too_many_rows_or_an_unreadable_file_track_nothing(t: TestApp) {
    let many: String = (0..=5_000).map(|n| format!("TEST-MANY-{n}\n")).collect();
    let refused = upload(&t, Form::new().text("numbers", many)).await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let said = refused.text().await.expect("a page");
    assert!(said.contains("at most 5000"), "{said}");
    let broken = upload(&t, file("numbers.xlsx", b"not a workbook".to_vec())).await;
    assert_eq!(broken.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        broken
            .text()
            .await
            .expect("a page")
            .contains("Excel file cannot be read")
    );
    let forged = reqwest::Client::new()
        .post(format!("{}/console/requests/bulk", t.base))
        .header(COOKIE, format!("tidemark_session={}", t.key))
        .multipart(
            Form::new()
                .text("csrf", "0")
                .text("numbers", "TEST-TR-HOLDS"),
        )
        .send()
        .await
        .expect("request");
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert_eq!(requests_total(&t).await, 0);
}
