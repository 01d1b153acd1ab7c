//! A terminal's pushes (the terminal protocol's answer, sent to a subscription): applied to
//! every open request tracking one of its boxes at that terminal.

use serde_json::json;
use tidemark_carriers::terminal::protocol;
use tidemark_domain::terminal::{TerminalCode, TerminalReport};
use tidemark_store::StoreError;

use super::{Applied, CallbackReply, Inbox, bearer};

impl Inbox {
    pub(super) async fn take_terminal_push(
        &self,
        code: &str,
        token: Option<&str>,
        body: &[u8],
    ) -> Result<CallbackReply, StoreError> {
        let terminals = self.carriers.terminals();
        let code = TerminalCode::parse(code).ok();
        let Some((code, source)) =
            bearer(code, token, |code, token| terminals.authorize(code, token))
        else {
            return Ok(CallbackReply::Unauthorized);
        };
        let reports: Vec<(String, TerminalReport)> = match protocol::read_pushed(body) {
            Ok(reports) => reports
                .into_iter()
                .filter_map(|(number, report)| Some((number, report?)))
                .collect(),
            Err(problem) => return Ok(CallbackReply::Refused(problem)),
        };
        let numbers: Vec<String> = reports.iter().map(|(number, _)| number.clone()).collect();
        let requests = self
            .store
            .open_requests_of_containers(&numbers, source.into())
            .await?;
        let mut applied = 0;
        for id in &requests {
            let outcome = self.apply(None, *id, &[], &reports, Some(&code)).await?;
            if matches!(outcome, Applied::Committed(_)) {
                applied += 1;
            }
        }
        tracing::info!(terminal = %code, containers = reports.len(), requests = requests.len(), applied, "terminal push");
        Ok(CallbackReply::Answered {
            status: 200,
            body: json!({
                "containers": reports.len(),
                "trackingRequests": requests.len(),
                "applied": applied,
            }),
        })
    }
}
