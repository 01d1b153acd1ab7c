//! Tests that need something installed are compiled as ignored without it, so that they
//! report as skipped rather than passing: the PostgreSQL half of a crate's backend tests
//! unless `TIDEMARK_TEST_DATABASE_URL` names a server (`tidemark_postgres_tests`), and the
//! browser test unless Debian's `chromium` and `chromium-driver` are installed or
//! `TIDEMARK_REQUIRE_BROWSER` demands them (`tidemark_browser_tests`; demanded and missing,
//! it runs and fails). Shared by the crates with such tests (`build` in their `Cargo.toml`).
//! A crate with migrations (the store) is rebuilt when one is added or changed:
//! `sqlx::migrate!` embeds them at compile time, and cargo does not otherwise look at them.

#![expect(
    clippy::print_stdout,
    reason = "a build script speaks to cargo on stdout"
)]

/// Where Debian installs the browser and its driver.
const BROWSER: [&str; 2] = ["/usr/bin/chromium", "/usr/bin/chromedriver"];

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tidemark_postgres_tests)");
    println!("cargo::rerun-if-env-changed=TIDEMARK_TEST_DATABASE_URL");
    if std::env::var_os("TIDEMARK_TEST_DATABASE_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=tidemark_postgres_tests");
    }
    println!("cargo::rustc-check-cfg=cfg(tidemark_browser_tests)");
    println!("cargo::rerun-if-env-changed=TIDEMARK_REQUIRE_BROWSER");
    // Installing or removing the browser changes the directory it is in.
    println!("cargo::rerun-if-changed=/usr/bin");
    if std::path::Path::new("migrations").is_dir() {
        println!("cargo::rerun-if-changed=migrations");
    }
    let installed = BROWSER
        .iter()
        .all(|path| std::path::Path::new(path).exists());
    if installed || std::env::var_os("TIDEMARK_REQUIRE_BROWSER").is_some() {
        println!("cargo::rustc-cfg=tidemark_browser_tests");
    }
}
