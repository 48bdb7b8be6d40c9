//! The people area's persistence: console accounts. Every SQL statement of
//! the area is here.

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Row, Stmt, Store};

use super::Role;

/// A console account as stored.
pub(crate) struct Account {
    pub person_id: String,
    pub environment: Environment,
    pub email: String,
    pub role: Role,
    /// argon2id, PHC string
    pub password_hash: String,
    pub must_change_password: bool,
    /// sealed under the host key, with the person's id as context
    pub totp_secret: String,
    /// the last TOTP time step accepted: a code is good once
    pub last_totp_step: i64,
    pub disabled_at: Option<i64>,
    /// who made the account: `cli`, an admin key's id or an admin person's id
    pub created_by: Option<String>,
    /// the admin who asked to enable the disabled account, where a second must agree
    pub enable_proposed_by: Option<String>,
    /// the identity provider's issuer and subject of an account that signs in
    /// through it (and never with a password)
    pub oidc: Option<(String, String)>,
}

fn account_from(row: &Row) -> ApiResult<Account> {
    Ok(Account {
        person_id: row.text(0)?,
        environment: Environment::parse(&row.text(1)?).ok_or_else(ApiError::internal)?,
        email: row.text(2)?,
        role: Role::parse(&row.text(3)?).ok_or_else(ApiError::internal)?,
        password_hash: row.text(4)?,
        must_change_password: row.int(5)? != 0,
        totp_secret: row.text(6)?,
        last_totp_step: row.int(7)?,
        disabled_at: row.opt_int(8)?,
        created_by: row.opt_text(9)?,
        enable_proposed_by: row.opt_text(10)?,
        oidc: row.opt_text(11)?.zip(row.opt_text(12)?),
    })
}

/// The account's columns, as [`account_from`] reads them, of the rows `$where` selects.
macro_rules! accounts_where {
    ($where:literal) => {
        concat!(
            "SELECT person_id, environment, email, role, password_hash, must_change_password, totp_secret, last_totp_step, disabled_at,
                    created_by, enable_proposed_by, oidc_issuer, oidc_subject
             FROM console_accounts WHERE ",
            $where
        )
    };
}

/// The account of an e-mail address in an environment.
pub(crate) async fn account_by_email(store: &dyn Store, environment: Environment, email: &str) -> ApiResult<Option<Account>> {
    let rows = store.query(accounts_where!("environment = ?1 AND email = ?2"), vec![environment.as_str().into(), email.into()]).await?;
    rows.first().map(account_from).transpose()
}

/// The account of an identity provider's subject in an environment.
pub(crate) async fn account_by_subject(store: &dyn Store, environment: Environment, issuer: &str, subject: &str) -> ApiResult<Option<Account>> {
    let rows = store
        .query(
            accounts_where!("environment = ?1 AND oidc_issuer = ?2 AND oidc_subject = ?3"),
            vec![environment.as_str().into(), issuer.into(), subject.into()],
        )
        .await?;
    rows.first().map(account_from).transpose()
}

/// A sign-in begun at the identity provider: its state's SHA-256, the
/// nonce its ID token must carry and the PKCE verifier of its code.
pub(crate) fn insert_oidc_login(state_hash: &str, environment: Environment, nonce: &str, verifier: &str, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO oidc_logins (state_hash, environment, nonce, verifier, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        vec![state_hash.into(), environment.as_str().into(), nonce.into(), verifier.into(), now.into()],
    )
}

/// A begun sign-in not yet finished, made since `since`: its environment, nonce and verifier.
pub(crate) async fn oidc_login(store: &dyn Store, state_hash: &str, since: i64) -> ApiResult<Option<(Environment, String, String)>> {
    let rows = store
        .query(
            "SELECT environment, nonce, verifier FROM oidc_logins WHERE state_hash = ?1 AND used_at IS NULL AND created_at >= ?2",
            vec![state_hash.into(), since.into()],
        )
        .await?;
    rows.first().map(|r| Ok((Environment::parse(&r.text(0)?).ok_or_else(ApiError::internal)?, r.text(1)?, r.text(2)?))).transpose()
}

/// Finishes a begun sign-in, once: a second callback with its state loses.
pub(crate) fn use_oidc_login(state_hash: &str, now: i64) -> Stmt {
    Stmt::expect_one("UPDATE oidc_logins SET used_at = ?2 WHERE state_hash = ?1 AND used_at IS NULL", vec![state_hash.into(), now.into()])
}

/// An enabled account, by id.
pub(crate) async fn account_by_id(store: &dyn Store, person_id: &str) -> ApiResult<Option<Account>> {
    let rows = store.query(accounts_where!("person_id = ?1 AND disabled_at IS NULL"), vec![person_id.into()]).await?;
    rows.first().map(account_from).transpose()
}

/// An account of the environment, by id, enabled or not.
pub(crate) async fn account_in(store: &dyn Store, environment: Environment, person_id: &str) -> ApiResult<Option<Account>> {
    let rows = store.query(accounts_where!("person_id = ?1 AND environment = ?2"), vec![person_id.into(), environment.as_str().into()]).await?;
    rows.first().map(account_from).transpose()
}

/// Who made an account, and whether its maker saw first secrets (a
/// one-time password and a TOTP secret; an identity provider's account has none).
#[derive(Debug, Clone)]
pub(crate) struct Maker {
    pub person_id: String,
    pub created_by: Option<String>,
    pub first_secrets: bool,
}

/// Who made each of these accounts (`None` for one made before this was recorded).
pub(crate) async fn creators(store: &dyn Store, person_ids: [&str; 2]) -> ApiResult<Vec<Maker>> {
    let rows = store
        .query(
            "SELECT person_id, created_by, CASE WHEN oidc_subject IS NULL THEN 1 ELSE 0 END FROM console_accounts WHERE person_id IN (?1, ?2)",
            vec![person_ids[0].into(), person_ids[1].into()],
        )
        .await?;
    rows.iter().map(|r| Ok(Maker { person_id: r.text(0)?, created_by: r.opt_text(1)?, first_secrets: r.int(2)? != 0 })).collect()
}

/// Inserts an account; an address already taken in the environment makes the batch lose.
pub(crate) fn insert_account(a: &Account, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO console_accounts (person_id, environment, email, role, password_hash, must_change_password, totp_secret, last_totp_step,
                                       disabled_at, created_at, updated_at, created_by, oidc_issuer, oidc_subject, enable_proposed_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?13, ?9, ?9, ?10, ?11, ?12, ?14)",
        vec![
            a.person_id.as_str().into(),
            a.environment.as_str().into(),
            a.email.as_str().into(),
            a.role.as_str().into(),
            a.password_hash.as_str().into(),
            a.must_change_password.into(),
            a.totp_secret.as_str().into(),
            a.last_totp_step.into(),
            now.into(),
            a.created_by.as_deref().into(),
            a.oidc.as_ref().map(|(issuer, _)| issuer.as_str()).into(),
            a.oidc.as_ref().map(|(_, subject)| subject.as_str()).into(),
            a.disabled_at.into(),
            a.enable_proposed_by.as_deref().into(),
        ],
    )
}

/// Disables an account that is enabled; a disabled one stays as it is, but
/// for a pending request to enable it, which is dropped.
pub(crate) fn disable(person_id: &str, now: i64) -> Stmt {
    Stmt::new(
        "UPDATE console_accounts SET disabled_at = COALESCE(disabled_at, ?2), enable_proposed_by = NULL, updated_at = ?2 WHERE person_id = ?1",
        vec![person_id.into(), now.into()],
    )
}

/// Records the first admin's request to enable a disabled account, in
/// place of `replaced` (none, or a request whose admin no longer is one);
/// loses when the account was enabled, or the request changed, since it was read.
pub(crate) fn propose_enable(person_id: &str, replaced: Option<&str>, by: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE console_accounts SET enable_proposed_by = ?2, updated_at = ?3
         WHERE person_id = ?1 AND disabled_at IS NOT NULL AND COALESCE(enable_proposed_by, '') = ?4",
        vec![person_id.into(), by.into(), now.into(), replaced.unwrap_or_default().into()],
    )
}

/// Enables a disabled account whose pending request is still `proposed_by`'s
/// (none, where one admin decides), while that admin still is one: a request
/// whose admin was disabled or lowered since loses here, not only when read.
pub(crate) fn enable(person_id: &str, proposed_by: Option<&str>, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE console_accounts SET disabled_at = NULL, enable_proposed_by = NULL, updated_at = ?3
         WHERE person_id = ?1 AND disabled_at IS NOT NULL AND COALESCE(enable_proposed_by, '') = ?2
           AND (?2 = '' OR EXISTS (SELECT 1 FROM console_accounts p WHERE p.person_id = ?2 AND p.disabled_at IS NULL AND p.role = ?4))",
        vec![person_id.into(), proposed_by.unwrap_or_default().into(), now.into(), super::Role::Admin.as_str().into()],
    )
}

/// Records the TOTP step of a sign-in; loses when
/// a code of this or a later step was taken meanwhile.
pub(crate) fn take_totp_step(person_id: &str, step: i64, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE console_accounts SET last_totp_step = ?2, updated_at = ?3 WHERE person_id = ?1 AND last_totp_step < ?2",
        vec![person_id.into(), step.into(), now.into()],
    )
}

/// A session as stored, with its person's account.
pub(crate) struct Session {
    pub person_id: String,
    pub role: Role,
    pub must_change_password: bool,
    pub last_seen_at: i64,
    pub created_at: i64,
}

/// The live session of a token's hash: not ended, and its account enabled.
pub(crate) async fn session(store: &dyn Store, environment: Environment, session_hash: &str) -> ApiResult<Option<Session>> {
    let rows = store
        .query(
            "SELECT s.person_id, a.role, a.must_change_password, s.last_seen_at, s.created_at
             FROM console_sessions s JOIN console_accounts a ON a.person_id = s.person_id
             WHERE s.session_hash = ?1 AND s.environment = ?2 AND a.environment = ?2 AND s.ended_at IS NULL AND a.disabled_at IS NULL",
            vec![session_hash.into(), environment.as_str().into()],
        )
        .await?;
    rows.first()
        .map(|row| {
            Ok(Session {
                person_id: row.text(0)?,
                role: Role::parse(&row.text(1)?).ok_or_else(ApiError::internal)?,
                must_change_password: row.int(2)? != 0,
                last_seen_at: row.int(3)?,
                created_at: row.int(4)?,
            })
        })
        .transpose()
}

pub(crate) fn insert_session(session_hash: &str, person_id: &str, environment: Environment, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO console_sessions (session_hash, person_id, environment, created_at, last_seen_at, ended_at) VALUES (?1, ?2, ?3, ?4, ?4, NULL)",
        vec![session_hash.into(), person_id.into(), environment.as_str().into(), now.into()],
    )
}

/// Moves a live session's last use on.
pub(crate) fn touch_session(session_hash: &str, now: i64) -> Stmt {
    Stmt::new(
        "UPDATE console_sessions SET last_seen_at = ?2 WHERE session_hash = ?1 AND ended_at IS NULL AND last_seen_at < ?2",
        vec![session_hash.into(), now.into()],
    )
}

pub(crate) fn end_session(session_hash: &str, now: i64) -> Stmt {
    Stmt::new("UPDATE console_sessions SET ended_at = COALESCE(ended_at, ?2) WHERE session_hash = ?1", vec![session_hash.into(), now.into()])
}

/// Ends every session of a person (a disabled account, a changed password).
pub(crate) fn end_sessions_of(person_id: &str, now: i64) -> Stmt {
    Stmt::new("UPDATE console_sessions SET ended_at = ?2 WHERE person_id = ?1 AND ended_at IS NULL", vec![person_id.into(), now.into()])
}

/// Sets a new password, which the person chose: no change is required any more.
pub(crate) fn set_password(person_id: &str, password_hash: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE console_accounts SET password_hash = ?2, must_change_password = 0, updated_at = ?3 WHERE person_id = ?1 AND disabled_at IS NULL",
        vec![person_id.into(), password_hash.into(), now.into()],
    )
}

/// An enabled account of the environment, by id: its role.
pub(crate) async fn enabled_role(store: &dyn Store, environment: Environment, person_id: &str) -> ApiResult<Option<Role>> {
    let rows = store
        .query(
            "SELECT role FROM console_accounts WHERE person_id = ?1 AND environment = ?2 AND disabled_at IS NULL",
            vec![person_id.into(), environment.as_str().into()],
        )
        .await?;
    rows.first().map(|row| Role::parse(&row.text(0)?).ok_or_else(ApiError::internal)).transpose()
}

/// Keeps the session that changed the password (the batch ended them all).
pub(crate) fn reopen_session(session_hash: &str) -> Stmt {
    Stmt::new("UPDATE console_sessions SET ended_at = NULL WHERE session_hash = ?1", vec![session_hash.into()])
}

/// An enabled account, as the team sees it.
pub(crate) struct Member {
    pub person_id: String,
    pub email: String,
    pub role: Role,
}

/// The environment's enabled accounts, by e-mail address.
pub(crate) async fn members(store: &dyn Store, environment: Environment) -> ApiResult<Vec<Member>> {
    let rows = store
        .query(
            "SELECT person_id, email, role FROM console_accounts WHERE environment = ?1 AND disabled_at IS NULL ORDER BY email",
            vec![environment.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|row| Ok(Member { person_id: row.text(0)?, email: row.text(1)?, role: Role::parse(&row.text(2)?).ok_or_else(ApiError::internal)? }))
        .collect()
}

/// Every console account's stored TOTP secret (disabled ones too), for a reseal.
pub(crate) async fn all_totp_secrets(store: &dyn Store) -> ApiResult<Vec<(String, String)>> {
    let rows = store.query("SELECT person_id, totp_secret FROM console_accounts", vec![]).await?;
    rows.iter().map(|r| Ok((r.text(0)?, r.text(1)?))).collect()
}

/// Replaces a stored TOTP secret that is still `stored` with the same secret sealed anew.
pub(crate) fn reseal_totp_secret(person_id: &str, stored: &str, sealed: &str) -> Stmt {
    Stmt::expect_one(
        "UPDATE console_accounts SET totp_secret = ?3 WHERE person_id = ?1 AND totp_secret = ?2",
        vec![person_id.into(), stored.into(), sealed.into()],
    )
}

/// Sets a new TOTP secret (sealed) and forgets the last step taken.
pub(crate) fn set_totp_secret(person_id: &str, sealed_secret: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE console_accounts SET totp_secret = ?2, last_totp_step = 0, updated_at = ?3 WHERE person_id = ?1 AND disabled_at IS NULL",
        vec![person_id.into(), sealed_secret.into(), now.into()],
    )
}

/// How many enabled admins the environment has.
pub(crate) async fn enabled_admins(store: &dyn Store, environment: Environment) -> ApiResult<i64> {
    let rows = store
        .query(
            "SELECT COUNT(*) FROM console_accounts WHERE environment = ?1 AND disabled_at IS NULL AND role = ?2",
            vec![environment.as_str().into(), Role::Admin.as_str().into()],
        )
        .await?;
    Ok(rows.first().map(|r| r.int(0)).transpose()?.unwrap_or(0))
}

/// The environment's disabled accounts (a new one waiting for its admins too), by e-mail address, with the admin
/// who asked to enable each.
pub(crate) async fn disabled_members(store: &dyn Store, environment: Environment) -> ApiResult<Vec<(Member, Option<String>)>> {
    let rows = store
        .query(
            "SELECT person_id, email, role, enable_proposed_by FROM console_accounts WHERE environment = ?1 AND disabled_at IS NOT NULL ORDER BY email",
            vec![environment.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|row| {
            let member = Member { person_id: row.text(0)?, email: row.text(1)?, role: Role::parse(&row.text(2)?).ok_or_else(ApiError::internal)? };
            Ok((member, row.opt_text(3)?))
        })
        .collect()
}

/// Whether `device_hash` is a device `person_id` signed in from, used since `since`.
pub(crate) async fn known_device(store: &dyn Store, person_id: &str, device_hash: &str, since: i64) -> ApiResult<bool> {
    let rows = store
        .query(
            "SELECT 1 FROM console_devices WHERE device_hash = ?1 AND person_id = ?2 AND last_used_at >= ?3",
            vec![device_hash.into(), person_id.into(), since.into()],
        )
        .await?;
    Ok(!rows.is_empty())
}

/// Remembers a device a person signed in from (or its last use), and
/// forgets the person's least recently used beyond `keep`.
pub(crate) fn remember_device(person_id: &str, device_hash: &str, keep: i64, now: i64) -> [Stmt; 2] {
    [
        Stmt::new(
            "INSERT INTO console_devices (device_hash, person_id, created_at, last_used_at) VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT (device_hash) DO UPDATE SET last_used_at = ?3 WHERE console_devices.person_id = ?2",
            vec![device_hash.into(), person_id.into(), now.into()],
        ),
        Stmt::new(
            "DELETE FROM console_devices WHERE person_id = ?1 AND device_hash NOT IN
               (SELECT device_hash FROM console_devices WHERE person_id = ?1 ORDER BY last_used_at DESC, device_hash LIMIT ?2)",
            vec![person_id.into(), keep.into()],
        ),
    ]
}

/// Forgets every device of a person (a disabled account).
pub(crate) fn forget_devices(person_id: &str) -> Stmt {
    Stmt::new("DELETE FROM console_devices WHERE person_id = ?1", vec![person_id.into()])
}
