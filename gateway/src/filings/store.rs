//! The filings area's persistence: the drafts kept with their case
//! (`aml_filings`, record class "AML events, alerts, cases and filings") and
//! each tenant's filing settings (`filing_settings`).

use crate::auth::Environment;
use crate::error::ApiResult;
use crate::ports::{Row, Stmt, Store};

/// A draft as stored.
pub struct NewFiling<'a> {
    pub filing_id: &'a str,
    pub environment: Environment,
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub case_id: &'a str,
    pub alert_id: Option<&'a str>,
    pub format: &'a str,
    pub valid: bool,
    /// the problems, as a JSON array
    pub errors: &'a str,
    pub xml: &'a str,
    /// the officer-supplied identity, as JSON: kept with this filing only
    pub subject: &'a str,
    pub created_by: &'a str,
    pub created_at: i64,
}

pub fn insert(f: &NewFiling<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_filings (filing_id, environment, tenant_id, external_user_id, case_id, alert_id, format, valid, errors, xml, subject, created_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
        vec![
            f.filing_id.into(),
            f.environment.as_str().into(),
            f.tenant_id.into(),
            f.user_id.into(),
            f.case_id.into(),
            f.alert_id.into(),
            f.format.into(),
            f.valid.into(),
            f.errors.into(),
            f.xml.into(),
            f.subject.into(),
            f.created_by.into(),
            f.created_at.into(),
        ],
    )
}

/// A filing as a case lists it.
pub struct FilingRow {
    pub filing_id: String,
    pub case_id: String,
    pub alert_id: Option<String>,
    pub format: String,
    pub valid: bool,
    pub errors: String,
    pub xml: Option<String>,
    pub created_by: String,
    pub created_at: i64,
}

/// How many filings a case lists at most.
pub const CASE_FILINGS: i64 = 200;

/// A case's filings, newest first.
pub async fn of_case(store: &dyn Store, environment: Environment, case_id: &str) -> ApiResult<Vec<FilingRow>> {
    let rows = store
        .query(
            "SELECT filing_id, case_id, alert_id, format, valid, errors, xml, created_by, created_at FROM aml_filings
             WHERE environment = ?1 AND case_id = ?2 ORDER BY created_at DESC, filing_id DESC LIMIT ?3",
            vec![environment.as_str().into(), case_id.into(), CASE_FILINGS.into()],
        )
        .await?;
    rows.iter().map(filing_from).collect()
}

fn filing_from(r: &Row) -> ApiResult<FilingRow> {
    Ok(FilingRow {
        filing_id: r.text(0)?,
        case_id: r.text(1)?,
        alert_id: r.opt_text(2)?,
        format: r.text(3)?,
        valid: r.bool(4)?,
        errors: r.text(5)?,
        xml: r.opt_text(6)?,
        created_by: r.text(7)?,
        created_at: r.int(8)?,
    })
}

/// A tenant's filing settings, as JSON.
pub async fn settings(store: &dyn Store, environment: Environment, tenant_id: &str) -> ApiResult<Option<String>> {
    let rows = store
        .query("SELECT settings FROM filing_settings WHERE tenant_id = ?1 AND environment = ?2", vec![tenant_id.into(), environment.as_str().into()])
        .await?;
    rows.first().map(|r| r.text(0)).transpose().map_err(Into::into)
}

pub fn set_settings(environment: Environment, tenant_id: &str, settings: &str, now: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO filing_settings (tenant_id, environment, settings, updated_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (tenant_id) DO UPDATE SET settings = ?3, updated_at = ?4",
        vec![tenant_id.into(), environment.as_str().into(), settings.into(), now.into()],
    )
}

/// The operator's name, the other party of a goAML transaction.
pub async fn tenant_name(store: &dyn Store, tenant_id: &str) -> ApiResult<Option<String>> {
    let rows = store.query("SELECT name FROM tenants WHERE tenant_id = ?1", vec![tenant_id.into()]).await?;
    rows.first().map(|r| r.text(0)).transpose().map_err(Into::into)
}

/// What the gateway holds of a player's identity: names and date of birth,
/// from their screening (empty once redacted); restricted players too, for
/// a filing is a legal obligation (GDPR Art. 18(2)).
pub struct StoredIdentity {
    pub first_name: String,
    pub last_name: String,
    pub date_of_birth: Option<String>,
}

pub async fn player_identity(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<StoredIdentity>> {
    let rows = store
        .query(
            "SELECT first_name, last_name, date_of_birth FROM users WHERE tenant_id = ?1 AND external_user_id = ?2",
            vec![tenant_id.into(), user_id.into()],
        )
        .await?;
    let Some(r) = rows.first() else { return Ok(None) };
    Ok(Some(StoredIdentity { first_name: r.text(0)?, last_name: r.text(1)?, date_of_birth: r.opt_text(2)? }))
}

/// An alert a CTR candidate is named by.
pub struct CandidateAlert {
    pub alert_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub case_id: String,
    pub actions: String,
    pub explanation: String,
}

/// The alert of the environment with this id.
pub async fn alert(store: &dyn Store, environment: Environment, alert_id: &str) -> ApiResult<Option<CandidateAlert>> {
    let rows = store
        .query(
            "SELECT alert_id, tenant_id, external_user_id, case_id, actions, explanation FROM aml_alerts WHERE alert_id = ?1 AND environment = ?2",
            vec![alert_id.into(), environment.as_str().into()],
        )
        .await?;
    rows.first()
        .map(|r| {
            Ok(CandidateAlert {
                alert_id: r.text(0)?,
                tenant_id: r.text(1)?,
                user_id: r.text(2)?,
                case_id: r.text(3)?,
                actions: r.text(4)?,
                explanation: r.text(5)?,
            })
        })
        .transpose()
}
