//! Tidemark's background work: a [`Runner`] claims due jobs and hands them to a
//! [`Worker`]; the [`Tracker`] is the worker that looks tracking requests up at their
//! carriers and commits what changed, the [`Dispatcher`] delivers webhook notifications,
//! and the [`Pruner`] keeps their log to its retention (ARCHITECTURE.md, "The flow of one
//! tracking request").

mod ais;
mod deps;
mod dispatcher;
mod error;
mod heartbeat;
mod inbox;
mod leases;
mod pruner;
mod runner;
mod tracker;

pub use ais::{AisReader, AisSettings};
pub use deps::Deps;
pub use dispatcher::{Dispatcher, DispatcherSettings, HostResolver, Sender, SystemResolver};
pub use error::WorkerError;
pub use heartbeat::Heartbeat;
pub use inbox::Inbox;
pub use pruner::{BETWEEN_BATCHES, PRUNE_BATCH, Pruner};
pub use runner::{Runner, RunnerSettings, Worker};
pub use tracker::{Tracker, TrackerSettings};
