//! Accounts and API keys: their SQL and rows, written once.

use async_trait::async_trait;
use tidemark_domain::account::LAST_USE_GRAIN;
use tidemark_domain::{Account, AccountId, AccountName, ApiKeyId, ApiKeyRecord, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query, Row, Unit, Value, parse_all};

const ACCOUNT: &str = "SELECT id, name, created_at FROM accounts";
const API_KEY: &str = "SELECT id, account_id, prefix, hash, created_at, revoked_at, name, \
                       last_used_at FROM api_keys";

/// What a taken account name is reported as.
const ACCOUNT_NAME_TAKEN: &str = "an account with this name";

/// What a taken key prefix is reported as.
const KEY_PREFIX_TAKEN: &str = "an API key with this prefix";

/// Accounts and API keys.
#[async_trait]
pub trait AccountStore: Send + Sync {
    /// Stores a new account; [`StoreError::Conflict`] when the name is taken.
    async fn create_account(&self, account: &Account) -> Result<(), StoreError>;

    /// Creates `account` with `key` only if no account exists yet, atomically, so two
    /// processes starting on one empty database create one first account between them.
    /// Returns whether it created them.
    async fn bootstrap_account(
        &self,
        account: &Account,
        key: &ApiKeyRecord,
    ) -> Result<bool, StoreError>;

    /// The account with this id.
    async fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError>;

    /// The account with this name.
    async fn account_by_name(&self, name: &AccountName) -> Result<Option<Account>, StoreError>;

    /// Every account, oldest first.
    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError>;

    /// Stores a new key.
    async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError>;

    /// The key with this visible prefix, revoked or not.
    async fn api_key_by_prefix(&self, prefix: &str) -> Result<Option<ApiKeyRecord>, StoreError>;

    /// Every key (of one account, when given), oldest first.
    async fn list_api_keys(
        &self,
        account: Option<AccountId>,
    ) -> Result<Vec<ApiKeyRecord>, StoreError>;

    /// Revokes the key with this prefix; returns it, or `None` when there is no such key.
    /// Revoking a revoked key keeps its first revocation time. Moves the keys' change
    /// counter ([`AccountStore::api_key_revision`]) in the same transaction.
    async fn revoke_api_key(
        &self,
        prefix: &str,
        at: Timestamp,
    ) -> Result<Option<ApiKeyRecord>, StoreError>;

    /// The keys' change counter: it moves whenever a key is revoked, so a process caching
    /// the keys it verified knows to forget them.
    async fn api_key_revision(&self) -> Result<i64, StoreError>;

    /// Records that key `id` was used at `at`, unless a use within the grain before is
    /// kept (`LAST_USE_GRAIN`): a later use only moves it forward.
    async fn touch_api_key(&self, id: ApiKeyId, at: Timestamp) -> Result<(), StoreError>;
}

fn account(row: &Row) -> Result<Account, StoreError> {
    Ok(Account {
        id: AccountId::from_uuid(row.required_id("id")?),
        name: row.parsed("name", |name| AccountName::parse(name).ok())?,
        created_at: row.required_time("created_at")?,
    })
}

fn api_key(row: &Row) -> Result<ApiKeyRecord, StoreError> {
    let prefix = row.required_text("prefix")?;
    let hash = row.bytes("hash")?;
    Ok(ApiKeyRecord {
        id: ApiKeyId::from_uuid(row.required_id("id")?),
        account_id: AccountId::from_uuid(row.required_id("account_id")?),
        hash: hash.try_into().map_err(|_| {
            StoreError::corrupt(format!("hash of key {prefix} has {} bytes", hash.len()))
        })?,
        prefix,
        created_at: row.required_time("created_at")?,
        revoked_at: row.time("revoked_at")?,
        name: row.text("name")?,
        last_used_at: row.time("last_used_at")?,
    })
}

/// Inserts an account; a taken name inserts nothing (the unique constraint on `name`
/// decides, without reading an error message). With `only_first`, it inserts nothing
/// either when any account exists. (`INSERT … SELECT` with `ON CONFLICT` needs a `WHERE`
/// for SQLite to parse it, hence `WHERE true`.)
fn insert_account(account: &Account, only_first: bool) -> Query {
    let mut query = Query::with(
        "INSERT INTO accounts (id, name, created_at) SELECT $1, $2, $3",
        vec![
            account.id.as_uuid().into(),
            account.name.as_str().into(),
            account.created_at.into(),
        ],
    );
    if only_first {
        query.push(" WHERE NOT EXISTS (SELECT 1 FROM accounts)");
    } else {
        query.push(" WHERE true");
    }
    query.push(" ON CONFLICT (name) DO NOTHING");
    query
}

/// Inserts a key; a taken prefix inserts nothing (the unique constraint on `prefix`).
/// With `only_with_account`, a missing account inserts nothing either.
fn insert_key(key: &ApiKeyRecord, only_with_account: bool) -> Query {
    let mut query = Query::with(
        "INSERT INTO api_keys (id, account_id, prefix, hash, created_at, revoked_at, name) \
         SELECT $1, $2, $3, $4, $5, $6, $7",
        vec![
            key.id.as_uuid().into(),
            key.account_id.as_uuid().into(),
            key.prefix.as_str().into(),
            Value::Bytes(key.hash.to_vec()),
            key.created_at.into(),
            key.revoked_at.into(),
            key.name.as_deref().into(),
        ],
    );
    if only_with_account {
        query.push(" WHERE EXISTS (SELECT 1 FROM accounts WHERE id = $2)");
    } else {
        query.push(" WHERE true");
    }
    query.push(" ON CONFLICT (prefix) DO NOTHING");
    query
}

fn by(select: &str, column: &str, value: impl Into<Value>) -> Query {
    let mut query = Query::new(select);
    query.push(&format!(" WHERE {column} = ")).bind(value);
    query
}

#[async_trait]
impl<B: Backend> AccountStore for B {
    async fn create_account(&self, account: &Account) -> Result<(), StoreError> {
        if self.execute(insert_account(account, false)).await? == 0 {
            return Err(StoreError::Conflict(ACCOUNT_NAME_TAKEN));
        }
        Ok(())
    }

    async fn bootstrap_account(
        &self,
        account: &Account,
        key: &ApiKeyRecord,
    ) -> Result<bool, StoreError> {
        let mut unit = Unit::default();
        if let Some(lock) = self.dialect().lock_accounts {
            unit.push(Query::new(lock));
        }
        let created = unit.push(insert_account(account, true));
        unit.push(insert_key(key, true));
        // Without the account, nothing: the key is undone with it.
        unit.guards.push(vec![created]);
        Ok(self.write(unit).await?.kept)
    }

    async fn account_by_id(&self, id: AccountId) -> Result<Option<Account>, StoreError> {
        let query = by(ACCOUNT, "id", id.as_uuid());
        self.fetch_one(&query)
            .await?
            .as_ref()
            .map(account)
            .transpose()
    }

    async fn account_by_name(&self, name: &AccountName) -> Result<Option<Account>, StoreError> {
        let query = by(ACCOUNT, "name", name.as_str());
        self.fetch_one(&query)
            .await?
            .as_ref()
            .map(account)
            .transpose()
    }

    async fn list_accounts(&self) -> Result<Vec<Account>, StoreError> {
        let query = Query::new(&format!("{ACCOUNT} ORDER BY created_at, id"));
        parse_all(self.fetch(&query).await?, account)
    }

    async fn insert_api_key(&self, key: &ApiKeyRecord) -> Result<(), StoreError> {
        if self.execute(insert_key(key, false)).await? == 0 {
            return Err(StoreError::Conflict(KEY_PREFIX_TAKEN));
        }
        Ok(())
    }

    async fn api_key_by_prefix(&self, prefix: &str) -> Result<Option<ApiKeyRecord>, StoreError> {
        let query = by(API_KEY, "prefix", prefix);
        self.fetch_one(&query)
            .await?
            .as_ref()
            .map(api_key)
            .transpose()
    }

    async fn list_api_keys(
        &self,
        account: Option<AccountId>,
    ) -> Result<Vec<ApiKeyRecord>, StoreError> {
        let mut query = Query::new(API_KEY);
        if let Some(account) = account {
            query.push(" WHERE account_id = ").bind(account.as_uuid());
        }
        query.push(" ORDER BY created_at, id");
        parse_all(self.fetch(&query).await?, api_key)
    }

    async fn revoke_api_key(
        &self,
        prefix: &str,
        at: Timestamp,
    ) -> Result<Option<ApiKeyRecord>, StoreError> {
        let revoke = Query::with(
            "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE prefix = $1 \
             RETURNING id, account_id, prefix, hash, created_at, revoked_at, name, last_used_at",
            vec![prefix.into(), at.into()],
        );
        // The processes that cache keys hear of it through the counter, moved with it.
        let mut unit = Unit::default();
        let revoked = unit.push(revoke);
        unit.push(Query::new(
            "UPDATE api_key_revision SET revision = revision + 1 WHERE id = 1",
        ));
        let mut written = self.write(unit).await?;
        written.rows(revoked).first().map(api_key).transpose()
    }

    async fn touch_api_key(&self, id: ApiKeyId, at: Timestamp) -> Result<(), StoreError> {
        let since = Timestamp::from_datetime(at.as_datetime() - LAST_USE_GRAIN);
        let touch = Query::with(
            "UPDATE api_keys SET last_used_at = $2 WHERE id = $1 \
             AND (last_used_at IS NULL OR last_used_at <= $3)",
            vec![id.as_uuid().into(), at.into(), since.into()],
        );
        self.execute(touch).await?;
        Ok(())
    }

    async fn api_key_revision(&self) -> Result<i64, StoreError> {
        let query = Query::new("SELECT revision FROM api_key_revision WHERE id = 1");
        match self.fetch_one(&query).await? {
            Some(row) => row.int("revision"),
            None => Ok(0),
        }
    }
}
