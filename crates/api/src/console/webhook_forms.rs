//! Webhooks made and changed from the console: create (URL, events, headers), edit, pause,
//! resume and delete, each by the API's own use case (`tidemark_app::Webhooks`), so the
//! same rules hold (a public address only, known events, headers Tidemark does not set
//! itself). What is wrong is said on the page, beside the form, with what was typed.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use tidemark_app::Error;
use tidemark_domain::webhook::{Webhook, WebhookDraft, WebhookHeader};

use super::extract::{Posted, Segment};
use super::session::{FormData, see_other};
use super::webhook_list::{Listed, WebhookForm, list_page};
use super::webhooks::{find, render};
use super::{ConsoleError, Viewer, answered_as};
use crate::AppState;

/// The headers as the form's text area gives them: a `Name: value` a line.
fn headers(text: &str) -> Result<Vec<WebhookHeader>, String> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (name, value) = line.split_once(':').ok_or_else(|| {
                format!("“{line}” is not a header: write Name: value, one a line.")
            })?;
            Ok(WebhookHeader {
                name: name.trim().to_owned(),
                value: value.trim().to_owned(),
            })
        })
        .collect()
}

/// What the form was given, to show again.
fn typed(form: &FormData) -> WebhookForm {
    WebhookForm {
        url: form.get("url").unwrap_or_default().to_owned(),
        events: form.all("events").into_iter().map(str::to_owned).collect(),
        headers: form.get("headers").unwrap_or_default().to_owned(),
        problems: Vec::new(),
    }
}

/// The draft the form gives; a header that cannot be read is a problem of its own.
fn draft(form: &WebhookForm) -> Result<WebhookDraft, String> {
    Ok(WebhookDraft {
        url: Some(form.url.clone()).filter(|url| !url.is_empty()),
        active: None,
        events: Some(form.events.clone()),
        headers: Some(headers(&form.headers)?),
    })
}

/// Each problem of a refusal, in words: a field's problems as the API details them.
fn problems(error: Error) -> Result<Vec<String>, ConsoleError> {
    match error {
        Error::Invalid(errors) => Ok(errors
            .into_iter()
            .map(|error| format!("{}: {}", error.field.attribute(), error.detail))
            .collect()),
        other => Err(crate::ApiError::from(other).into()),
    }
}

/// `POST /console/webhooks`: subscribes a URL; the new webhook's page shows its secret
/// once, or the list shows the form again with what is wrong.
pub async fn create(
    State(state): State<AppState>,
    Posted { viewer, form }: Posted,
) -> Result<Response, ConsoleError> {
    let mut typed = typed(&form);
    let networks = &state.config.webhook_networks;
    let made = match draft(&typed) {
        Ok(draft) => {
            state
                .webhooks
                .create(viewer.account_id, draft, networks)
                .await
        }
        Err(problem) => {
            typed.problems.push(problem);
            return refused(&state, &viewer, Listed::Form(typed)).await;
        }
    };
    match made {
        Ok(webhook) => {
            let notice = format!(
                "Webhook created. Its signing secret: {}. Copy it now for your receiver; it is \
                 not shown again (rotate it to get a new one).",
                webhook.secret.expose()
            );
            render(&state, &viewer, &webhook, 1, None, notice).await
        }
        Err(error) => {
            typed.problems = problems(error)?;
            refused(&state, &viewer, Listed::Form(typed)).await
        }
    }
}

/// The list again with the form's problems, as 422.
async fn refused(
    state: &AppState,
    viewer: &Viewer,
    listed: Listed,
) -> Result<Response, ConsoleError> {
    answered_as(
        list_page(state, viewer, listed).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

/// `POST /console/webhooks/{id}/edit`: changes the URL, events and headers.
pub async fn edit(
    State(state): State<AppState>,
    Segment(id): Segment,
    Posted { viewer, form }: Posted,
) -> Result<Response, ConsoleError> {
    let webhook = find(&state, &viewer, &id).await?;
    let typed = typed(&form);
    let networks = &state.config.webhook_networks;
    let changed = match draft(&typed) {
        Ok(draft) => state.webhooks.change(&webhook, draft, networks).await,
        Err(problem) => return edit_refused(&state, &viewer, &webhook, vec![problem]).await,
    };
    match changed {
        Ok(_) => Ok(see_other(&format!(
            "/console/webhooks/{}?changed=1",
            webhook.id
        ))),
        Err(error) => edit_refused(&state, &viewer, &webhook, problems(error)?).await,
    }
}

/// The webhook's page again with the edit's problems, as 422.
async fn edit_refused(
    state: &AppState,
    viewer: &Viewer,
    webhook: &Webhook,
    problems: Vec<String>,
) -> Result<Response, ConsoleError> {
    let notice = format!("Not changed. {}", problems.join(" "));
    answered_as(
        render(state, viewer, webhook, 1, None, notice).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
}

/// `POST /console/webhooks/{id}/pause` and `…/resume`: stops or restarts deliveries (what
/// is recorded meanwhile waits).
pub async fn set_active(
    State(state): State<AppState>,
    Segment(id): Segment,
    uri: axum::http::Uri,
    Posted { viewer, form: _ }: Posted,
) -> Result<Response, ConsoleError> {
    let webhook = find(&state, &viewer, &id).await?;
    let active = !uri.path().ends_with("/pause");
    let draft = WebhookDraft {
        active: Some(active),
        ..WebhookDraft::default()
    };
    let networks = &state.config.webhook_networks;
    state
        .webhooks
        .change(&webhook, draft, networks)
        .await
        .map_err(crate::ApiError::from)?;
    let done = if active { "resumed" } else { "paused" };
    Ok(see_other(&format!(
        "/console/webhooks/{}?{done}=1",
        webhook.id
    )))
}

/// `POST /console/webhooks/{id}/delete`: deletes the webhook and its delivery log.
pub async fn delete(
    State(state): State<AppState>,
    Segment(id): Segment,
    Posted { viewer, form: _ }: Posted,
) -> Result<Response, ConsoleError> {
    let webhook = find(&state, &viewer, &id).await?;
    state
        .webhooks
        .delete(viewer.account_id, webhook.id)
        .await
        .map_err(crate::ApiError::from)?;
    Ok(see_other("/console/webhooks?deleted=1"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_read_a_line_each_and_a_line_without_a_colon_is_said() {
        let read = headers("X-Team: ops\n\n  Authorization: Bearer a:b  \n").expect("headers");
        assert_eq!(read.len(), 2);
        assert_eq!(
            (read[1].name.as_str(), read[1].value.as_str()),
            ("Authorization", "Bearer a:b")
        );
        assert!(
            headers("no colon here")
                .expect_err("refused")
                .contains("Name: value")
        );
        assert!(headers("").expect("none").is_empty());
    }
}
