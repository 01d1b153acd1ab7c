//! The console's one error type, answered as an HTML page with the status the API would
//! give for the same problem.

use askama::Template;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{Chrome, html_answer};
use crate::ApiError;

/// Something the console could not do, and the status it answers with.
#[derive(Debug)]
pub struct ConsoleError {
    status: StatusCode,
    messages: Vec<String>,
}

impl ConsoleError {
    /// 403: a form that did not come from the viewer's own page.
    #[must_use]
    pub fn forbidden(message: &str) -> Self {
        Self {
            status: StatusCode::FORBIDDEN,
            messages: vec![message.to_owned()],
        }
    }

    /// 400: a page's parameter it cannot act on.
    #[must_use]
    pub fn bad_request(message: &str) -> Self {
        Self {
            status: StatusCode::BAD_REQUEST,
            messages: vec![message.to_owned()],
        }
    }

    /// 404: nothing of this account has this id.
    #[must_use]
    pub fn not_found(what: &str) -> Self {
        Self {
            status: StatusCode::NOT_FOUND,
            messages: vec![format!("There is no {what} with this id in your account.")],
        }
    }

    /// Record `id` of kind `T` in `account`, or the page's 404.
    ///
    /// # Errors
    /// The 404, or the store's failure.
    pub async fn found<T: crate::found::Owned>(
        store: &dyn tidemark_store::Store,
        account: tidemark_domain::AccountId,
        id: &str,
    ) -> Result<T, Self> {
        T::read(store, account, id)
            .await?
            .ok_or_else(|| Self::not_found(T::WHAT))
    }

    /// 500: a template failed to render (logged; never the viewer's fault).
    #[must_use]
    pub fn render(error: askama::Error) -> Self {
        tracing::error!(%error, "a console page failed to render");
        Self {
            status: StatusCode::INTERNAL_SERVER_ERROR,
            messages: vec!["This page could not be shown; the error has been logged.".into()],
        }
    }
}

impl From<ApiError> for ConsoleError {
    fn from(error: ApiError) -> Self {
        Self {
            status: error.status(),
            messages: error.details().into_iter().map(str::to_owned).collect(),
        }
    }
}

impl From<tidemark_app::Error> for ConsoleError {
    fn from(error: tidemark_app::Error) -> Self {
        ApiError::from(error).into()
    }
}

impl From<tidemark_store::StoreError> for ConsoleError {
    fn from(error: tidemark_store::StoreError) -> Self {
        ApiError::from(error).into()
    }
}

/// Turns the router's bare 405 on a console path into the console's page (its `Allow`
/// header, added by the method router afterwards, is kept).
pub async fn method_not_allowed(response: Response) -> Response {
    if response.status() != StatusCode::METHOD_NOT_ALLOWED
        || response
            .headers()
            .contains_key(axum::http::header::CONTENT_TYPE)
    {
        return response;
    }
    ConsoleError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        messages: vec![
            "This address takes a form sent from its page; open the page and use its button."
                .to_owned(),
        ],
    }
    .into_response()
}

/// The error page.
#[derive(Template)]
#[template(path = "console/error.html")]
struct ErrorPage<'a> {
    chrome: Chrome,
    status: u16,
    messages: &'a [String],
}

impl IntoResponse for ConsoleError {
    fn into_response(self) -> Response {
        let page = ErrorPage {
            chrome: Chrome {
                title: self.status.canonical_reason().unwrap_or("Error").to_owned(),
                section: "",
                csrf: String::new(),
            },
            status: self.status.as_u16(),
            messages: &self.messages,
        };
        let body = page.render().unwrap_or_else(|_| self.messages.join("\n"));
        html_answer(self.status, body)
    }
}
