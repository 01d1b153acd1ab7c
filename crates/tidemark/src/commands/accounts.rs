//! `tidemark accounts …`

use anyhow::{Context, bail};
use tidemark_domain::{Account, AccountId, AccountName, Clock, SystemClock};
use tidemark_store::Store;

use crate::cli::AccountsCommand;
use crate::config::Config;
use crate::output;

/// Runs an accounts command.
pub async fn run(config: &Config, command: AccountsCommand) -> anyhow::Result<()> {
    let store = super::open(config, false).await?;
    match command {
        AccountsCommand::Create { name } => {
            let name = AccountName::parse(&name).context("invalid account name")?;
            let account = create(store.as_ref(), name).await?;
            output::line(format!("{}\t{}", account.id, account.name))?;
        }
        AccountsCommand::List => {
            output::line("ID\tNAME\tCREATED")?;
            for account in store.list_accounts().await? {
                output::line(format!(
                    "{}\t{}\t{}",
                    account.id, account.name, account.created_at
                ))?;
            }
        }
    }
    Ok(())
}

async fn create(store: &dyn Store, name: AccountName) -> anyhow::Result<Account> {
    let account = Account {
        id: AccountId::new(),
        name,
        created_at: SystemClock.now(),
    };
    store.create_account(&account).await?;
    Ok(account)
}

/// Finds an account by id or name; with `create_missing`, a missing name is created.
pub async fn resolve(
    store: &dyn Store,
    name_or_id: &str,
    create_missing: bool,
) -> anyhow::Result<Account> {
    if let Some(id) = AccountId::parse(name_or_id.trim()) {
        return store
            .account_by_id(id)
            .await?
            .with_context(|| format!("no account has the id {id}"));
    }
    let name = AccountName::parse(name_or_id).context("invalid account name")?;
    if let Some(account) = store.account_by_name(&name).await? {
        return Ok(account);
    }
    if !create_missing {
        bail!(
            "no account is named {name:?}: `tidemark accounts create {name}` creates it \
             (or add --create-account)"
        );
    }
    create(store, name).await
}
