//! AIS feeds: NMEA 0183 `!AIVDM`/`!AIVDO` sentences as an AIS receiver (AIS-catcher,
//! rtl-ais, a provider's feed) sends them, read from where the operator says
//! ([`AisSource`]: `tcp://` connects out, `udp://` listens) and decoded into what each
//! message says of a vessel ([`Decoder`], over the `ais` crate).

mod decode;
mod source;

pub use decode::{Decoded, Decoder};
pub use source::{AisSource, Feed, FeedEvent};
