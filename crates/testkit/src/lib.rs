//! Tidemark's test kit, for the tests of every crate: the outside parties Tidemark talks to,
//! over real HTTP on loopback. [`Simulated`] is a DCSA carrier simulator whose clock moves
//! with the test's; [`Receiver`] is a webhook receiver that answers as the test asks;
//! [`poll_until`] waits, with a deadline, for what they or Tidemark do. [`TestApp`] is
//! Tidemark itself, built as `serve` builds it, with those parties around it.
//! (Fresh databases and the run-on-both-backends macro are `tidemark_store::testing`.)

mod app;
mod poll;
mod receiver;
mod simulated;

pub use app::{JSON_API, Places, Spawn, TestApp, test_config};
pub use poll::poll_until;
pub use receiver::{Flaky, Receiver};
pub use simulated::{SIM_ADMIN_KEY, SIM_KEY, Simulated, sim_config};
