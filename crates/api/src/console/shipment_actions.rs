//! What a user does to a shipment from its page: stop tracking, resume it, or ask the line
//! now, by the use case the API's `stop_tracking`, `resume_tracking` and `refresh` call
//! (`tidemark_app::Tracking`), a refresh charged to the same per-account limit. Done, the
//! page is shown again saying so; refused, it says why, with the API's status.

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::response::Response;
use tidemark_app::Observation;
use tidemark_domain::Shipment;

use super::extract::{Posted, Segment};
use super::session::see_other;
use super::shipment::{Notice, render};
use super::{ConsoleError, Viewer, answered_as};
use crate::auth::Caller;
use crate::rate_limit::{self, RateClass};
use crate::{ApiError, AppState};

/// An action on a shipment's tracking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Stop tracking.
    Stop,
    /// Resume tracking.
    Resume,
    /// Ask the line now.
    Refresh,
}

impl Action {
    /// The action a URL names (`stop`, `resume`, `refresh`).
    #[must_use]
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "stop" => Some(Self::Stop),
            "resume" => Some(Self::Resume),
            "refresh" => Some(Self::Refresh),
            _ => None,
        }
    }

    /// Its name in a URL.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Stop => "stop",
            Self::Resume => "resume",
            Self::Refresh => "refresh",
        }
    }

    /// What the page says once it is done.
    #[must_use]
    pub fn done(self) -> &'static str {
        match self {
            Self::Stop => "Tracking stopped: the line is no longer asked about this shipment.",
            Self::Resume => "Tracking resumed: the line is asked again now.",
            Self::Refresh => "The line is asked now; this page shows its answer once it comes.",
        }
    }

    /// Does it to `shipment` for `viewer`.
    async fn apply(
        self,
        state: &AppState,
        viewer: &Viewer,
        shipment: &Shipment,
    ) -> Result<(), ApiError> {
        let account = viewer.account_id;
        match self {
            Self::Stop => Ok(state
                .tracking
                .set_tracking(account, shipment, Observation::Stop)
                .await?),
            Self::Resume => Ok(state
                .tracking
                .set_tracking(account, shipment, Observation::Resume)
                .await?),
            Self::Refresh => {
                let caller = Caller {
                    account_id: account,
                };
                rate_limit::charge(state, RateClass::Refresh, caller).await?;
                Ok(state.tracking.refresh(shipment).await?)
            }
        }
    }
}

/// The action a shipment's page was sent back after (`?done=`), if any.
#[derive(Debug)]
pub struct Done(pub Option<Action>);

impl FromRequestParts<AppState> for Done {
    type Rejection = ConsoleError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, ConsoleError> {
        let query = parts.uri.query().unwrap_or_default();
        let done = form_urlencoded::parse(query.as_bytes())
            .find(|(name, _)| name == "done")
            .and_then(|(_, value)| Action::parse(&value));
        Ok(Self(done))
    }
}

/// The action a form's path ends with.
impl FromRequestParts<AppState> for Action {
    type Rejection = ConsoleError;

    async fn from_request_parts(parts: &mut Parts, _: &AppState) -> Result<Self, ConsoleError> {
        let last = parts.uri.path().rsplit('/').next().unwrap_or_default();
        Self::parse(last).ok_or_else(|| ConsoleError::not_found("page"))
    }
}

/// `POST /console/shipments/{id}/stop`, `…/resume` and `…/refresh`.
pub async fn act(
    State(state): State<AppState>,
    Segment(id): Segment,
    action: Action,
    Posted { viewer, form: _ }: Posted,
) -> Result<Response, ConsoleError> {
    let store = state.store.as_ref();
    let shipment: Shipment = ConsoleError::found(store, viewer.account_id, &id).await?;
    match action.apply(&state, &viewer, &shipment).await {
        Ok(()) => Ok(see_other(&format!(
            "/console/shipments/{}?done={}",
            shipment.id,
            action.as_str()
        ))),
        Err(error) if error.status().is_client_error() => {
            let status = error.status();
            let why = error.details().join(" ");
            answered_as(
                render(&state, &viewer, shipment, Notice::Refused(why)).await,
                status,
            )
        }
        Err(error) => Err(error.into()),
    }
}
