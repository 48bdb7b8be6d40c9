//! The users' persistence shared by every area that writes a user's state:
//! the user as the areas read it, and the claim of the user's row.

use rules_model::SanctionsStatus;

use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store};

/// A user as the other endpoints need it.
pub struct User {
    pub external_user_id: String,
    pub email: String,
    pub sanctions_status: SanctionsStatus,
    pub verified_tier: rules_model::KycTier,
    pub verified_at: Option<i64>,
    pub cumulative_withdrawn_cents: i64,
    pub version: i64,
    /// the currency of the user's withdrawals, fixed by the first
    pub withdrawal_currency: Option<String>,
    /// what AML monitoring decided for the user's withdrawals
    pub aml: rules_model::AmlStanding,
    /// when the user's last AML event happened
    pub aml_last_seen_at: Option<i64>,
}

/// Claims a user's row: the batch it is in commits only if no other write
/// to the user committed since `version` was read. Every batch that writes
/// a user's state holds one claim per user it writes.
pub fn claim(tenant_id: &str, user_id: &str, version: i64, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE users SET version = version + 1, updated_at = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
        vec![tenant_id.into(), user_id.into(), version.into(), now.into()],
    )
}

/// The user of a tenant, restricted or not: what [`from_row`] reads.
macro_rules! any_user_sql {
    () => {
        "SELECT external_user_id, email, sanctions_status, verified_tier, verified_at, cumulative_withdrawn_cents, version,
        withdrawal_currency, aml_withdrawals_held, aml_cdd_tier, aml_last_seen_at
 FROM users WHERE tenant_id = ?1 AND external_user_id = ?2"
    };
}

/// The user of a tenant: `?1` tenant, `?2` user. A user whose records an
/// erasure restricted (GDPR Art. 18) is hidden from every area's reads.
const USER_SQL: &str = concat!(any_user_sql!(), " AND restricted_at IS NULL");

/// The read of a user, for a round trip with other reads.
pub(crate) fn read(tenant_id: &str, external_user_id: &str) -> Read {
    Read::new(USER_SQL, vec![tenant_id.into(), external_user_id.into()])
}

pub(crate) async fn find(store: &dyn Store, tenant_id: &str, external_user_id: &str) -> ApiResult<Option<User>> {
    let rows = store.query(USER_SQL, vec![tenant_id.into(), external_user_id.into()]).await?;
    rows.first().map(from_row).transpose()
}

/// The user a review case is about, restricted or not. A case opened before
/// an erasure restricted the player is still decided: AML and sanctions
/// decisions are kept under a legal obligation (GDPR Art. 17(3)(b), 18(2)),
/// and an undecidable case would wait in the team's queue for ever.
pub(crate) async fn find_case_subject(store: &dyn Store, tenant_id: &str, external_user_id: &str) -> ApiResult<Option<User>> {
    let rows = store.query(CASE_SUBJECT_SQL, vec![tenant_id.into(), external_user_id.into()]).await?;
    rows.first().map(from_row).transpose()
}

/// The user a self-exclusion is about, restricted or erased or not: a
/// player's protection outlives the erasure of their records, so an erased
/// player can self-exclude again at once (issue #46).
pub(crate) async fn find_exclusion_subject(store: &dyn Store, tenant_id: &str, external_user_id: &str) -> ApiResult<Option<User>> {
    let rows = store.query(CASE_SUBJECT_SQL, vec![tenant_id.into(), external_user_id.into()]).await?;
    rows.first().map(from_row).transpose()
}

/// [`USER_SQL`] without the restriction.
const CASE_SUBJECT_SQL: &str = any_user_sql!();

pub(crate) fn from_row(row: &Row) -> ApiResult<User> {
    Ok(User {
        external_user_id: row.text(0)?,
        email: row.text(1)?,
        sanctions_status: SanctionsStatus::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
        verified_tier: rules_model::KycTier::parse(&row.text(3)?).ok_or_else(ApiError::internal)?,
        verified_at: row.opt_int(4)?,
        cumulative_withdrawn_cents: row.int(5)?,
        version: row.int(6)?,
        withdrawal_currency: row.opt_text(7)?,
        aml: rules_model::AmlStanding {
            withdrawals_held: row.int(8)? != 0,
            cdd_tier: row.opt_text(9)?.map(|t| rules_model::KycTier::parse(&t).ok_or_else(ApiError::internal)).transpose()?,
        },
        aml_last_seen_at: row.opt_int(10)?,
    })
}
