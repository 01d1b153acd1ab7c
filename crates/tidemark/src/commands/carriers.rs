//! `tidemark carriers …`: the carriers configured at their own endpoints, as the API's
//! shipping lines describe them, with today's use of each quota; and a check that asks a
//! carrier one harmless question and says what is wrong.

use anyhow::{Context, bail};
use tidemark_carriers::Lookup;
use tidemark_carriers::registry::{Registry, describe};
use tidemark_domain::quota::{Quota, QuotaState};
use tidemark_domain::{
    Clock, LookupOutcome, RequestType, SandboxScope, Scac, SystemClock, TemporaryReason,
};

use crate::cli::CarriersCommand;
use crate::config::Config;
use crate::output;

/// The container asked about by a check: a well-formed number no carrier should hold, so
/// any answer the standard allows (none found, say) proves the endpoint works.
pub const PROBE: &str = "TDMU0000004";

/// Runs a carriers command.
pub async fn run(config: &Config, command: CarriersCommand) -> anyhow::Result<()> {
    match command {
        CarriersCommand::List => list(config).await,
        CarriersCommand::Check { scac } => check(config, &scac).await,
    }
}

fn quota_text(quota: &Quota) -> String {
    let day = quota
        .per_day
        .map_or_else(|| "-".to_owned(), |n| n.to_string());
    format!("{}/s burst {} day {day}", quota.per_second, quota.burst)
}

/// Today's calls of a quota's `state`.
fn used_today(state: Option<QuotaState>) -> i64 {
    let today = Quota::day_of(SystemClock.now());
    state.filter(|s| s.day == today).map_or(0, |s| s.used)
}

async fn list(config: &Config) -> anyhow::Result<()> {
    let described = describe(&config.carriers).context("the carriers' settings")?;
    // Today's use is in the database; without one, it is not known.
    let store = super::open(config, false).await.ok();
    output::line("SCAC\tPROFILE\tDCSA\tAUTH\tMODE\tQUOTA\tTODAY")?;
    if described.is_empty() {
        tracing::info!(
            "no carrier is configured at its own endpoint ([carriers.endpoints]); the sandbox serves the rest"
        );
    }
    for (scac, line) in &described {
        let today = match &store {
            Some(store) => used_today(store.quota_state(*scac).await?).to_string(),
            None => "-".to_owned(),
        };
        output::line(format!(
            "{scac}\t{}\t{}\t{}\t{}\t{}\t{today}",
            line.profile.as_deref().unwrap_or("-"),
            line.dcsa_version,
            line.auth_style,
            if line.push { "push" } else { "poll" },
            quota_text(&line.quota),
        ))?;
    }
    Ok(())
}

/// What `outcome` says of the endpoint: `Ok` with what it answered, or what is wrong.
///
/// # Errors
/// What is wrong with the endpoint, in words.
pub fn verdict(outcome: &LookupOutcome) -> Result<String, String> {
    match outcome {
        LookupOutcome::Temporary(TemporaryReason::Unauthorized) => Err(
            "the credentials were refused (401, or a gateway's 403): check api_key, client_id and client_secret, the token URL, and that the product is subscribed and this address allowed"
                .to_owned(),
        ),
        LookupOutcome::DataUnavailable => Err(
            "access refused (403), or this carrier cannot be asked a container alone: the endpoint is reached and answers, but not this question"
                .to_owned(),
        ),
        LookupOutcome::Temporary(TemporaryReason::Unreachable(detail)) => {
            Err(format!("not reached: {detail}"))
        }
        LookupOutcome::Temporary(TemporaryReason::Unrecognized(detail)) => Err(format!(
            "reached, but the answer is not DCSA's shape (check events_path and dcsa_version): {detail}"
        )),
        LookupOutcome::Temporary(TemporaryReason::RateLimited { .. }) => {
            Err("reached; it asks us to slow down (429): try again later".to_owned())
        }
        LookupOutcome::Temporary(TemporaryReason::Unavailable { .. }) => {
            Err("reached; it is unavailable now (503): try again later".to_owned())
        }
        other => Ok(format!(
            "reached, authenticated, and answered as the standard says ({})",
            other.label()
        )),
    }
}

async fn check(config: &Config, scac: &str) -> anyhow::Result<()> {
    let scac = Scac::parse(scac).map_err(|_| anyhow::anyhow!("{scac:?} is not a SCAC"))?;
    let registry = Registry::build(&config.carriers, None, SandboxScope::Off)
        .context("the carriers' settings")?;
    let Some((connector, _)) = registry.connector(&scac) else {
        bail!(
            "{scac} has no endpoint of its own: configure [carriers.endpoints.{scac}] (docs/carriers.md)"
        );
    };
    let outcome = connector
        .lookup(&Lookup::new(PROBE, RequestType::Container))
        .await;
    match verdict(&outcome) {
        Ok(fine) => {
            output::line(format!("{scac}: {fine}"))?;
            Ok(())
        }
        Err(problem) => bail!("{scac}: {problem}"),
    }
}
