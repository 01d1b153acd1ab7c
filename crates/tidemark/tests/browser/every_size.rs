//! Every console page at a laptop's width (1366 px) and a phone's (390 px): no horizontal
//! scrolling at either (a table scrolls inside its card), and axe-core's audit finds no
//! serious or critical violation. axe-core comes from the npm registry into `.ci/axe/`
//! (`npm ci --prefix .ci/axe`); the test injects it into each page, the console never
//! serves or fetches it. Without it the audit reports itself skipped, except when
//! `TIDEMARK_REQUIRE_BROWSER` is set (as in `.ci/run`), when its absence fails the test.

use std::path::{Path, PathBuf};

use fantoccini::Client;
use serde_json::Value;

use super::chrome::shoot;

/// The widths every page is looked at.
pub(crate) const WIDTHS: [(u32, &str); 2] = [(1366, ""), (390, "-390")];

/// axe-core's script, as npm installed it.
fn axe() -> Option<String> {
    let path = std::env::var_os("TIDEMARK_AXE_JS").map_or_else(
        || {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../.ci/axe/node_modules/axe-core/axe.min.js")
        },
        PathBuf::from,
    );
    match std::fs::read_to_string(&path) {
        Ok(source) => Some(source),
        Err(error) => {
            let required = std::env::var_os("TIDEMARK_REQUIRE_BROWSER").is_some();
            assert!(
                !required,
                "axe-core is not at {} ({error}); run `npm ci --prefix .ci/axe`",
                path.display()
            );
            eprintln!(
                "SKIPPED: the accessibility audit (no axe-core at {})",
                path.display()
            );
            None
        }
    }
}

/// axe-core's serious and critical findings on the page shown, one line each.
async fn audit(client: &Client, source: &str) -> Vec<String> {
    client
        .execute(&format!("{source}\n;return true;"), vec![])
        .await
        .expect("axe-core injected");
    let found = client
        .execute_async(
            "const done = arguments[arguments.length - 1];\
             axe.run(document, { resultTypes: ['violations'] })\
               .then(r => done(r.violations.map(v => ({ id: v.id, impact: v.impact,\
                 help: v.help, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3) }))))\
               .catch(e => done([{ id: 'axe-error', impact: 'critical', help: String(e), nodes: [] }]));",
            vec![],
        )
        .await
        .expect("axe-core ran");
    found
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|v| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .map(|v: &Value| {
            format!(
                "{} ({}): {} at {}",
                v["id"], v["impact"], v["help"], v["nodes"]
            )
        })
        .collect()
}

/// How wide the page is against the window: scrolling sideways when the first is larger.
async fn widths(client: &Client) -> (u64, u64) {
    let seen = client
        .execute(
            "return [document.documentElement.scrollWidth, document.documentElement.clientWidth];",
            vec![],
        )
        .await
        .expect("script");
    (seen[0].as_u64().unwrap_or(0), seen[1].as_u64().unwrap_or(0))
}

/// Opens each of `pages` (path, name) at each width: checks it fits, audits it once, and
/// keeps a screenshot named after it (`name-390.png` at the phone's width).
pub(crate) async fn every_page(client: &Client, base: &str, dir: &Path, pages: &[(String, &str)]) {
    let source = axe();
    let mut findings = Vec::new();
    for (width, suffix) in WIDTHS {
        client
            .set_window_size(width, 1000)
            .await
            .expect("the window resized");
        for (path, name) in pages {
            client.goto(&format!("{base}{path}")).await.expect("open");
            let (wide, window) = widths(client).await;
            assert!(
                wide <= window,
                "{path} at {width} px is {wide} px wide in a {window} px window"
            );
            if let (Some(source), "") = (&source, suffix) {
                findings.extend(
                    audit(client, source)
                        .await
                        .into_iter()
                        .map(|f| format!("{path}: {f}")),
                );
            }
            shoot(client, dir, &format!("{name}{suffix}")).await;
        }
    }
    client
        .set_window_size(1280, 1000)
        .await
        .expect("the window resized");
    assert!(
        findings.is_empty(),
        "axe-core's serious or critical findings:\n{}",
        findings.join("\n")
    );
}
