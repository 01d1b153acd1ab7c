//! Idempotency keys: the first answer to an account's key, kept for a retry of the same
//! request. A key is claimed by inserting it (the database decides who is first, across
//! processes); the claimant keeps its answer, or releases the key when it failed (a 5xx).
//! A claim whose lock passed (its process died) or whose answer expired may be taken over.
//! An account's expired keys go when it claims another.

use std::time::Duration;

use async_trait::async_trait;
use tidemark_domain::{AccountId, Timestamp};

use crate::StoreError;
use crate::db::{Backend, Query, Row, Value};

/// An answer kept for a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptAnswer {
    /// Its HTTP status.
    pub status: u16,
    /// Its `Content-Type`.
    pub content_type: Option<String>,
    /// Its `Location`.
    pub location: Option<String>,
    /// Its body.
    pub body: Vec<u8>,
}

/// Who has a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The caller: it answers, then keeps the answer or releases the key.
    Taken,
    /// A request of `fingerprint` was answered so.
    Answered {
        /// The answered request's fingerprint.
        fingerprint: String,
        /// Its answer.
        answer: KeptAnswer,
    },
    /// A request of `fingerprint` is being answered.
    InProgress {
        /// Its fingerprint.
        fingerprint: String,
    },
}

/// How often a claim is tried again after losing a race for the same key.
const RACES: usize = 8;

const COLUMNS: &str = "fingerprint, status, content_type, location, body, locked_until, expires_at";

/// Idempotency keys.
#[async_trait]
pub trait IdempotencyStore: Send + Sync {
    /// Claims `account`'s `key` for a request of `fingerprint` at `now`, locked for
    /// `lock` and kept for `keep`; or says who has it.
    async fn claim_key(
        &self,
        account: AccountId,
        key: &str,
        fingerprint: &str,
        now: Timestamp,
        (lock, keep): (Duration, Duration),
    ) -> Result<Claim, StoreError>;

    /// Keeps `answer` for the key claimed for `fingerprint`.
    async fn keep_answer(
        &self,
        account: AccountId,
        key: &str,
        fingerprint: &str,
        answer: &KeptAnswer,
    ) -> Result<(), StoreError>;

    /// Lets the key claimed for `fingerprint` go unanswered (the request failed).
    async fn release_key(
        &self,
        account: AccountId,
        key: &str,
        fingerprint: &str,
    ) -> Result<(), StoreError>;
}

fn of_key(query: &mut Query, account: AccountId, key: &str) {
    query
        .push(" WHERE account_id = ")
        .bind(account.as_uuid())
        .push(" AND key = ")
        .bind(key);
}

fn claim_of(row: &Row) -> Result<Claim, StoreError> {
    let fingerprint = row.required_text("fingerprint")?;
    Ok(match row.int_opt("status")? {
        None => Claim::InProgress { fingerprint },
        Some(status) => Claim::Answered {
            fingerprint,
            answer: KeptAnswer {
                status: u16::try_from(status).unwrap_or(500),
                content_type: row.text("content_type")?,
                location: row.text("location")?,
                body: row.bytes("body")?.to_vec(),
            },
        },
    })
}

#[async_trait]
impl<T: Backend> IdempotencyStore for T {
    async fn claim_key(
        &self,
        account: AccountId,
        key: &str,
        fingerprint: &str,
        now: Timestamp,
        (lock, keep): (Duration, Duration),
    ) -> Result<Claim, StoreError> {
        let mut expired = Query::new("DELETE FROM idempotency_keys WHERE account_id = ");
        expired
            .bind(account.as_uuid())
            .push(" AND expires_at <= ")
            .bind(now);
        self.execute(expired).await?;
        let mut last = Claim::InProgress {
            fingerprint: fingerprint.to_owned(),
        };
        for _ in 0..RACES {
            let mut insert = Query::new(&format!(
                "INSERT INTO idempotency_keys (account_id, key, {COLUMNS}) VALUES ("
            ));
            insert
                .bind(account.as_uuid())
                .push(", ")
                .bind(key)
                .push(", ")
                .bind(fingerprint)
                .push(", NULL, NULL, NULL, ")
                .bind(Value::Bytes(Vec::new()))
                .push(", ")
                .bind(now + lock)
                .push(", ")
                .bind(now + keep)
                .push(") ON CONFLICT (account_id, key) DO NOTHING");
            if self.execute(insert).await? == 1 {
                return Ok(Claim::Taken);
            }
            let mut read = Query::new(&format!("SELECT {COLUMNS} FROM idempotency_keys"));
            of_key(&mut read, account, key);
            let Some(row) = self.fetch_one(&read).await? else {
                continue;
            };
            let locked_until = row.required_time("locked_until")?;
            let expires_at = row.required_time("expires_at")?;
            last = claim_of(&row)?;
            let abandoned = matches!(last, Claim::InProgress { .. }) && locked_until <= now;
            if expires_at > now && !abandoned {
                return Ok(last);
            }
            let mut take = Query::new("UPDATE idempotency_keys SET fingerprint = ");
            take.bind(fingerprint)
                .push(", status = NULL, content_type = NULL, location = NULL, body = ")
                .bind(Value::Bytes(Vec::new()))
                .push(", locked_until = ")
                .bind(now + lock)
                .push(", expires_at = ")
                .bind(now + keep);
            of_key(&mut take, account, key);
            take.push(" AND locked_until = ")
                .bind(locked_until)
                .push(" AND expires_at = ")
                .bind(expires_at);
            if self.execute(take).await? == 1 {
                return Ok(Claim::Taken);
            }
        }
        Ok(last)
    }

    async fn keep_answer(
        &self,
        account: AccountId,
        key: &str,
        fingerprint: &str,
        answer: &KeptAnswer,
    ) -> Result<(), StoreError> {
        let mut query = Query::new("UPDATE idempotency_keys SET status = ");
        query
            .bind(i64::from(answer.status))
            .push(", content_type = ")
            .bind(answer.content_type.clone())
            .push(", location = ")
            .bind(answer.location.clone())
            .push(", body = ")
            .bind(Value::Bytes(answer.body.clone()));
        of_key(&mut query, account, key);
        query
            .push(" AND fingerprint = ")
            .bind(fingerprint)
            .push(" AND status IS NULL");
        self.execute(query).await?;
        Ok(())
    }

    async fn release_key(
        &self,
        account: AccountId,
        key: &str,
        fingerprint: &str,
    ) -> Result<(), StoreError> {
        let mut query = Query::new("DELETE FROM idempotency_keys");
        of_key(&mut query, account, key);
        query
            .push(" AND fingerprint = ")
            .bind(fingerprint)
            .push(" AND status IS NULL");
        self.execute(query).await?;
        Ok(())
    }
}
