//! A container's terminal data on the wire (api.md §4a, compat-api.md §3.2 and §3.5):
//! holds, fees and last free days as the reference API shows them, rendered from the
//! domain's view.

use serde::Serialize;
use tidemark_domain::terminal::{FeeType, HoldName, HoldStatus, LastFreeDays};
use utoipa::ToSchema;

use crate::{time, wire_enum_schema};

wire_enum_schema!(
    HoldNameSchema,
    "TerminalHoldName",
    "Who holds the container (case-sensitive).",
    HoldName::ALL
);
wire_enum_schema!(
    HoldStatusSchema,
    "TerminalHoldStatus",
    "`hold` blocks the pickup; `pending` does not yet. A cleared hold leaves the list.",
    [HoldStatus::Pending, HoldStatus::Hold]
);
wire_enum_schema!(
    FeeTypeSchema,
    "TerminalFeeType",
    "What the fee is for; `total` overlaps the others.",
    FeeType::ALL
);

/// A hold at the terminal of discharge: `{name, status, description}`.
#[derive(Debug, ToSchema)]
#[schema(as = TerminalHold)]
pub struct TerminalHoldSchema {
    /// Who holds it.
    #[schema(value_type = HoldNameSchema)]
    pub name: String,
    /// Whether it blocks the pickup yet.
    #[schema(value_type = HoldStatusSchema)]
    pub status: String,
    /// What the source says of it.
    pub description: Option<String>,
}

/// A fee at the terminal of discharge: `{type, amount, currency_code}`.
#[derive(Debug, ToSchema)]
#[schema(as = TerminalFee)]
pub struct TerminalFeeSchema {
    /// What it is for.
    #[serde(rename = "type")]
    #[schema(value_type = FeeTypeSchema)]
    pub type_: String,
    /// How much, in the currency.
    pub amount: f64,
    /// ISO 4217.
    pub currency_code: String,
}

/// Last free days per source (compat-api.md §3.2 `import_deadlines`).
#[derive(Debug, Default, Serialize, ToSchema)]
pub struct ImportDeadlines {
    /// The terminal's.
    #[schema(format = DateTime)]
    pub pickup_lfd_terminal: Option<String>,
    /// The rail carrier's.
    #[schema(format = DateTime)]
    pub pickup_lfd_rail: Option<String>,
    /// The shipping line's.
    #[schema(format = DateTime)]
    pub pickup_lfd_line: Option<String>,
}

impl From<&LastFreeDays> for ImportDeadlines {
    fn from(days: &LastFreeDays) -> Self {
        Self {
            pickup_lfd_terminal: time(days.terminal),
            pickup_lfd_rail: time(days.rail),
            pickup_lfd_line: time(days.line),
        }
    }
}
