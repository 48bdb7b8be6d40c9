//! The people area: the compliance team's console accounts. A person has a
//! role in one environment, signs in with a password (argon2id) and a TOTP
//! code (RFC 6238), and must change the one-time password given at creation.
//! Accounts are made and disabled by the admin command-line tool; API keys
//! stay the admin API's. The SQL is in [`store`].

pub mod oidc;
pub(crate) mod store;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use serde::Serialize;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use subtle::ConstantTimeEq;
use totp_rs::{Algorithm, Secret, TOTP};
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::input::{Body, FromBody, Path};
use crate::openapi::answer::{Answer, Created};
use crate::openapi::OperationDoc;
use crate::{Ctx, Gateway};

/// What a person may do in the console: reviewers work cases and propose
/// decisions, approvers also approve others' proposals, supervisors also
/// assign and see the team's work, admins also manage the console.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Reviewer,
    Approver,
    Supervisor,
    Admin,
}

impl Role {
    pub const ALL: &'static [Role] = &[Role::Reviewer, Role::Approver, Role::Supervisor, Role::Admin];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Reviewer => "reviewer",
            Role::Approver => "approver",
            Role::Supervisor => "supervisor",
            Role::Admin => "admin",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        Role::ALL.iter().copied().find(|r| r.as_str() == text)
    }
}

/// TOTP: six digits every 30 seconds, SHA-1 (what authenticator apps read), one step of skew.
const TOTP_DIGITS: usize = 6;
const TOTP_STEP_SECONDS: u64 = 30;
const TOTP_SKEW_STEPS: u8 = 1;
/// 160 bits, as RFC 4226 recommends.
const TOTP_SECRET_BYTES: usize = 20;
/// One-time passwords: 128 bits, written in base32.
const ONE_TIME_PASSWORD_BYTES: usize = 16;
/// At most this many password checks of an account from one source address
/// in each [`LOCK_SECONDS`] window (OWASP's authentication guidance; a
/// security setting, not a regulatory rule). A success starts the count again.
pub const FAILED_SIGN_IN_LIMIT: i64 = 5;
const LOCK_MINUTES: i64 = 15;
pub const LOCK_SECONDS: i64 = LOCK_MINUTES * SECONDS_PER_MINUTE;
/// At most this many password checks of an account from all sources
/// together in each [`CEILING_WINDOW_SECONDS`] window: past it, a
/// distributed guessing attack locks the account for everyone until the
/// window ends, and the lock is audited once (`console_user.locked`).
pub const ACCOUNT_FAILURE_CEILING: i64 = 50;
pub const CEILING_WINDOW_SECONDS: i64 = 60 * SECONDS_PER_MINUTE;
const SECONDS_PER_MINUTE: i64 = 60;
/// A chosen password must score at least this on zxcvbn's 0 to 4 scale
/// ("3: safely unguessable, moderate protection from an offline slow-hash scenario").
const PASSWORD_MIN_SCORE: zxcvbn::Score = zxcvbn::Score::Three;
/// A session ends after this long unused (OWASP: 15 to 30 minutes for
/// high-value applications), and at the latest this long after sign-in.
const SESSION_IDLE_MINUTES: i64 = 30;
const SESSION_IDLE_SECONDS: i64 = SESSION_IDLE_MINUTES * SECONDS_PER_MINUTE;
const SESSION_MAX_HOURS: i64 = 12;
const SESSION_MAX_SECONDS: i64 = SESSION_MAX_HOURS * 60 * SECONDS_PER_MINUTE;
/// A session's last use is written at most this often.
const SESSION_TOUCH_SECONDS: i64 = SECONDS_PER_MINUTE;
/// Passwords a person chooses: 12 to 128 characters (NIST SP 800-63B allows 8; we ask more).
const PASSWORD_MIN_CHARS: usize = 12;
const PASSWORD_MAX_CHARS: usize = 128;
/// Session tokens: 192 bits.
const SESSION_TOKEN_BYTES: usize = 24;
/// Device tokens (OWASP's device cookies): 192 bits, kept as SHA-256; a
/// device unused this long is a stranger again.
const DEVICE_TOKEN_BYTES: usize = 24;
const DEVICE_DAYS: i64 = 90;
pub(crate) const DEVICE_SECONDS: i64 = DEVICE_DAYS * 24 * 60 * SECONDS_PER_MINUTE;
/// The devices remembered per person; the least recently used goes first.
pub const DEVICES_PER_PERSON: i64 = 10;

/// What `compliance-gateway console-user create` prints and
/// `POST /v1/admin/people` answers: shown once, never stored in clear.
#[derive(Debug, Serialize, ToSchema)]
pub struct CreatedAccount {
    /// the person's id (`per_…`)
    pub user_id: String,
    pub email: String,
    /// `reviewer`, `approver`, `supervisor` or `admin`
    pub role: &'static str,
    /// to be changed at the first sign-in; none for an account that signs in through the identity provider
    pub password: Option<String>,
    /// base32 (RFC 4648, no padding), for an authenticator app; none for an account of the identity provider
    pub totp_secret: Option<String>,
    /// the identity provider's subject the account is linked to
    pub oidc_subject: Option<String>,
    /// `enabled`; where four-eyes applies, an account an admin made is `enable_proposed` until a second admin enables
    /// it, and one a key made is `disabled` until two admins do
    pub state: AccountState,
}

/// An account that signs in with a password and a TOTP code, as made by
/// `create_console_account`: both are always there.
#[derive(Debug, Clone)]
pub struct LocalAccount {
    pub user_id: String,
    pub email: String,
    pub role: &'static str,
    pub password: String,
    pub totp_secret: String,
}

impl From<LocalAccount> for CreatedAccount {
    fn from(account: LocalAccount) -> Self {
        CreatedAccount {
            user_id: account.user_id,
            email: account.email,
            role: account.role,
            password: Some(account.password),
            totp_secret: Some(account.totp_secret),
            oidc_subject: None,
            state: AccountState::Enabled,
        }
    }
}

/// A person signed in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedIn {
    pub person_id: String,
    pub environment: Environment,
    pub email: String,
    pub role: Role,
    pub must_change_password: bool,
}

fn base32(bytes: &[u8]) -> String {
    match Secret::Raw(bytes.to_vec()).to_encoded() {
        Secret::Encoded(text) => text,
        Secret::Raw(_) => String::new(),
    }
}

fn totp(secret: Vec<u8>) -> ApiResult<TOTP> {
    TOTP::new(Algorithm::SHA1, TOTP_DIGITS, TOTP_SKEW_STEPS, TOTP_STEP_SECONDS, secret)
        .map_err(|e| ApiError::internal().with_detail(format!("a TOTP secret did not load: {e}")))
}

/// The time step a code is good for at `now`, within the skew; `None` when it is good for none.
fn totp_step(generator: &TOTP, code: &str, now: i64) -> Option<i64> {
    let now = u64::try_from(now).ok()?;
    let current = now / TOTP_STEP_SECONDS;
    (current.saturating_sub(u64::from(TOTP_SKEW_STEPS))..=current + u64::from(TOTP_SKEW_STEPS))
        .find(|step| bool::from(generator.generate(step * TOTP_STEP_SECONDS).as_bytes().ct_eq(code.as_bytes())))
        .and_then(|step| i64::try_from(step).ok())
}

fn invalid_email() -> ApiError {
    ApiError::unprocessable("invalid_field", "email must be an e-mail address")
}

fn invalid_credentials() -> ApiError {
    ApiError::new(401, "invalid_credentials", "the e-mail address, password or code is not right")
}

/// What a good check of a person's credentials answers: the TOTP step its
/// code was good for (when a code was asked), and the statements that give
/// its reserved attempt back.
struct Checked {
    step: Option<i64>,
    release: Vec<crate::ports::Stmt>,
}

/// Where a password check comes from: the request's source address, and
/// the SHA-256 of the device token it carried when that is a device the
/// person signed in from.
#[derive(Clone, Copy)]
struct Attempt<'a> {
    source: Option<IpAddr>,
    device: Option<&'a str>,
}

/// The argon2 verifications a gateway ran ([`Gateway::password_checks`]).
#[derive(Debug, Default)]
pub(crate) struct PasswordChecks {
    real: AtomicU64,
    dummy: AtomicU64,
}

/// The end of the window of `seconds` holding `now`.
fn window_end(now: i64, seconds: i64) -> i64 {
    now.div_euclid(seconds).saturating_add(1).saturating_mul(seconds)
}

/// A hash of a password no one has, with the default parameters: what an
/// unknown, disabled or locked address is checked against.
fn dummy_hash() -> Option<&'static str> {
    static DUMMY: OnceLock<Option<String>> = OnceLock::new();
    DUMMY
        .get_or_init(|| {
            let salt = SaltString::encode_b64(b"cgw-dummy-salt-0").ok()?;
            Argon2::default().hash_password(b"no one has this password", &salt).ok().map(|h| h.to_string())
        })
        .as_deref()
}

/// 422 `weak_password` for a password zxcvbn guesses too easily, given the
/// person's address (its parts are the first guesses).
fn check_strength(password: &str, email: &str) -> ApiResult<()> {
    let local = email.split('@').next().unwrap_or_default();
    let inputs: Vec<&str> = std::iter::once(email)
        .chain(email.split(['@', '.', '-', '_', '+']))
        .chain([local, "compliance", "gateway", "console"])
        .filter(|word| !word.is_empty())
        .collect();
    let estimate = zxcvbn::zxcvbn(password, &inputs);
    if estimate.score() >= PASSWORD_MIN_SCORE {
        return Ok(());
    }
    let hint = estimate.feedback().and_then(|f| f.warning()).map(|w| format!(" ({w})")).unwrap_or_default();
    Err(ApiError::unprocessable(
        "weak_password",
        format!("new_password is too easy to guess{hint}; a few unrelated words or a longer phrase is stronger"),
    ))
}

impl Gateway {
    /// A console account with a one-time password and a TOTP secret; audited
    /// as `console_user.create` by `cli`. An address already in use in the
    /// environment is 409 `email_taken`; an invalid one 400 `invalid_field`.
    pub async fn create_console_account(&self, environment: Environment, email: &str, role: Role) -> ApiResult<LocalAccount> {
        let created = self.create_account_by(environment, email, role, None, "cli", AccountState::Enabled).await?;
        match (created.password, created.totp_secret) {
            (Some(password), Some(totp_secret)) => {
                Ok(LocalAccount { user_id: created.user_id, email: created.email, role: created.role, password, totp_secret })
            }
            // an account without a subject is always made with both
            _ => Err(ApiError::internal()),
        }
    }

    /// A console account that signs in through the configured identity
    /// provider as `subject` (and never with a password); by `cli`.
    pub async fn create_console_account_of_subject(
        &self,
        environment: Environment,
        email: &str,
        role: Role,
        subject: &str,
    ) -> ApiResult<CreatedAccount> {
        self.create_account_by(environment, email, role, Some(subject), "cli", AccountState::Enabled).await
    }

    /// A console account made by `actor` (`cli`, an admin key's id or an
    /// admin person's), audited as `console_user.create` in the same batch,
    /// starting in `state` (an `enable_proposed` one proposed by `actor`).
    async fn create_account_by(
        &self,
        environment: Environment,
        email: &str,
        role: Role,
        subject: Option<&str>,
        actor: &str,
        state: AccountState,
    ) -> ApiResult<CreatedAccount> {
        let email = crate::input::normalize_email(email).ok_or_else(invalid_email)?;
        let oidc = match subject {
            None => None,
            Some(subject) => {
                let config = self.config.oidc.as_ref().ok_or_else(|| {
                    ApiError::unprocessable("oidc_not_configured", "oidc_subject needs an identity provider configured (--oidc-issuer)")
                })?;
                if store::account_by_subject(self.store.as_ref(), environment, &config.issuer, subject).await?.is_some() {
                    return Err(ApiError::conflict("subject_taken", "a console account of this environment is linked to this subject"));
                }
                Some((config.issuer.clone(), subject.to_string()))
            }
        };
        if store::account_by_email(self.store.as_ref(), environment, &email).await?.is_some() {
            return Err(ApiError::conflict("email_taken", "a console account with this e-mail address exists in this environment"));
        }
        let person_id = self.new_id("per");
        let password = base32(&self.ids.random_bytes(ONE_TIME_PASSWORD_BYTES)).to_lowercase();
        let password_hash = self.hash_password(&password)?;
        let secret = self.ids.random_bytes(TOTP_SECRET_BYTES);
        let totp_secret = base32(&secret);
        let now = self.clock.now();
        let account = store::Account {
            person_id: person_id.clone(),
            environment,
            email: email.clone(),
            role,
            password_hash,
            // an account of the identity provider has no password to change
            must_change_password: oidc.is_none(),
            totp_secret: self.seal_secret(&totp_secret, &person_id),
            last_totp_step: 0,
            disabled_at: (state != AccountState::Enabled).then_some(now),
            created_by: Some(actor.to_string()),
            enable_proposed_by: (state == AccountState::EnableProposed).then(|| actor.to_string()),
            oidc: oidc.clone(),
        };
        let audit = self.team_audit(environment, "console_user.create", actor, &person_id, now);
        if !self.commit(vec![store::insert_account(&account, now), audit]).await?.done() {
            return Err(ApiError::conflict("email_taken", "a console account with this e-mail address or subject exists in this environment"));
        }
        // an account of the identity provider has no password or code anyone could be shown: no one but its
        // subject signs in as it
        let (password, totp_secret) = match &oidc {
            Some(_) => (None, None),
            None => (Some(password), Some(totp_secret)),
        };
        Ok(CreatedAccount { user_id: person_id, email, role: role.as_str(), password, totp_secret, oidc_subject: oidc.map(|(_, s)| s), state })
    }

    /// Disables a console account at once (its sessions stop working);
    /// audited as `console_user.disable` by `cli`. Unknown: 404 `not_found`.
    pub async fn disable_console_account(&self, environment: Environment, email: &str) -> ApiResult<String> {
        let email = crate::input::normalize_email(email).unwrap_or_default();
        let account = store::account_by_email(self.store.as_ref(), environment, &email)
            .await?
            .ok_or_else(|| ApiError::not_found("not_found", "no console account with this e-mail address in this environment"))?;
        let now = self.clock.now();
        let audit = self.cli_audit(environment, "console_user.disable", &account.person_id, now);
        let mut statements = disabling(&account.person_id, now);
        statements.push(audit);
        self.store.batch(statements).await?;
        Ok(account.person_id)
    }

    /// Checks a sign-in: the password and a TOTP code, each code good once.
    /// Any failure is the same 401 `invalid_credentials`, so that nothing
    /// says which part was wrong or whether the account exists. Each check
    /// first reserves an attempt ([`Gateway::reserve_attempt`]): five from one
    /// source address in a 15-minute window, or fifty from all in an hour,
    /// and the rest are refused the same way, even with the right password
    /// and code, until the window ends. Unknown, disabled and locked
    /// addresses run the same argon2 verification, against a dummy hash.
    pub async fn sign_in(&self, environment: Environment, email: &str, password: &str, code: &str, source: Option<IpAddr>) -> ApiResult<SignedIn> {
        self.sign_in_from(environment, email, password, code, source, None).await.map(|(person, _)| person)
    }

    /// [`Gateway::sign_in`] from a device that may carry the token an earlier
    /// sign-in gave it: a device the person signed in from (within
    /// [`DEVICE_DAYS`]) has its failures counted apart, so that strangers'
    /// failures, from any number of sources, never lock it out. Answers the
    /// person and the device's token (the same one, or a new one).
    pub async fn sign_in_from(
        &self,
        environment: Environment,
        email: &str,
        password: &str,
        code: &str,
        source: Option<IpAddr>,
        device: Option<&str>,
    ) -> ApiResult<(SignedIn, String)> {
        let email = crate::input::normalize_email(email).unwrap_or_default();
        // an account of the identity provider signs in there only: here it is as no account
        let account =
            store::account_by_email(self.store.as_ref(), environment, &email).await?.filter(|a| a.disabled_at.is_none() && a.oidc.is_none());
        let now = self.clock.now();
        let known = match (&account, device) {
            (Some(a), Some(token)) => {
                let hash = crate::auth::hash_key(token);
                store::known_device(self.store.as_ref(), &a.person_id, &hash, now.saturating_sub(DEVICE_SECONDS)).await?.then_some(hash)
            }
            _ => None,
        };
        let attempt = Attempt { source, device: known.as_deref() };
        let checked = self.check_credentials(environment, &email, account.as_ref(), password, Some(code), attempt, now).await?;
        let (Some(account), Some(Checked { step: Some(step), release })) = (account, checked) else {
            return Err(invalid_credentials());
        };
        let device_token = match (known.is_some(), device) {
            (true, Some(token)) => token.to_string(),
            _ => format!("dev_{}", hex::encode(self.ids.random_bytes(DEVICE_TOKEN_BYTES))),
        };
        let mut statements = vec![store::take_totp_step(&account.person_id, step, now)];
        statements.extend(release);
        statements.extend(store::remember_device(&account.person_id, &crate::auth::hash_key(&device_token), DEVICES_PER_PERSON, now));
        if !self.commit(statements).await?.done() {
            // the code was used meanwhile
            return Err(invalid_credentials());
        }
        let person = SignedIn {
            person_id: account.person_id,
            environment: account.environment,
            email: account.email,
            role: account.role,
            must_change_password: account.must_change_password,
        };
        Ok((person, device_token))
    }

    /// Checks a person's password, and a TOTP code when one is asked: `None`
    /// when either is wrong, the attempt is refused, or there is no account.
    /// The attempt is reserved before argon2 runs, so the failures it counts
    /// hold however many checks run at once; a good one gives its reservation
    /// back through the statements it answers, for the caller's batch.
    #[allow(clippy::too_many_arguments)]
    async fn check_credentials(
        &self,
        environment: Environment,
        email: &str,
        account: Option<&store::Account>,
        password: &str,
        code: Option<&str>,
        attempt: Attempt<'_>,
        now: i64,
    ) -> ApiResult<Option<Checked>> {
        let reserved = self.reserve_attempt(environment, email, account.map(|a| a.person_id.as_str()), attempt, now).await?;
        let (Some(account), Some(release)) = (account, reserved) else {
            self.verify_password(None, password);
            return Ok(None);
        };
        if !self.verify_password(Some(&account.password_hash), password) {
            return Ok(None);
        }
        let Some(code) = code else { return Ok(Some(Checked { step: None, release })) };
        let secret = self.open_secret(&account.totp_secret, &account.person_id).map_err(crate::sealing::SealError::into_api_error)?;
        let bytes = Secret::Encoded(secret).to_bytes().map_err(|_| ApiError::internal())?;
        match totp_step(&totp(bytes)?, code.trim(), now) {
            Some(step) if step > account.last_totp_step => Ok(Some(Checked { step: Some(step), release })),
            // a wrong code, or one used already
            _ => Ok(None),
        }
    }

    /// Reserves one password check of the address `email` from `source`, in
    /// one batch of two conditional upserts: of the account (all sources,
    /// [`ACCOUNT_FAILURE_CEILING`] an hour) and of the pair (address and
    /// source, [`FAILED_SIGN_IN_LIMIT`] in 15 minutes). Either at its limit
    /// refuses the attempt (`None`) before any argon2 runs. The first refusal
    /// by the account-wide ceiling in its window is audited. `Some` carries
    /// the statements that give the reservation back after a success: the
    /// pair's count starts again, the account's gives back this one.
    /// Unknown addresses are counted alike, so that a lock says nothing of
    /// whether an account exists. A device the person signed in from is
    /// counted alone ([`FAILED_SIGN_IN_LIMIT`] in 15 minutes, of that device),
    /// neither by nor toward the strangers' counts.
    async fn reserve_attempt(
        &self,
        environment: Environment,
        email: &str,
        person_id: Option<&str>,
        attempt: Attempt<'_>,
        now: i64,
    ) -> ApiResult<Option<Vec<crate::ports::Stmt>>> {
        if let Some(device) = attempt.device {
            let device_key = format!("sign-in-device:{device}");
            let end = window_end(now, LOCK_SECONDS);
            return match self.store.batch(vec![crate::rate_limit::store::reserve(&device_key, end, 1, FAILED_SIGN_IN_LIMIT)]).await {
                Ok(()) => Ok(Some(vec![crate::rate_limit::store::clear(&device_key, end)])),
                Err(crate::ports::StoreError::Conflict { .. } | crate::ports::StoreError::Unique) => Ok(None),
                Err(e) => Err(e.into()),
            };
        }
        let address = crate::auth::hash_key(&format!("{}|{email}", environment.as_str()));
        let source = attempt.source.map_or_else(|| String::from("unknown"), crate::input::source_key);
        let account_key = format!("sign-in:{address}");
        let pair_key = format!("sign-in:{address}:{source}");
        // Counters are kept under their window's end: the retention sweep
        // drops rate windows two minutes past their key time.
        let account_end = window_end(now, CEILING_WINDOW_SECONDS);
        let pair_end = window_end(now, LOCK_SECONDS);
        let statements = vec![
            crate::rate_limit::store::reserve(&account_key, account_end, 1, ACCOUNT_FAILURE_CEILING),
            crate::rate_limit::store::reserve(&pair_key, pair_end, 1, FAILED_SIGN_IN_LIMIT),
        ];
        match self.store.batch(statements).await {
            Ok(()) => {
                Ok(Some(vec![crate::rate_limit::store::clear(&pair_key, pair_end), crate::rate_limit::store::release(&account_key, account_end, 1)]))
            }
            Err(crate::ports::StoreError::Conflict { statement: 0 }) => {
                if let Some(person_id) = person_id {
                    // once per window: the first refusal claims the audit
                    let claim = crate::rate_limit::store::reserve(&format!("sign-in-locked:{address}"), account_end, 1, 1);
                    let audit = self.team_audit(environment, "console_user.locked", "sign_in_guard", person_id, now);
                    // a lost claim: another refusal of this window audited the lock
                    let _ = self.commit(vec![claim, audit]).await?;
                }
                Ok(None)
            }
            Err(crate::ports::StoreError::Conflict { .. } | crate::ports::StoreError::Unique) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }

    /// Verifies a password against its argon2 hash, or against a dummy hash
    /// of the same parameters when there is none (an unknown, disabled or
    /// locked address), so that every refusal costs what a real check costs.
    fn verify_password(&self, hash: Option<&str>, password: &str) -> bool {
        let counter = if hash.is_some() { &self.password_checks.real } else { &self.password_checks.dummy };
        counter.fetch_add(1, Ordering::Relaxed);
        let stored = match hash {
            Some(hash) => Some(hash),
            None => dummy_hash(),
        };
        let Some(parsed) = stored.and_then(|h| PasswordHash::new(h).ok()) else {
            return false;
        };
        let good = Argon2::default().verify_password(password.as_bytes(), &parsed).is_ok();
        good && hash.is_some()
    }

    /// How many argon2 verifications this gateway ran: against real hashes,
    /// and against the dummy one (for tests and benchmarks).
    pub fn password_checks(&self) -> (u64, u64) {
        (self.password_checks.real.load(Ordering::Relaxed), self.password_checks.dummy.load(Ordering::Relaxed))
    }

    /// The caller behind a live session token: a person of the environment's
    /// compliance team, whose session was used within the idle timeout and
    /// began less than the session lifetime ago, and whose account is enabled.
    pub(crate) async fn person_of_session(&self, environment: Environment, token: &str) -> ApiResult<Option<crate::Caller>> {
        let hash = crate::auth::hash_key(token);
        let now = self.clock.now();
        let Some(session) = store::session(self.store.as_ref(), environment, &hash).await? else {
            return Ok(None);
        };
        if session.last_seen_at.saturating_add(SESSION_IDLE_SECONDS) <= now || session.created_at.saturating_add(SESSION_MAX_SECONDS) <= now {
            self.store.batch(vec![store::end_session(&hash, now)]).await?;
            return Ok(None);
        }
        if session.last_seen_at.saturating_add(SESSION_TOUCH_SECONDS) <= now {
            self.store.batch(vec![store::touch_session(&hash, now)]).await?;
        }
        Ok(Some(crate::Caller {
            tenant_id: format!("svc_{}", environment.as_str()),
            environment,
            is_admin: true,
            key_id: session.person_id.clone(),
            rate_limit_per_minute: crate::tenants::SERVICE_RATE_LIMIT_PER_MINUTE,
            clock_offset_seconds: 0,
            jurisdiction: String::from("default"),
            person: Some(crate::Person {
                person_id: session.person_id,
                role: session.role,
                must_change_password: session.must_change_password,
                session_hash: hash,
            }),
        }))
    }

    fn cli_audit(&self, environment: Environment, action: &str, resource: &str, now: i64) -> crate::ports::Stmt {
        self.team_audit(environment, action, "cli", resource, now)
    }

    /// An audit row of an action on the console accounts, outside any tenant.
    pub(crate) fn team_audit(&self, environment: Environment, action: &str, actor: &str, resource: &str, now: i64) -> crate::ports::Stmt {
        let (audit_id, request_id) = (self.new_id("aud"), self.new_id("req"));
        crate::tenants::store::audit_admin_action(&crate::tenants::store::AdminAction {
            audit_id: &audit_id,
            tenant_id: None,
            action,
            request_id: &request_id,
            now,
            environment,
            actor_key_id: actor,
            resource: Some(resource),
        })
    }
}

/// `POST /v1/admin/sessions`: a person signs in with their e-mail address,
/// password and TOTP code, and receives a session token.
/// The body's schema; the handler reads it field by field, for field-precise errors.
#[derive(Debug, ToSchema)]
pub(crate) struct SignInRequest {
    /// `sandbox` or `production`
    #[schema(value_type = String)]
    environment: Environment,
    email: String,
    password: String,
    /// the six digits of the authenticator app
    totp: String,
    /// the `device_token` an earlier sign-in from this device answered, if any
    device_token: Option<String>,
}

impl SignInRequest {
    /// The body of the public sign-in (which reads its request itself).
    fn parse(body: &[u8], rules: &dyn crate::ports::Rules) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, rules)?;
        let environment_text = f.code("environment");
        let email = f.text("email");
        let password = f.text("password");
        let totp = f.text("totp");
        let device_token = f.opt_code("device_token");
        let environment = Environment::parse(&environment_text);
        if !environment_text.is_empty() && environment.is_none() {
            f.reject("invalid_field", "environment must be sandbox or production");
        }
        f.finish()?;
        Ok(SignInRequest { environment: environment.ok_or_else(ApiError::internal)?, email, password, totp, device_token })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SessionStarted {
    /// sent as `Authorization: Bearer <session_token>`; shown once
    session_token: String,
    person_id: String,
    email: String,
    role: &'static str,
    environment: &'static str,
    /// until the one-time password is changed, only the password change is allowed
    must_change_password: bool,
    idle_timeout_seconds: i64,
    /// this device's token: sent with its next sign-ins (`device_token`), its failures are counted apart
    /// from strangers', whose failures never lock it out; shown once, unused for 90 days it is forgotten
    device_token: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct SessionEnded {
    ended: bool,
}

#[derive(Debug, ToSchema)]
pub(crate) struct PasswordChange {
    /// the current password (at the first sign-in, the one-time password)
    password: String,
    /// 12 to 128 characters, not the current password, and hard to guess
    /// (zxcvbn score 3 or more; else 422 `weak_password`)
    #[schema(min_length = 12, max_length = 128)]
    new_password: String,
}

impl FromBody for PasswordChange {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let password = f.text("password");
        let new_password = f.text("new_password");
        let length = new_password.chars().count();
        if !new_password.is_empty() && !(PASSWORD_MIN_CHARS..=PASSWORD_MAX_CHARS).contains(&length) {
            f.reject("invalid_field", "new_password must be 12 to 128 characters");
        } else if !new_password.is_empty() && new_password == password {
            f.reject("invalid_field", "new_password must differ from the current password");
        }
        f.finish()?;
        Ok(PasswordChange { password, new_password })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct PasswordChanged {
    person_id: String,
    must_change_password: bool,
}

pub(crate) fn sign_in_doc() -> OperationDoc {
    OperationDoc::new("admin", "a member of the compliance team signs in (password and TOTP code)")
        .body::<SignInRequest>()
        .answers("signed in")
        .errors(&[400, 401, 415, 429])
}

pub(crate) fn sign_out_doc() -> OperationDoc {
    OperationDoc::new("admin", "end this session").answers("ended")
}

pub(crate) fn change_password_doc() -> OperationDoc {
    OperationDoc::new("admin", "change one's own password (required after the one-time password; the current password is asked)")
        .answers("changed")
        .errors(&[422])
}

/// Public: the credentials are the authentication.
pub(crate) async fn sign_in_handler(gw: &Gateway, request: &http::Request<Vec<u8>>) -> ApiResult<Created<SessionStarted>> {
    if !crate::input::is_json(request.headers()) {
        return Err(ApiError::new(415, "unsupported_media_type", "request bodies must be sent as application/json"));
    }
    let SignInRequest { environment, email, password, totp: code, device_token } = SignInRequest::parse(request.body(), gw.rules.as_ref())?;
    // A source that keeps failing is refused unread, as with bad keys; its failures count.
    let failing = crate::input::failure_source(request);
    gw.refuse_failing_source(failing.as_deref()).await?;
    let source = request.extensions().get::<crate::input::SourceAddress>().map(|s| s.0);
    let (person, device_token) = match gw.sign_in_from(environment, &email, &password, &code, source, device_token.as_deref()).await {
        Ok(signed_in) => signed_in,
        Err(error) => {
            if error.status == 401 {
                gw.count_source_failure(failing.as_deref()).await;
            }
            return Err(error);
        }
    };
    let token = gw.open_session(environment, &person.person_id, "password", gw.clock.now()).await?;
    Created::new(&SessionStarted {
        session_token: token,
        person_id: person.person_id,
        email: person.email,
        role: person.role.as_str(),
        environment: environment.as_str(),
        must_change_password: person.must_change_password,
        idle_timeout_seconds: SESSION_IDLE_SECONDS,
        device_token,
    })
}

/// The person behind the request: 403 `person_required` for a key.
pub(crate) fn person_of<'a>(ctx: &'a Ctx<'_>) -> ApiResult<&'a crate::Person> {
    ctx.caller.person.as_ref().ok_or_else(|| ApiError::forbidden("person_required", "only a person's session may do this, not a key"))
}

pub(crate) async fn sign_out(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<SessionEnded>> {
    let person = person_of(ctx)?;
    gw.store.batch(vec![store::end_session(&person.session_hash, gw.clock.now())]).await?;
    Answer::new(&SessionEnded { ended: true })
}

/// A `Person` route: the caller is a person (`router::check_access`), so the
/// body is read before `person_of`, which cannot refuse.
pub(crate) async fn change_password(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    Body(PasswordChange { password, new_password }): Body<PasswordChange>,
) -> ApiResult<Answer<PasswordChanged>> {
    let person = person_of(ctx)?;
    let account = store::account_by_id(gw.store.as_ref(), &person.person_id).await?.ok_or_else(invalid_credentials)?;
    check_strength(&new_password, &account.email)?;
    let release = gw.check_own_password(ctx, &account, &password, None).await?.release;
    let hash = gw.hash_password(&new_password)?;
    let now = gw.clock.now();
    // Every other session of the person ends: a changed password locks out whoever else held one.
    let mut statements = vec![
        store::set_password(&person.person_id, &hash, now),
        store::end_sessions_of(&person.person_id, now),
        store::reopen_session(&person.session_hash),
    ];
    statements.extend(release);
    if !gw.commit(statements).await?.done() {
        return Err(ApiError::new(401, "invalid_credentials", "the account is disabled"));
    }
    Answer::new(&PasswordChanged { person_id: person.person_id.clone(), must_change_password: false })
}

/// `GET /v1/admin/people`: the environment's enabled console accounts.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TeamMember {
    person_id: String,
    email: String,
    role: &'static str,
}

/// A disabled console account: one disabled by an admin, or one made where
/// four-eyes applies and waiting for its admins.
#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct DisabledMember {
    person_id: String,
    email: String,
    role: &'static str,
    /// `enable_proposed` when an admin asked to enable it (another admin's enable decides), else `disabled`
    state: AccountState,
    /// the admin who asked
    enable_proposed_by: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct Team {
    /// the enabled accounts
    people: Vec<TeamMember>,
    /// the disabled accounts, new ones waiting for their admins among them (to an admin only; empty to others)
    disabled: Vec<DisabledMember>,
}

pub(crate) fn list_people_doc() -> OperationDoc {
    OperationDoc::new(
        "admin",
        "the compliance team of the environment: its enabled console accounts, and to an admin (key or session) the disabled ones, \
         with any pending request to enable each",
    )
}

pub(crate) async fn list_people(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<Team>> {
    let environment = ctx.caller.environment;
    let people = store::members(gw.store.as_ref(), environment)
        .await?
        .into_iter()
        .map(|m| TeamMember { person_id: m.person_id, email: m.email, role: m.role.as_str() })
        .collect();
    let disabled = match team_admin(ctx) {
        Err(_) => Vec::new(),
        Ok(()) => store::disabled_members(gw.store.as_ref(), environment)
            .await?
            .into_iter()
            .map(|(m, by)| DisabledMember {
                person_id: m.person_id,
                email: m.email,
                role: m.role.as_str(),
                state: if by.is_some() { AccountState::EnableProposed } else { AccountState::Disabled },
                enable_proposed_by: by,
            })
            .collect(),
    };
    Answer::new(&Team { people, disabled })
}

/// `POST /v1/admin/people`: a console account made through the API, as
/// `console-user create` makes one on the command line (the edge has none).
#[derive(Debug, ToSchema)]
pub(crate) struct NewPerson {
    /// the person's e-mail address: the sign-in name, unique in the environment
    email: String,
    /// `reviewer`, `approver`, `supervisor` or `admin`
    #[schema(value_type = String)]
    role: Role,
    /// the identity provider's subject (`sub`) of the person: the account then signs in there only, and no password
    /// or code is made (no one is shown one)
    #[schema(min_length = 1, max_length = 255)]
    oidc_subject: Option<String>,
}

impl FromBody for NewPerson {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let email = f.text("email");
        let role_text = f.code("role");
        let oidc_subject = f.opt_text("oidc_subject");
        f.finish()?;
        if oidc_subject.as_deref().is_some_and(|s| s.is_empty() || s.len() > 255 || s.chars().any(char::is_control)) {
            return Err(ApiError::bad_request("invalid_field", "oidc_subject must be 1 to 255 characters, none of them a control"));
        }
        let role = Role::parse(&role_text)
            .ok_or_else(|| ApiError::unprocessable("invalid_field", "role must be reviewer, approver, supervisor or admin"))?;
        if crate::input::normalize_email(&email).is_none() {
            return Err(invalid_email());
        }
        Ok(NewPerson { email, role, oidc_subject })
    }
}

pub(crate) fn create_person_doc() -> OperationDoc {
    OperationDoc::new(
        "admin",
        "make a console account in the caller's environment: a one-time password (to be changed at the first sign-in) and a TOTP secret, \
         shown once (none for an account of the identity provider). An admin key, or an admin's session. Where four-eyes applies no one \
         makes a usable account alone: an admin's account starts `enable_proposed` and another admin's `POST …/enable` enables it; a \
         key's reviewer starts `disabled` (two admins enable it), a key makes an admin at once only while the environment has fewer than \
         two enabled admins (its founders), and any other approving role by a key is 403 `person_required`. An `Idempotency-Key` is not \
         kept (the answer holds secrets): a retry is 409 `email_taken`",
    )
    .answers("created")
    .errors(&[409, 422])
}

/// Whether a role may approve others' proposals (where four-eyes applies).
fn approves(role: Role) -> bool {
    matches!(role, Role::Approver | Role::Supervisor | Role::Admin)
}

/// Makes a console account of the caller's environment (never another's:
/// the environment is the credential's). An admin key may; a person's
/// session only with the role admin (403 `role_forbidden`). Where four-eyes
/// applies the account is not usable until two people agreed (see
/// [`founding_state`]).
pub(crate) async fn create_person(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    Body(NewPerson { email, role, oidc_subject }): Body<NewPerson>,
) -> ApiResult<Created<CreatedAccount>> {
    let environment = ctx.caller.environment;
    team_admin(ctx)?;
    let state = if gw.config.four_eyes.applies_to(environment) {
        let admins = match ctx.caller.person {
            Some(_) => None,
            None => Some(store::enabled_admins(gw.store.as_ref(), environment).await?),
        };
        founding_state(admins, role)?
    } else {
        AccountState::Enabled
    };
    let created = gw.create_account_by(environment, &email, role, oidc_subject.as_deref(), &ctx.caller.key_id, state).await?;
    Created::new(&created)
}

/// Where four-eyes applies, how an account made through the API starts:
/// `admins` is the environment's enabled admins when a key makes it, none
/// for an admin's session.
/// - An admin's account is proposed by its maker: another admin enables it.
/// - A key is no person, so its reviewer waits for two admins.
/// - A key makes an admin at once only while fewer than two admins could
///   agree on anything (the founders, on a host without a command line);
///   any other approving role by a key: 403 `person_required`.
fn founding_state(admins: Option<i64>, role: Role) -> ApiResult<AccountState> {
    match admins {
        None => Ok(AccountState::EnableProposed),
        Some(admins) if role == Role::Admin && admins < 2 => Ok(AccountState::Enabled),
        Some(_) if approves(role) => Err(ApiError::forbidden(
            "person_required",
            "where four-eyes applies a key makes an admin only while the environment has fewer than two, and no other approving role; \
             an admin's session proposes it",
        )),
        Some(_) => Ok(AccountState::Disabled),
    }
}

#[cfg(test)]
mod founding_tests {
    use super::{founding_state, AccountState, Role};

    #[test]
    fn no_one_makes_a_usable_account_alone_but_the_founders() {
        let roles = [Role::Reviewer, Role::Approver, Role::Supervisor, Role::Admin];
        for role in roles {
            assert_eq!(founding_state(None, role).ok(), Some(AccountState::EnableProposed), "{role:?} by an admin");
            for admins in [0, 1, 2, 5] {
                let want = match role {
                    Role::Reviewer => Some(AccountState::Disabled),
                    Role::Admin if admins < 2 => Some(AccountState::Enabled),
                    _ => None,
                };
                assert_eq!(founding_state(Some(admins), role).ok(), want, "{role:?} by a key, {admins} admins");
            }
        }
    }
}

/// Where a console account stands: made, disabled or enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum AccountState {
    /// signed out everywhere; no sign-in works (a key's new account, until two admins enable it)
    Disabled,
    /// a first admin asked to enable it (or made it); a second admin's enable decides
    EnableProposed,
    Enabled,
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct AccountChanged {
    person_id: String,
    state: AccountState,
}

pub(crate) fn disable_person_doc() -> OperationDoc {
    OperationDoc::new(
        "admin",
        "disable a console account of the caller's environment at once: its sessions end and no sign-in works. An admin key, or an \
         admin's session; one person decides, since disabling only takes power away",
    )
    .errors(&[404])
}

pub(crate) fn enable_person_doc() -> OperationDoc {
    OperationDoc::new(
        "admin",
        "enable a disabled console account. Where four-eyes applies it takes two admins' sessions: the first call answers 202 \
         `enable_proposed`, another admin's call enables it (the same admin again: 403 `self_approval`; a key: 403 `person_required`). \
         Elsewhere an admin key or an admin's session enables it at once",
    )
    .answers("a first admin asked (`enable_proposed`); another admin's call decides")
    .or_200("enabled (or already enabled)")
    .errors(&[404, 409])
}

/// The admin behind a people change: an admin key or an admin's session.
fn team_admin(ctx: &Ctx<'_>) -> ApiResult<()> {
    match &ctx.caller.person {
        Some(person) if person.role != Role::Admin => Err(ApiError::forbidden("role_forbidden", "your role may not manage console accounts")),
        _ => Ok(()),
    }
}

/// What disabling an account writes, from the command line or the API:
/// the account disabled, its sessions ended, its devices forgotten.
fn disabling(person_id: &str, now: i64) -> Vec<crate::ports::Stmt> {
    vec![store::disable(person_id, now), store::end_sessions_of(person_id, now), store::forget_devices(person_id)]
}

fn no_such_person() -> ApiError {
    ApiError::not_found("not_found", "no console account with this id in this environment")
}

/// `POST /v1/admin/people/{person_id}/disable`.
pub(crate) async fn disable_person(gw: &Gateway, ctx: &Ctx<'_>, Path(person_id): Path) -> ApiResult<Answer<AccountChanged>> {
    team_admin(ctx)?;
    let environment = ctx.caller.environment;
    let account = store::account_in(gw.store.as_ref(), environment, &person_id).await?.ok_or_else(no_such_person)?;
    let now = gw.clock.now();
    gw.store.batch(disabling(&account.person_id, now)).await?;
    Answer::new(&AccountChanged { person_id: account.person_id, state: AccountState::Disabled })
}

/// `POST /v1/admin/people/{person_id}/enable`: where four-eyes applies, the
/// second of two admins enables; a key holder, or one admin twice, never does.
pub(crate) async fn enable_person(gw: &Gateway, ctx: &Ctx<'_>, Path(person_id): Path) -> ApiResult<crate::openapi::answer::Accepted<AccountChanged>> {
    team_admin(ctx)?;
    let environment = ctx.caller.environment;
    let account = store::account_in(gw.store.as_ref(), environment, &person_id).await?.ok_or_else(no_such_person)?;
    let changed = |state| AccountChanged { person_id: account.person_id.clone(), state };
    if account.disabled_at.is_none() {
        return crate::openapi::answer::Accepted::existing(&changed(AccountState::Enabled));
    }
    let now = gw.clock.now();
    if !gw.config.four_eyes.applies_to(environment) {
        if !gw.commit(vec![store::enable(&account.person_id, account.enable_proposed_by.as_deref(), now)]).await?.done() {
            return Err(changed_meanwhile());
        }
        return crate::openapi::answer::Accepted::existing(&changed(AccountState::Enabled));
    }
    let admin = person_of(ctx)?;
    // a request whose admin is no longer an enabled admin counts for nothing: this call asks anew
    let first = match account.enable_proposed_by.as_deref() {
        Some(first) if store::enabled_role(gw.store.as_ref(), environment, first).await? == Some(Role::Admin) => Some(first),
        _ => None,
    };
    match first {
        None => {
            let stale = account.enable_proposed_by.as_deref();
            if !gw.commit(vec![store::propose_enable(&account.person_id, stale, &admin.person_id, now)]).await?.done() {
                return Err(changed_meanwhile());
            }
            crate::openapi::answer::Accepted::new(&changed(AccountState::EnableProposed))
        }
        Some(first) => {
            second_person(gw, first, &admin.person_id).await?;
            if !gw.commit(vec![store::enable(&account.person_id, Some(first), now)]).await?.done() {
                return Err(changed_meanwhile());
            }
            crate::openapi::answer::Accepted::existing(&changed(AccountState::Enabled))
        }
    }
}

/// Refuses `approver` as the second person of what `proposer` began: the
/// same person (403 `self_approval`), or one person as far as the first
/// secrets go (403 `creator_approval`, see [`made_the_other`]).
pub(crate) async fn second_person(gw: &Gateway, proposer: &str, approver: &str) -> ApiResult<()> {
    if proposer == approver {
        return Err(ApiError::forbidden("self_approval", "a proposal is approved by a person other than its proposer"));
    }
    if made_the_other(gw, proposer, approver).await? {
        return Err(ApiError::forbidden(
            "creator_approval",
            "a proposal is approved by neither the maker of the proposer's account, nor a person whose account the proposer made, nor an account of the proposer's maker (one who saw both accounts' first secrets could be both people)",
        ));
    }
    Ok(())
}

/// Whether an approval between two people could be one person deciding
/// alone: one made the other's account, or one maker (a key or a person,
/// never the machine's `cli`) made both and saw both accounts' first
/// secrets, so could sign in as either.
async fn made_the_other(gw: &Gateway, proposer: &str, approver: &str) -> ApiResult<bool> {
    let makers = store::creators(gw.store.as_ref(), [proposer, approver]).await?;
    Ok(related(&makers, proposer, approver))
}

fn related(makers: &[store::Maker], proposer: &str, approver: &str) -> bool {
    let of = |who: &str| makers.iter().find(|m| m.person_id == who);
    let made_by = |who: &str| of(who).and_then(|m| m.created_by.as_deref());
    let direct = made_by(proposer) == Some(approver) || made_by(approver) == Some(proposer);
    let holder = |who: &str| of(who).filter(|m| m.first_secrets).and_then(|m| m.created_by.as_deref()).filter(|by| *by != "cli");
    let one_holder = matches!((holder(proposer), holder(approver)), (Some(a), Some(b)) if a == b);
    direct || one_holder
}

#[cfg(test)]
mod related_tests {
    use super::{related, store::Maker};

    fn maker(person_id: &str, created_by: Option<&str>, first_secrets: bool) -> Maker {
        Maker { person_id: person_id.into(), created_by: created_by.map(str::to_string), first_secrets }
    }

    #[test]
    fn makers_and_holders_of_both_secrets_are_one_person() {
        let cases = [
            // (proposer's maker, its secrets, approver's maker, its secrets, related)
            (Some("per_a"), true, Some("cli"), true, false),
            (Some("per_b"), true, Some("per_a"), true, true),
            (Some("key_1"), true, Some("key_1"), true, true),
            (Some("per_m"), true, Some("per_m"), true, true),
            (Some("per_m"), false, Some("per_m"), true, false),
            (Some("per_m"), true, Some("per_m"), false, false),
            (Some("cli"), true, Some("cli"), true, false),
            (None, true, None, true, false),
            (Some("per_m"), true, Some("per_n"), true, false),
        ];
        for (i, (pm, ps, am, asec, want)) in cases.into_iter().enumerate() {
            let makers = [maker("per_a", pm, ps), maker("per_b", am, asec)];
            assert_eq!(related(&makers, "per_a", "per_b"), want, "case {i}");
        }
    }
}

fn changed_meanwhile() -> ApiError {
    ApiError::conflict("account_changed", "the account changed while this request was decided; read it again")
}

#[derive(Debug, ToSchema)]
pub(crate) struct TotpReset {
    /// the current password, to show it is the person
    password: String,
    /// a current code of the authenticator app being replaced
    totp: String,
}

impl FromBody for TotpReset {
    fn from_body(body: &[u8], gw: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let mut f = Fields::from_body(body, gw.rules.as_ref())?;
        let password = f.text("password");
        let totp = f.text("totp");
        f.finish()?;
        Ok(TotpReset { password, totp })
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub(crate) struct TotpSecret {
    /// the new base32 secret for an authenticator app; shown once
    totp_secret: String,
}

pub(crate) fn reset_totp_doc() -> OperationDoc {
    OperationDoc::new(
        "admin",
        "replace one's own TOTP secret (the current password and a current code are asked); an `Idempotency-Key` is not kept \
         (the answer holds the secret): a retry asks a new code",
    )
    .answers("the new secret, shown once")
}

/// A new TOTP secret for the signed-in person, who proves it with their
/// password and a current code (each wrong one counts toward the lock).
pub(crate) async fn reset_totp(
    gw: &Gateway,
    ctx: &Ctx<'_>,
    Body(TotpReset { password, totp: code }): Body<TotpReset>,
) -> ApiResult<Answer<TotpSecret>> {
    let person = person_of(ctx)?;
    let account = store::account_by_id(gw.store.as_ref(), &person.person_id).await?.ok_or_else(invalid_credentials)?;
    let checked = gw.check_own_password(ctx, &account, &password, Some(&code)).await?;
    let step = checked.step.ok_or_else(invalid_credentials)?;
    let totp_secret = base32(&gw.ids.random_bytes(TOTP_SECRET_BYTES));
    let sealed = gw.seal_secret(&totp_secret, &person.person_id);
    let now = gw.clock.now();
    // the code is spent before the secret changes: a replay of this request cannot reset it again
    let mut statements = vec![store::take_totp_step(&person.person_id, step, now), store::set_totp_secret(&person.person_id, &sealed, now)];
    statements.extend(checked.release);
    if !gw.commit(statements).await?.done() {
        return Err(invalid_credentials());
    }
    Answer::new(&TotpSecret { totp_secret })
}

impl Gateway {
    /// Checks the signed-in person's own password (and code), counted toward
    /// the lock like a sign-in from the request's address: 401
    /// `invalid_credentials` when wrong or locked.
    async fn check_own_password(&self, ctx: &Ctx<'_>, account: &store::Account, password: &str, code: Option<&str>) -> ApiResult<Checked> {
        let now = self.clock.now();
        self.check_credentials(account.environment, &account.email, Some(account), password, code, Attempt { source: ctx.source, device: None }, now)
            .await?
            .ok_or_else(invalid_credentials)
    }
}

impl Gateway {
    /// The one environment with an account for this address; `None` for none or both.
    pub(crate) async fn environment_of_email(&self, email: &str) -> Option<Environment> {
        let email = crate::input::normalize_email(email)?;
        let mut found = None;
        for environment in [Environment::Sandbox, Environment::Production] {
            if store::account_by_email(self.store.as_ref(), environment, &email).await.ok()?.is_some() {
                if found.is_some() {
                    return None;
                }
                found = Some(environment);
            }
        }
        found
    }

    /// Records that a person exported the audit log (before the export is handed over).
    pub(crate) async fn log_audit_export(&self, environment: Environment, person_id: &str) -> ApiResult<()> {
        let statement = self.person_audit(environment, "console.audit_export", person_id, self.clock.now());
        self.store.batch(vec![statement]).await.map_err(Into::into)
    }

    fn hash_password(&self, password: &str) -> ApiResult<String> {
        let salt = SaltString::encode_b64(&self.ids.random_bytes(16)).map_err(|e| ApiError::internal().with_detail(e.to_string()))?;
        Ok(Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map_err(|e| ApiError::internal().with_detail(format!("argon2: {e}")))?
            .to_string())
    }

    /// An audit row of the team's own actions (sign-in, export), by the person.
    /// A new session of a person who signed in (`how`: `password` or `oidc`), audited; its token.
    pub(crate) async fn open_session(&self, environment: Environment, person_id: &str, how: &str, now: i64) -> ApiResult<String> {
        let token = crate::auth::new_session_token(environment, &self.ids.random_bytes(SESSION_TOKEN_BYTES));
        let action = if how == "oidc" { "console.sign_in_oidc" } else { "console.sign_in" };
        let audit = self.person_audit(environment, action, person_id, now);
        self.store.batch(vec![store::insert_session(&crate::auth::hash_key(&token), person_id, environment, now), audit]).await?;
        Ok(token)
    }

    fn person_audit(&self, environment: Environment, action: &str, person_id: &str, now: i64) -> crate::ports::Stmt {
        self.team_audit(environment, action, person_id, person_id, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_good_for_its_step_and_the_next_and_previous_only() {
        let generator = totp(vec![7; TOTP_SECRET_BYTES]).unwrap_or_else(|e| panic!("{e:?}"));
        let now = 1_800_000_015;
        let step = now / 30;
        let code = generator.generate(now as u64);
        assert_eq!(totp_step(&generator, &code, now), Some(step));
        assert_eq!(totp_step(&generator, &code, now + 30), Some(step));
        assert_eq!(totp_step(&generator, &code, now - 30), Some(step));
        assert_eq!(totp_step(&generator, &code, now + 60), None);
        assert_eq!(totp_step(&generator, "000000x", now), None);
    }

    /// Length alone passes none of these; zxcvbn refuses them (422
    /// `weak_password`). Twin: passphrases and long random strings pass.
    #[test]
    fn guessable_passwords_are_weak_and_passphrases_are_not() {
        for weak in ["password1234", "aaaaaaaaaaaa", "qwertyuiop123", "ana.reviewer2024", "Password123!", "123456789012"] {
            let error = check_strength(weak, "ana.reviewer@example.com").err().unwrap_or_else(|| panic!("{weak} passed"));
            assert_eq!((error.status, error.code), (422, "weak_password"), "{weak}");
        }
        for strong in
            ["correct horse battery staple", "a long and new passphrase", "amber kettle orbit bench", "pw-31337-123456789-0", "tX9#mQ2v!Lr8zK"]
        {
            assert!(check_strength(strong, "ana.reviewer@example.com").is_ok(), "{strong} was refused");
        }
    }

    /// Any text a person may send is estimated, quickly: unicode, emoji,
    /// combining marks, invisible characters, and the longest password allowed.
    #[test]
    fn every_allowed_password_is_estimated_quickly() {
        let long = "ab1!".repeat(PASSWORD_MAX_CHARS / 4);
        let samples = [
            "пароль-пароль-пароль",
            "🔐🔐🔐🔐🔐🔐🔐🔐🔐🔐🔐🔐",
            "Ünïcödé pässwörd ñ",
            "e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}e\u{301}",
            "\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}",
            &long,
        ];
        for sample in samples {
            let started = std::time::Instant::now();
            let _ = check_strength(sample, "a@example.com");
            assert!(started.elapsed() < std::time::Duration::from_secs(1), "{sample}: {:?}", started.elapsed());
        }
        assert!(check_strength(&long, "a@example.com").is_err(), "a repeated pattern is weak");
    }

    #[test]
    fn the_dummy_hash_has_the_default_parameters() {
        let dummy = PasswordHash::new(dummy_hash().unwrap_or_default()).unwrap_or_else(|e| panic!("{e}"));
        let salt = SaltString::encode_b64(&[1; 16]).unwrap_or_else(|e| panic!("{e}"));
        let real = Argon2::default().hash_password(b"x", &salt).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((dummy.algorithm, dummy.version, &dummy.params), (real.algorithm, real.version, &real.params));
    }

    #[test]
    fn windows_end_on_their_boundary() {
        assert_eq!(window_end(1_800_000_000, 900), 1_800_000_900);
        assert_eq!(window_end(1_800_000_899, 900), 1_800_000_900);
        assert_eq!(window_end(1_799_999_999, 3600), 1_800_000_000);
    }

    #[test]
    fn roles_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(*role));
        }
        assert_eq!(Role::parse("root"), None);
    }
}
