//! The PostgreSQL half of a crate's backend tests is compiled as ignored, so that it
//! reports as skipped, unless `TIDEMARK_TEST_DATABASE_URL` names a server. Shared by the
//! crates with backend tests (`build` in their `Cargo.toml`).

#![expect(
    clippy::print_stdout,
    reason = "a build script speaks to cargo on stdout"
)]

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tidemark_postgres_tests)");
    println!("cargo::rerun-if-env-changed=TIDEMARK_TEST_DATABASE_URL");
    if std::env::var_os("TIDEMARK_TEST_DATABASE_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=tidemark_postgres_tests");
    }
}
