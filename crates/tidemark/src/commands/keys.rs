//! `tidemark keys …`

use std::collections::HashMap;

use anyhow::Context;
use tidemark_domain::{ApiKey, Clock, SystemClock};

use crate::cli::KeysCommand;
use crate::config::Config;
use crate::output;

/// Length of a key's visible prefix (`tdm_` and 8 characters).
const PREFIX_LEN: usize = 12;

/// Runs a keys command.
pub async fn run(config: &Config, command: KeysCommand) -> anyhow::Result<()> {
    let store = super::open(config, false).await?;
    match command {
        KeysCommand::Create {
            account,
            create_account,
        } => {
            let account =
                super::accounts::resolve(store.as_ref(), &account, create_account).await?;
            let key = ApiKey::generate(account.id, SystemClock.now());
            store.insert_api_key(&key.record).await?;
            tracing::info!(prefix = %key.record.prefix, account = %account.name, "API key created");
            output::line(key.secret.expose())?;
        }
        KeysCommand::List { account } => {
            let only = match account {
                Some(name_or_id) => Some(
                    super::accounts::resolve(store.as_ref(), &name_or_id, false)
                        .await?
                        .id,
                ),
                None => None,
            };
            let names: HashMap<_, _> = store
                .list_accounts()
                .await?
                .into_iter()
                .map(|account| (account.id, account.name.to_string()))
                .collect();
            output::line("PREFIX\tACCOUNT\tCREATED\tREVOKED")?;
            for key in store.list_api_keys(only).await? {
                let account = names
                    .get(&key.account_id)
                    .cloned()
                    .unwrap_or_else(|| key.account_id.to_string());
                let revoked = key
                    .revoked_at
                    .map_or_else(|| "-".to_owned(), |at| at.to_string());
                output::line(format!(
                    "{}\t{account}\t{}\t{revoked}",
                    key.prefix, key.created_at
                ))?;
            }
        }
        KeysCommand::Revoke { key } => {
            let prefix: String = key.trim().chars().take(PREFIX_LEN).collect();
            let revoked = store
                .revoke_api_key(&prefix, SystemClock.now())
                .await?
                .with_context(|| format!("no API key has the prefix {prefix}"))?;
            tracing::info!(prefix = %revoked.prefix, "API key revoked");
            output::line(format!("revoked {}", revoked.prefix))?;
        }
    }
    Ok(())
}
