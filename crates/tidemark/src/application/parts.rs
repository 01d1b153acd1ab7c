//! The workers a process runs, built from its settings: the tracker, the dispatcher and
//! the delivery log's pruner, and the AIS reader.

use std::sync::Arc;

use tidemark_carriers::registry::Registry;
use tidemark_domain::Clock;
use tidemark_store::Store;
use tidemark_workers::{AisReader, Dispatcher, Pruner, Runner, RunnerSettings, Tracker};

use super::Bells;
use crate::settings::Settings;

/// The tracker's runner: it rings `events_recorded` and wakes at `work_queued`.
pub(super) fn tracker(
    settings: &Settings,
    deps: tidemark_workers::Deps,
    bells: &Bells,
) -> Runner<Tracker> {
    let config = &settings.config;
    let clock = Arc::clone(&deps.clock);
    let tracker = Tracker::new(deps, config.tracker.settings(config.policies()))
        .ring_on_events(Arc::clone(&bells.events_recorded));
    Runner::new(Arc::new(tracker), clock, config.tracker.runner())
        .wake_on(Arc::clone(&bells.work_queued))
}

/// The AIS reader of the configured feeds and the sandbox's, when there is any.
pub(super) fn ais_reader(
    settings: &Settings,
    carriers: Option<&Registry>,
    (store, clock): (&Arc<dyn Store>, &Arc<dyn Clock>),
) -> anyhow::Result<Option<AisReader>> {
    let mut ais = settings.ais.clone();
    if let Some(feed) = carriers.and_then(Registry::sandbox_ais_feed) {
        ais.sources.push(feed.parse().map_err(anyhow::Error::msg)?);
    }
    Ok(
        (!ais.sources.is_empty())
            .then(|| AisReader::new(Arc::clone(store), Arc::clone(clock), ais)),
    )
}

/// The dispatcher's runner, woken at `events_recorded`, and the delivery log's pruner
/// beside it (one batch at a time, looking again at least once a minute).
pub(super) fn delivery(
    settings: &Settings,
    store: &Arc<dyn Store>,
    clock: &Arc<dyn Clock>,
    bells: &Bells,
) -> anyhow::Result<(Runner<Dispatcher>, Runner<Pruner>)> {
    let dispatcher = Dispatcher::new(
        Arc::clone(store),
        Arc::clone(clock),
        settings.dispatcher.clone(),
    )?;
    let dispatcher = Runner::new(
        Arc::new(dispatcher),
        Arc::clone(clock),
        settings.config.dispatcher.runner(),
    )
    .wake_on(Arc::clone(&bells.events_recorded));
    let pruning = RunnerSettings {
        concurrency: 1,
        poll: std::time::Duration::from_secs(60),
    };
    let pruner = Pruner::new(Arc::clone(store), settings.retention);
    let pruner = Runner::new(Arc::new(pruner), Arc::clone(clock), pruning);
    Ok((dispatcher, pruner))
}
