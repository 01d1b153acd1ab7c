//! Accounts and API keys on SQLite.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::sqlite::SqliteRow;
use tidemark_domain::{Account, AccountId, AccountName, ApiKeyRecord, Timestamp};

use super::{SqliteStore, is_unique_violation, parse_time, parse_uuid, time_text};
use crate::rows::api_key_columns;
use crate::sql;
use crate::{AccountStore, StoreError, rows};

fn account_from_row(row: &SqliteRow) -> Result<Account, StoreError> {
    rows::account(
        parse_uuid(row.try_get("id")?)?,
        row.try_get("name")?,
        parse_time(row.try_get("created_at")?)?,
    )
}

fn api_key_from_row(row: &SqliteRow) -> Result<ApiKeyRecord, StoreError> {
    let revoked_at: Option<&str> = row.try_get("revoked_at")?;
    rows::api_key(
        parse_uuid(row.try_get("id")?)?,
        parse_uuid(row.try_get("account_id")?)?,
        row.try_get("prefix")?,
        row.try_get("hash")?,
        parse_time(row.try_get("created_at")?)?,
        revoked_at.map(parse_time).transpose()?,
    )
}

async fn insert_account<'c, E>(executor: E, account: &Account) -> Result<(), StoreError>
where
    E: sqlx::Executor<'c, Database = sqlx::Sqlite>,
{
    sqlx::query(sql::INSERT_ACCOUNT)
        .bind(account.id.to_string())
        .bind(account.name.as_str())
        .bind(time_text(account.created_at))
        .execute(executor)
        .await
        .map_err(|error| {
            if is_unique_violation(&error, "accounts.name") {
                StoreError::Conflict("an account with this name")
            } else {
                error.into()
            }
        })?;
    Ok(())
}

async fn insert_key<'c, E>(executor: E, key: &ApiKeyRecord) -> Result<(), StoreError>
where
    E: sqlx::Executor<'c, Database = sqlx::Sqlite>,
{
    sqlx::query(sql::INSERT_API_KEY)
        .bind(key.id.to_string())
        .bind(key.account_id.to_string())
        .bind(&key.prefix)
        .bind(key.hash.as_slice())
        .bind(time_text(key.created_at))
        .bind(key.revoked_at.map(time_text))
        .execute(executor)
        .await
        .map_err(|error| {
            if is_unique_violation(&error, "api_keys.prefix") {
                StoreError::Conflict("an API key with this prefix")
            } else {
                error.into()
            }
        })?;
    Ok(())
}

#[async_trait]
impl AccountStore for SqliteStore {
    async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
        insert_account(&self.write, account).await
    }

    async fn bootstrap_account(
        &self,
        account: &Account,
        key: &ApiKeyRecord,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin_with("BEGIN IMMEDIATE").await?;
        let existing: i64 = sqlx::query_scalar(sql::COUNT_ACCOUNTS)
            .fetch_one(&mut *tx)
            .await?;
        if existing > 0 {
            return Ok(false);
        }
        insert_account(&mut *tx, account).await?;
        insert_key(&mut *tx, key).await?;
        tx.commit().await?;
        Ok(true)
    }

    async fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        sqlx::query(sql::ACCOUNT_BY_ID)
            .bind(id.to_string())
            .fetch_optional(&self.read)
            .await?
            .as_ref()
            .map(account_from_row)
            .transpose()
    }

    async fn account_by_name(&self, name: &AccountName) -> Result<Option<Account>, StoreError> {
        sqlx::query(sql::ACCOUNT_BY_NAME)
            .bind(name.as_str())
            .fetch_optional(&self.read)
            .await?
            .as_ref()
            .map(account_from_row)
            .transpose()
    }

    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
        sqlx::query(sql::LIST_ACCOUNTS)
            .fetch_all(&self.read)
            .await?
            .iter()
            .map(account_from_row)
            .collect()
    }

    async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError> {
        insert_key(&self.write, key).await
    }

    async fn api_key_by_prefix(&self, prefix: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        sqlx::query(sql::API_KEY_BY_PREFIX)
            .bind(prefix)
            .fetch_optional(&self.read)
            .await?
            .as_ref()
            .map(api_key_from_row)
            .transpose()
    }

    async fn list_api_keys(
        &self,
        account: Option<AccountId>,
    ) -> Result<Vec<ApiKeyRecord>, StoreError> {
        sqlx::query(concat!(
            "SELECT ",
            api_key_columns!(),
            " FROM api_keys WHERE $1 IS NULL OR account_id = $1 ORDER BY created_at, id"
        ))
        .bind(account.map(|id| id.to_string()))
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(api_key_from_row)
        .collect()
    }

    async fn revoke_api_key(
        &self,
        prefix: &str,
        at: Timestamp,
    ) -> Result<Option<ApiKeyRecord>, StoreError> {
        sqlx::query(sql::REVOKE_API_KEY)
            .bind(prefix)
            .bind(time_text(at))
            .fetch_optional(&self.write)
            .await?
            .as_ref()
            .map(api_key_from_row)
            .transpose()
    }
}
