//! Terminals: how Tidemark asks a container terminal what it knows of containers it
//! discharges (`docs/terminals.md`, "The terminal protocol"). The protocol's field names
//! live only here (and in the simulator).
//!
//! So far the answer's shape and its mapping onto the domain's
//! [`TerminalReport`](tidemark_domain::terminal::TerminalReport); the HTTP connector, its
//! configuration and the simulator's terminals come next.

pub mod protocol;
