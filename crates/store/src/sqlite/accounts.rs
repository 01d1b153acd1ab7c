//! Accounts and API keys on SQLite.

use async_trait::async_trait;
use rusqlite::Row;
use tidemark_domain::{Account, AccountId, AccountName, ApiKeyRecord, Timestamp};

use super::readers::Statement;
use super::{SqliteStore, parse_time, parse_uuid, time_text};
use crate::rows::api_key_columns;
use crate::sql;
use crate::{AccountStore, StoreError, rows};

fn account_from_row(row: &Row<'_>) -> Result<Account, StoreError> {
    let name: String = row.get("name")?;
    rows::account(
        parse_uuid(&row.get::<_, String>("id")?)?,
        &name,
        parse_time(&row.get::<_, String>("created_at")?)?,
    )
}

fn api_key_from_row(row: &Row<'_>) -> Result<ApiKeyRecord, StoreError> {
    let revoked_at: Option<String> = row.get("revoked_at")?;
    let hash: Vec<u8> = row.get("hash")?;
    rows::api_key(
        parse_uuid(&row.get::<_, String>("id")?)?,
        parse_uuid(&row.get::<_, String>("account_id")?)?,
        row.get("prefix")?,
        &hash,
        parse_time(&row.get::<_, String>("created_at")?)?,
        revoked_at.as_deref().map(parse_time).transpose()?,
    )
}

async fn insert_account<'c, E>(executor: E, account: &Account) -> Result<(), StoreError>
where
    E: sqlx::Executor<'c, Database = sqlx::Sqlite>,
{
    let inserted = sqlx::query(sql::INSERT_ACCOUNT)
        .bind(account.id.to_string())
        .bind(account.name.as_str())
        .bind(time_text(account.created_at))
        .execute(executor)
        .await?;
    if inserted.rows_affected() == 0 {
        return Err(StoreError::Conflict(sql::ACCOUNT_NAME_TAKEN));
    }
    Ok(())
}

async fn insert_key<'c, E>(executor: E, key: &ApiKeyRecord) -> Result<(), StoreError>
where
    E: sqlx::Executor<'c, Database = sqlx::Sqlite>,
{
    let inserted = sqlx::query(sql::INSERT_API_KEY)
        .bind(key.id.to_string())
        .bind(key.account_id.to_string())
        .bind(&key.prefix)
        .bind(key.hash.as_slice())
        .bind(time_text(key.created_at))
        .bind(key.revoked_at.map(time_text))
        .execute(executor)
        .await?;
    if inserted.rows_affected() == 0 {
        return Err(StoreError::Conflict(sql::KEY_PREFIX_TAKEN));
    }
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
        let mut query = Statement::new(sql::ACCOUNT_BY_ID);
        query.params.push(id.to_string().into());
        self.read
            .point(|connection| query.row(connection, account_from_row))
    }

    async fn account_by_name(&self, name: &AccountName) -> Result<Option<Account>, StoreError> {
        let mut query = Statement::new(sql::ACCOUNT_BY_NAME);
        query.params.push(name.as_str().to_owned().into());
        self.read
            .point(|connection| query.row(connection, account_from_row))
    }

    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
        let query = Statement::new(sql::LIST_ACCOUNTS);
        self.read
            .scan(|connection| query.rows(connection, account_from_row))
    }

    async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError> {
        insert_key(&self.write, key).await
    }

    async fn api_key_by_prefix(&self, prefix: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        let mut query = Statement::new(sql::API_KEY_BY_PREFIX);
        query.params.push(prefix.to_owned().into());
        self.read
            .point(|connection| query.row(connection, api_key_from_row))
    }

    async fn list_api_keys(
        &self,
        account: Option<AccountId>,
    ) -> Result<Vec<ApiKeyRecord>, StoreError> {
        let mut query = Statement::new(concat!("SELECT ", api_key_columns!(), " FROM api_keys"));
        if let Some(account) = account {
            query.push(" WHERE account_id = ").bind(account.to_string());
        }
        query.push(" ORDER BY created_at, id");
        self.read
            .scan(|connection| query.rows(connection, api_key_from_row))
    }

    async fn revoke_api_key(
        &self,
        prefix: &str,
        at: Timestamp,
    ) -> Result<Option<ApiKeyRecord>, StoreError> {
        sqlx::query(sql::REVOKE_API_KEY)
            .bind(prefix)
            .bind(time_text(at))
            .execute(&self.write)
            .await?;
        self.api_key_by_prefix(prefix).await
    }
}
