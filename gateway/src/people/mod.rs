//! The people area: the compliance team's console accounts. A person has a
//! role in one environment, signs in with a password (argon2id) and a TOTP
//! code (RFC 6238), and must change the one-time password given at creation.
//! Accounts are made and disabled by the admin command-line tool; API keys
//! stay the admin API's. The SQL is in [`store`].

pub(crate) mod store;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use serde::Serialize;
use subtle::ConstantTimeEq;
use totp_rs::{Algorithm, Secret, TOTP};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::Gateway;

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
/// This many failed sign-ins in a row lock an account for [`LOCK_SECONDS`]
/// (OWASP's authentication guidance; a security setting, not a regulatory rule).
const FAILED_SIGN_IN_LIMIT: i64 = 5;
const LOCK_MINUTES: i64 = 15;
const LOCK_SECONDS: i64 = LOCK_MINUTES * SECONDS_PER_MINUTE;
const SECONDS_PER_MINUTE: i64 = 60;

/// What `compliance-gateway console-user create` prints: shown once, never stored in clear.
#[derive(Debug, Serialize)]
pub struct CreatedAccount {
    pub user_id: String,
    pub email: String,
    pub role: &'static str,
    /// to be changed at the first sign-in
    pub password: String,
    /// base32 (RFC 4648, no padding), for an authenticator app
    pub totp_secret: String,
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

fn invalid_credentials() -> ApiError {
    ApiError::new(401, "invalid_credentials", "the e-mail address, password or code is not right")
}

impl Gateway {
    /// A console account with a one-time password and a TOTP secret; audited
    /// as `console_user.create` by `cli`. An address already in use in the
    /// environment is 409 `email_taken`; an invalid one 400 `invalid_field`.
    pub async fn create_console_account(&self, environment: Environment, email: &str, role: Role) -> ApiResult<CreatedAccount> {
        let email = crate::input::normalize_email(email).ok_or_else(|| ApiError::bad_request("invalid_field", "email must be an e-mail address"))?;
        if store::account_by_email(self.store.as_ref(), environment, &email).await?.is_some() {
            return Err(ApiError::conflict("email_taken", "a console account with this e-mail address exists in this environment"));
        }
        let person_id = self.new_id("per");
        let password = base32(&self.ids.random_bytes(ONE_TIME_PASSWORD_BYTES)).to_lowercase();
        let salt = SaltString::encode_b64(&self.ids.random_bytes(16)).map_err(|e| ApiError::internal().with_detail(e.to_string()))?;
        let password_hash = Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map_err(|e| ApiError::internal().with_detail(format!("argon2: {e}")))?
            .to_string();
        let secret = self.ids.random_bytes(TOTP_SECRET_BYTES);
        let totp_secret = base32(&secret);
        let now = self.clock.now();
        let account = store::Account {
            person_id: person_id.clone(),
            environment,
            email: email.clone(),
            role,
            password_hash,
            must_change_password: true,
            totp_secret: self.seal_secret(&totp_secret, &person_id),
            last_totp_step: 0,
            locked_until: 0,
            disabled_at: None,
        };
        let audit = self.cli_audit(environment, "console_user.create", &person_id, now);
        if !self.commit(vec![store::insert_account(&account, now), audit]).await? {
            return Err(ApiError::conflict("email_taken", "a console account with this e-mail address exists in this environment"));
        }
        Ok(CreatedAccount { user_id: person_id, email, role: role.as_str(), password, totp_secret })
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
        self.store.batch(vec![store::disable(&account.person_id, now), audit]).await?;
        Ok(account.person_id)
    }

    /// Checks a sign-in: the password and a TOTP code, each code good once.
    /// Any failure is the same 401 `invalid_credentials`, so that nothing
    /// says which part was wrong or whether the account exists. Five
    /// failures in a row lock the account for 15 minutes, during which even
    /// the right password and code are refused the same way.
    pub async fn sign_in(&self, environment: Environment, email: &str, password: &str, code: &str) -> ApiResult<SignedIn> {
        let email = crate::input::normalize_email(email).unwrap_or_default();
        let account = store::account_by_email(self.store.as_ref(), environment, &email).await?;
        let now = self.clock.now();
        let Some(account) = account.filter(|a| a.disabled_at.is_none() && a.locked_until <= now) else {
            return Err(invalid_credentials());
        };
        let failed = || async {
            let count = store::count_failure(&account.person_id, FAILED_SIGN_IN_LIMIT, now.saturating_add(LOCK_SECONDS), now);
            self.store.batch(vec![count]).await?;
            Err::<SignedIn, ApiError>(invalid_credentials())
        };
        let hash = PasswordHash::new(&account.password_hash).map_err(|_| ApiError::internal())?;
        if Argon2::default().verify_password(password.as_bytes(), &hash).is_err() {
            return failed().await;
        }
        let secret = self.open_secret(&account.totp_secret, &account.person_id).map_err(|_| ApiError::internal())?;
        let bytes = Secret::Encoded(secret).to_bytes().map_err(|_| ApiError::internal())?;
        let Some(step) = totp_step(&totp(bytes)?, code.trim(), now) else {
            return failed().await;
        };
        if step <= account.last_totp_step || !self.commit(vec![store::take_totp_step(&account.person_id, step, now)]).await? {
            // the code was used already
            return failed().await;
        }
        Ok(SignedIn {
            person_id: account.person_id,
            environment: account.environment,
            email: account.email,
            role: account.role,
            must_change_password: account.must_change_password,
        })
    }

    fn cli_audit(&self, environment: Environment, action: &str, resource: &str, now: i64) -> crate::ports::Stmt {
        let (audit_id, request_id) = (self.new_id("aud"), self.new_id("req"));
        crate::tenants::store::audit_admin_action(&crate::tenants::store::AdminAction {
            audit_id: &audit_id,
            tenant_id: None,
            action,
            request_id: &request_id,
            now,
            environment,
            actor_key_id: "cli",
            resource: Some(resource),
        })
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

    #[test]
    fn roles_round_trip() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(*role));
        }
        assert_eq!(Role::parse("root"), None);
    }
}
