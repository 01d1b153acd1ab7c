//! The console as a workspace, driven in the browser: 50 numbers from a CSV file and 50
//! from an Excel workbook (written here with `rust_xlsxwriter`) uploaded through the file
//! input, previewed with their two duplicates and one invalid number marked, and tracked;
//! a list exported as CSV and parsed; a webhook and an API key made and then deleted or
//! revoked from their pages.

use std::path::Path;
use std::time::Duration;

use fantoccini::{Client, Locator};

use super::chrome::{click, shows, text};

/// 47 sandbox numbers under `prefix`, two of them again, and a container number whose
/// check digit is wrong.
fn numbers(prefix: &str) -> Vec<String> {
    let mut numbers: Vec<String> = (1..=47).map(|n| format!("TEST-{prefix}-{n:04}")).collect();
    numbers.push(format!("TEST-{prefix}-0001"));
    numbers.push(format!("TEST-{prefix}-0002"));
    numbers.push("MSKU1234560".into());
    numbers
}

/// Uploads `file` on the requests page, checks the preview and tracks the rows.
async fn upload(client: &Client, base: &str, file: &Path) {
    client
        .goto(&format!("{base}/console/requests"))
        .await
        .expect("open");
    client
        .find(Locator::Css("#bulk-upload input[name=file]"))
        .await
        .expect("the file input")
        .send_keys(&file.display().to_string())
        .await
        .expect("chosen");
    click(client, Locator::Css("#bulk-upload button[type=submit]")).await;
    let preview = text(client, "#preview").await;
    assert_eq!(preview.matches("duplicate of row").count(), 2, "{preview}");
    assert_eq!(preview.matches("invalid:").count(), 1, "{preview}");
    click(client, Locator::Css("#bulk-confirm button[type=submit]")).await;
    let summary = client
        .wait()
        .at_most(Duration::from_secs(60))
        .for_element(Locator::Id("bulk-summary"))
        .await
        .expect("the summary")
        .text()
        .await
        .expect("text");
    assert_eq!(summary, "Done: 47 created, 2 duplicate, 1 refused.");
}

/// A CSV and a workbook of 50 rows each, uploaded and tracked.
pub(crate) async fn track_many(client: &Client, base: &str, dir: &Path) {
    let csv = dir.join("numbers.csv");
    let rows: String = std::iter::once("Number".to_owned())
        .chain(numbers("CSV"))
        .map(|row| format!("{row}\n"))
        .collect();
    std::fs::write(&csv, rows).expect("the CSV written");
    upload(client, base, &csv).await;

    let xlsx = dir.join("numbers.xlsx");
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    sheet.write(0, 0, "Container number").expect("a cell");
    for (row, number) in (1..).zip(numbers("XLSX")) {
        sheet.write(row, 0, number).expect("a cell");
    }
    workbook.save(&xlsx).expect("the workbook written");
    upload(client, base, &xlsx).await;
}

/// The containers list's CSV link, fetched by the page and parsed: every box the page
/// lists is in it (the tracker may add more meanwhile).
pub(crate) async fn export(client: &Client, base: &str) {
    client
        .goto(&format!("{base}/console/containers"))
        .await
        .expect("open");
    let total: usize = text(client, "#total")
        .await
        .trim_end_matches(" found")
        .parse()
        .expect("a count");
    let shown = text(client, "#containers tbody").await;
    let csv = client
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             const link = [...document.querySelectorAll('.export a')].find(a => a.textContent === 'CSV');\
             fetch(link.href, { credentials: 'same-origin' }).then(r => r.text()).then(done);",
            vec![],
        )
        .await
        .expect("the export fetched");
    let csv = csv.as_str().expect("text");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    assert_eq!(reader.headers().expect("a header").get(0), Some("number"));
    let numbers: Vec<String> = reader
        .records()
        .map(|record| record.expect("a row")[0].to_owned())
        .collect();
    assert!(
        numbers.len() >= total,
        "{} rows for {total} boxes",
        numbers.len()
    );
    for number in shown
        .lines()
        .filter_map(|line| line.split_whitespace().next())
    {
        assert!(numbers.iter().any(|n| n == number), "{number} not exported");
    }
}

/// Makes a webhook from its form and deletes it; makes a key, sees its secret once, and
/// revokes it.
pub(crate) async fn webhook_and_key(client: &Client, base: &str) {
    client
        .goto(&format!("{base}/console/webhooks"))
        .await
        .expect("open");
    client
        .find(Locator::Css("#create-webhook input[name=url]"))
        .await
        .expect("the url field")
        .send_keys("http://127.0.0.1:9/made-in-the-console")
        .await
        .expect("typed");
    click(client, Locator::Css("#create-webhook button[type=submit]")).await;
    shows(client, ".notice", "signing secret").await;
    click(client, Locator::Css("#delete-webhook input[name=confirm]")).await;
    click(client, Locator::Css("#delete-webhook button[type=submit]")).await;
    shows(client, ".notice", "deleted").await;

    client
        .goto(&format!("{base}/console/keys"))
        .await
        .expect("open");
    client
        .find(Locator::Css("#create-key input[name=name]"))
        .await
        .expect("the name field")
        .send_keys("Made in the browser")
        .await
        .expect("typed");
    click(client, Locator::Css("#create-key button[type=submit]")).await;
    let secret = text(client, "code.secret").await;
    assert!(secret.starts_with("tdm_"), "{secret}");
    let row = "#keys tbody tr:first-child";
    assert!(text(client, row).await.contains("Made in the browser"));
    click(client, Locator::Css(&format!("{row} input[name=confirm]"))).await;
    click(client, Locator::Css(&format!("{row} button[type=submit]"))).await;
    shows(client, ".notice", "is revoked").await;
    assert!(text(client, row).await.contains("revoked"));
}
