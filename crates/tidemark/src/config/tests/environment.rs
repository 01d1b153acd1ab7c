//! Settings read from the environment: `[http]` and `[memory]`.

use std::time::Duration;

use super::{jailed, load};
use crate::settings::Settings;

#[test]
fn the_public_url_and_memory_come_from_the_environment_and_are_checked() {
    jailed(|jail| {
        jail.set_env("TIDEMARK_HTTP__PUBLIC_URL", "https://track.example.com/");
        jail.set_env("TIDEMARK_HTTP__TRUST_FORWARDED_HEADERS", "true");
        jail.set_env("TIDEMARK_MEMORY__RETURN_FREED_AFTER", "5s");
        let config = load(None)?;
        assert_eq!(config.memory.return_freed_after, Duration::from_secs(5));
        let parsed = Settings::parse(config)?;
        assert_eq!(
            parsed.api.links.public_url.as_deref(),
            Some("https://track.example.com")
        );
        assert!(parsed.api.links.trust_forwarded_headers);
        jail.set_env("TIDEMARK_HTTP__PUBLIC_URL", "track.example.com");
        let refused = Settings::parse(load(None)?).expect_err("no scheme");
        assert!(refused.starts_with("http.public_url:"), "{refused}");
        Ok(())
    });
}
