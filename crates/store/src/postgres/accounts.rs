//! Accounts and API keys on PostgreSQL.

use async_trait::async_trait;
use sqlx::Row;
use sqlx::postgres::PgRow;
use tidemark_domain::{Account, AccountId, AccountName, ApiKeyRecord, Timestamp};
use time::OffsetDateTime;

use super::{PgStore, time_of};
use crate::rows::api_key_columns;
use crate::sql;
use crate::{AccountStore, StoreError, rows};

fn account_from_row(row: &PgRow) -> Result<Account, StoreError> {
    rows::account(
        row.try_get("id")?,
        row.try_get("name")?,
        time_of(row.try_get("created_at")?),
    )
}

fn api_key_from_row(row: &PgRow) -> Result<ApiKeyRecord, StoreError> {
    let revoked_at: Option<OffsetDateTime> = row.try_get("revoked_at")?;
    let hash: Vec<u8> = row.try_get("hash")?;
    rows::api_key(
        row.try_get("id")?,
        row.try_get("account_id")?,
        row.try_get("prefix")?,
        &hash,
        time_of(row.try_get("created_at")?),
        revoked_at.map(time_of),
    )
}

async fn insert_account<'c, E>(executor: E, account: &Account) -> Result<(), StoreError>
where
    E: sqlx::Executor<'c, Database = sqlx::Postgres>,
{
    let inserted = sqlx::query(sql::INSERT_ACCOUNT)
        .bind(account.id.as_uuid())
        .bind(account.name.as_str())
        .bind(account.created_at.as_datetime())
        .execute(executor)
        .await?;
    if inserted.rows_affected() == 0 {
        return Err(StoreError::Conflict(sql::ACCOUNT_NAME_TAKEN));
    }
    Ok(())
}

async fn insert_key<'c, E>(executor: E, key: &ApiKeyRecord) -> Result<(), StoreError>
where
    E: sqlx::Executor<'c, Database = sqlx::Postgres>,
{
    let inserted = sqlx::query(sql::INSERT_API_KEY)
        .bind(key.id.as_uuid())
        .bind(key.account_id.as_uuid())
        .bind(&key.prefix)
        .bind(key.hash.as_slice())
        .bind(key.created_at.as_datetime())
        .bind(key.revoked_at.map(|at| at.as_datetime()))
        .execute(executor)
        .await?;
    if inserted.rows_affected() == 0 {
        return Err(StoreError::Conflict(sql::KEY_PREFIX_TAKEN));
    }
    Ok(())
}

#[async_trait]
impl AccountStore for PgStore {
    async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
        insert_account(&self.pool, account).await
    }

    async fn bootstrap_account(
        &self,
        account: &Account,
        key: &ApiKeyRecord,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        // Serializes concurrent first starts: whoever takes the lock first decides.
        sqlx::query("LOCK TABLE accounts IN SHARE ROW EXCLUSIVE MODE")
            .execute(&mut *tx)
            .await?;
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
            .bind(id.as_uuid())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(account_from_row)
            .transpose()
    }

    async fn account_by_name(&self, name: &AccountName) -> Result<Option<Account>, StoreError> {
        sqlx::query(sql::ACCOUNT_BY_NAME)
            .bind(name.as_str())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(account_from_row)
            .transpose()
    }

    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
        sqlx::query(sql::LIST_ACCOUNTS)
            .fetch_all(&self.pool)
            .await?
            .iter()
            .map(account_from_row)
            .collect()
    }

    async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError> {
        insert_key(&self.pool, key).await
    }

    async fn api_key_by_prefix(&self, prefix: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        sqlx::query(sql::API_KEY_BY_PREFIX)
            .bind(prefix)
            .fetch_optional(&self.pool)
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
            " FROM api_keys WHERE $1::uuid IS NULL OR account_id = $1 ORDER BY created_at, id"
        ))
        .bind(account.map(|id| id.as_uuid()))
        .fetch_all(&self.pool)
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
            .bind(at.as_datetime())
            .fetch_optional(&self.pool)
            .await?
            .as_ref()
            .map(api_key_from_row)
            .transpose()
    }
}
