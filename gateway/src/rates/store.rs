//! The reference rates' persistence: each import a version (its SHA-256),
//! its rows, and the rate an AML evaluation reads.

use crate::auth::Environment;
use crate::error::ApiResult;
use crate::ports::{Read, Row, Stmt, Store};

use super::ParsedRate;

/// One row of an import; a repeat of the same file inserts nothing new.
pub fn insert_rate(environment: Environment, version: &str, r: &ParsedRate) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_rates (environment, version, rate_date, currency, per_unit_of, rate_units, rate_scale)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (environment, version, rate_date, currency, per_unit_of) DO NOTHING",
        vec![
            environment.as_str().into(),
            version.into(),
            r.date.as_str().into(),
            r.currency.as_str().into(),
            r.per_unit_of.as_str().into(),
            r.rate_units.into(),
            i64::from(r.rate_scale).into(),
        ],
    )
}

/// The version row, written after its rows: a version is read only once complete.
pub fn insert_version(environment: Environment, version: &str, rows: i64, imported_by: &str, at: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_rate_versions (environment, version, rate_count, imported_by, imported_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (environment, version) DO NOTHING",
        vec![environment.as_str().into(), version.into(), rows.into(), imported_by.into(), at.into()],
    )
}

/// A version as stored.
pub struct VersionRow {
    pub version: String,
    pub rows: i64,
    pub imported_by: String,
    pub imported_at: i64,
}

fn version_from(r: &Row) -> ApiResult<VersionRow> {
    Ok(VersionRow { version: r.text(0)?, rows: r.int(1)?, imported_by: r.text(2)?, imported_at: r.int(3)? })
}

/// A version of the environment, if it was imported.
pub async fn version(store: &dyn Store, environment: Environment, version: &str) -> ApiResult<Option<VersionRow>> {
    let rows = store
        .query(
            "SELECT version, rate_count, imported_by, imported_at FROM aml_rate_versions WHERE environment = ?1 AND version = ?2",
            vec![environment.as_str().into(), version.into()],
        )
        .await?;
    rows.first().map(version_from).transpose()
}

/// The environment's versions, newest first, at most `limit`.
pub async fn versions(store: &dyn Store, environment: Environment, limit: i64) -> ApiResult<Vec<VersionRow>> {
    let rows = store
        .query(
            "SELECT version, rate_count, imported_by, imported_at FROM aml_rate_versions WHERE environment = ?1
             ORDER BY imported_at DESC, version DESC LIMIT ?2",
            vec![environment.as_str().into(), limit.into()],
        )
        .await?;
    rows.iter().map(version_from).collect()
}

/// The rate from `currency` to `per_unit_of` of the environment's newest
/// version, dated on `date` or the latest day before it.
pub fn read_rate(environment: Environment, currency: &str, per_unit_of: &str, date: &str) -> Read {
    Read::new(
        "SELECT r.version, r.rate_date, r.rate_units, r.rate_scale FROM aml_rates r
         WHERE r.environment = ?1 AND r.currency = ?2 AND r.per_unit_of = ?3 AND r.rate_date <= ?4
           AND r.version = (SELECT v.version FROM aml_rate_versions v WHERE v.environment = ?1 ORDER BY v.imported_at DESC, v.version DESC LIMIT 1)
         ORDER BY r.rate_date DESC LIMIT 1",
        vec![environment.as_str().into(), currency.into(), per_unit_of.into(), date.into()],
    )
}

/// A rate row: version, date, units, scale.
pub struct RateRow {
    pub version: String,
    pub date: String,
    pub rate_units: i64,
    pub rate_scale: u32,
}

pub fn rate_from(rows: &[Row]) -> ApiResult<Option<RateRow>> {
    rows.first()
        .map(|r| {
            Ok(RateRow {
                version: r.text(0)?,
                date: r.text(1)?,
                rate_units: r.int(2)?,
                rate_scale: u32::try_from(r.int(3)?).map_err(|_| crate::error::ApiError::internal())?,
            })
        })
        .transpose()
}
