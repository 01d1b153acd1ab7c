//! The metric families `/metrics` shows (docs/operations.md): each name, kind and help
//! text written once, here, where both the API (which renders them and records the HTTP
//! and database figures) and the workers (which record lookups, terminal checks and
//! deliveries) read them. The process's own figures (`process_*`) are described by the
//! collector that records them.

/// What kind of series a family holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Only goes up (Prometheus sums it across processes).
    Counter,
    /// A value at the instant of the scrape.
    Gauge,
    /// A distribution of durations, in buckets.
    Histogram,
}

/// One metric family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Family {
    /// Its name, as the exposition format writes it.
    pub name: &'static str,
    /// Its kind.
    pub kind: Kind,
    /// Its `# HELP` text.
    pub help: &'static str,
}

const fn family(name: &'static str, kind: Kind, help: &'static str) -> Family {
    Family { name, kind, help }
}

/// Requests answered, by route pattern, method and status.
pub const HTTP_REQUESTS: Family = family(
    "tidemark_http_requests_total",
    Kind::Counter,
    "HTTP requests this process answered, by route pattern, method and status.",
);
/// Request latency.
pub const HTTP_REQUEST_DURATION: Family = family(
    "tidemark_http_request_duration_seconds",
    Kind::Histogram,
    "Time this process took to answer an HTTP request, by route pattern and method.",
);
/// Carrier lookups, by carrier and outcome.
pub const LOOKUPS: Family = family(
    "tidemark_lookups_total",
    Kind::Counter,
    "Carrier lookups by this process's tracker, by carrier and outcome (in the tracking request's words: found, not_found, awaiting_manifest, a failed_reason).",
);
/// Lookup latency.
pub const LOOKUP_DURATION: Family = family(
    "tidemark_lookup_duration_seconds",
    Kind::Histogram,
    "Time a carrier lookup took, by carrier.",
);
/// Terminal checks, by terminal and outcome.
pub const TERMINAL_CHECKS: Family = family(
    "tidemark_terminal_checks_total",
    Kind::Counter,
    "Terminal checks by this process's tracker, by terminal and outcome (answered, failed, not_configured).",
);
/// Webhook deliveries, by webhook and outcome.
pub const WEBHOOK_DELIVERIES: Family = family(
    "tidemark_webhook_deliveries_total",
    Kind::Counter,
    "Webhook delivery attempts by this process's dispatcher, by webhook id and outcome (succeeded, retry, failed, webhook_disabled).",
);
/// Delivery latency.
pub const WEBHOOK_DELIVERY_DURATION: Family = family(
    "tidemark_webhook_delivery_duration_seconds",
    Kind::Histogram,
    "Time a webhook delivery attempt took, up to the receiver's answer or the timeout.",
);
/// Settled notifications forgotten past the retention.
pub const NOTIFICATIONS_FORGOTTEN: Family = family(
    "tidemark_webhook_notifications_forgotten_total",
    Kind::Counter,
    "Settled webhook notifications this process's pruner forgot, with their attempts, past [webhooks] retention.",
);
/// Writes retried after a concurrent transaction cancelled them.
pub const STORE_WRITES_RETRIED: Family = family(
    "tidemark_store_writes_retried_total",
    Kind::Counter,
    "Transactions this process wrote again because PostgreSQL cancelled them for a concurrent one; should stay near 0.",
);
/// Writes refused because the database's storage is full.
pub const STORAGE_FULL_REFUSALS: Family = family(
    "tidemark_store_full_refusals_total",
    Kind::Counter,
    "Writes this process's store refused because the database's storage was full (SQLite; PostgreSQL refuses per request).",
);
/// Jobs due now.
pub const JOBS_DUE: Family = family(
    "tidemark_jobs_due",
    Kind::Gauge,
    "Jobs due now, by kind, whichever process works them (read from the database).",
);
/// How long the oldest due job has waited.
pub const JOBS_OLDEST_DUE: Family = family(
    "tidemark_jobs_oldest_due_seconds",
    Kind::Gauge,
    "Seconds the oldest due job of each kind has waited (read from the database).",
);
/// Each active webhook's notifications waiting.
pub const WEBHOOK_BACKLOG: Family = family(
    "tidemark_webhook_backlog",
    Kind::Gauge,
    "Notifications waiting to be delivered, by active webhook id (read from the database).",
);
/// How long the oldest delivery owed has waited.
pub const WEBHOOK_OLDEST_PENDING: Family = family(
    "tidemark_webhook_oldest_pending_seconds",
    Kind::Gauge,
    "Seconds since the oldest pending notification of an active webhook fell due; 0 when none is owed (read from the database).",
);
/// Each carrier endpoint's calls today.
pub const CARRIER_CALLS_TODAY: Family = family(
    "tidemark_carrier_calls_today",
    Kind::Gauge,
    "Calls to each carrier endpoint this UTC day, by every process together (read from the database).",
);
/// Each carrier endpoint's daily quota.
pub const CARRIER_CALLS_PER_DAY: Family = family(
    "tidemark_carrier_calls_per_day",
    Kind::Gauge,
    "The daily call quota of each carrier endpoint that has one.",
);
/// Tracking requests by status.
pub const TRACKING_REQUESTS: Family = family(
    "tidemark_tracking_requests",
    Kind::Gauge,
    "Tracking requests of every account, by status (read from the database).",
);
/// Boxes a hold blocks.
pub const CONTAINERS_ON_HOLD: Family = family(
    "tidemark_containers_on_hold",
    Kind::Gauge,
    "Containers of every account that a hold in force blocks at their terminal (read from the database).",
);
/// Boxes past their last free day.
pub const CONTAINERS_PAST_LAST_FREE_DAY: Family = family(
    "tidemark_containers_past_last_free_day",
    Kind::Gauge,
    "Containers of every account still at their terminal after their last free day (read from the database).",
);
/// AIS sentences read, by outcome.
pub const AIS_SENTENCES: Family = family(
    "tidemark_ais_sentences_total",
    Kind::Counter,
    "AIS sentences this process read from its feeds, by outcome (position, static, partial, other, broken).",
);
/// AIS feed connections lost.
pub const AIS_FEED_DROPS: Family = family(
    "tidemark_ais_feed_drops_total",
    Kind::Counter,
    "Times an AIS feed of this process dropped or could not be reached, by source.",
);
/// The build.
pub const BUILD_INFO: Family = family(
    "tidemark_build_info",
    Kind::Gauge,
    "Always 1; the labels name the running build (version) and the database backend.",
);

/// Every family, as `/metrics` describes them.
pub const ALL: [Family; 22] = [
    HTTP_REQUESTS,
    HTTP_REQUEST_DURATION,
    LOOKUPS,
    LOOKUP_DURATION,
    TERMINAL_CHECKS,
    WEBHOOK_DELIVERIES,
    WEBHOOK_DELIVERY_DURATION,
    NOTIFICATIONS_FORGOTTEN,
    STORE_WRITES_RETRIED,
    STORAGE_FULL_REFUSALS,
    JOBS_DUE,
    JOBS_OLDEST_DUE,
    WEBHOOK_BACKLOG,
    WEBHOOK_OLDEST_PENDING,
    CARRIER_CALLS_TODAY,
    CARRIER_CALLS_PER_DAY,
    TRACKING_REQUESTS,
    CONTAINERS_ON_HOLD,
    CONTAINERS_PAST_LAST_FREE_DAY,
    AIS_SENTENCES,
    AIS_FEED_DROPS,
    BUILD_INFO,
];
