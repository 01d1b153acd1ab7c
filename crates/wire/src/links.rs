//! Absolute links: every `links` member of a document (`self`, `first`, `prev`, `next`,
//! `last`, `current`, `related`) is written as a path and serialized as an absolute URL
//! under the base of the request being answered, so clients that follow `links.next` as
//! a URL work behind a proxy (compat-api.md §0.1). The API layer names the base around a
//! document's serialization ([`with_base`]); without one (a webhook's frozen records,
//! a test) links stay paths.

use std::cell::RefCell;

use serde::Serializer;

thread_local! {
    static BASE: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Runs `render` (a document's serialization) with links under `base` (scheme, host and
/// any path prefix, without a trailing `/`), then restores the base before.
pub fn with_base<R>(base: Option<&str>, render: impl FnOnce() -> R) -> R {
    struct Restore(Option<String>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            BASE.with(|base| *base.borrow_mut() = before);
        }
    }
    let before = BASE.with(|current| current.replace(base.map(str::to_owned)));
    let _restore = Restore(before);
    render()
}

/// `link` under the current base, when there is one and `link` is a path.
#[must_use]
pub fn absolute(link: &str) -> String {
    BASE.with(|base| match base.borrow().as_deref() {
        Some(base) if link.starts_with('/') => format!("{base}{link}"),
        _ => link.to_owned(),
    })
}

/// Serializes a link under the current base.
///
/// # Errors
/// The serializer's.
#[expect(
    clippy::ptr_arg,
    reason = "serde's serialize_with passes the field as declared"
)]
pub fn link<S: Serializer>(link: &String, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&absolute(link))
}

/// Serializes an optional link under the current base.
///
/// # Errors
/// The serializer's.
pub fn optional_link<S: Serializer>(
    link: &Option<String>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match link {
        Some(link) => serializer.serialize_str(&absolute(link)),
        None => serializer.serialize_none(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::SelfLink;

    #[test]
    fn links_are_absolute_under_a_base_and_paths_without() {
        let link = SelfLink {
            self_: "/v2/shipments/1?page%5Bnumber%5D=2".to_owned(),
        };
        let bare = serde_json::to_value(&link).expect("json");
        assert_eq!(bare["self"], "/v2/shipments/1?page%5Bnumber%5D=2");
        let under = with_base(Some("https://track.example.com/t"), || {
            serde_json::to_value(&link).expect("json")
        });
        assert_eq!(
            under["self"],
            "https://track.example.com/t/v2/shipments/1?page%5Bnumber%5D=2"
        );
        // The base ends with the render, nested or not.
        let nested = with_base(Some("http://a"), || {
            let inner = with_base(Some("http://b"), || absolute("/x"));
            (inner, absolute("/x"))
        });
        assert_eq!(nested, ("http://b/x".to_owned(), "http://a/x".to_owned()));
        assert_eq!(absolute("/x"), "/x");
        // A link that is already a URL stays as it is.
        assert_eq!(
            with_base(Some("http://a"), || absolute("https://b/x")),
            "https://b/x"
        );
    }
}
