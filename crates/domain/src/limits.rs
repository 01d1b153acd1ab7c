//! The size limits on client input that validation enforces (configurable, api.md §1).

/// Limits on the fields of a tracking request; defaults are the contract's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Longest `request_number`, in characters.
    pub request_number_chars: usize,
    /// Most items in `ref_numbers` or `shipment_tags`.
    pub list_items: usize,
    /// Longest item of `ref_numbers` or `shipment_tags`, in characters.
    pub list_item_chars: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            request_number_chars: 64,
            list_items: 50,
            list_item_chars: 128,
        }
    }
}
