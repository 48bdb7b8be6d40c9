//! Reference exchange rates for AML monitoring: imported like a list, each
//! import a version named by its SHA-256; the newest version of an
//! environment converts every event in another currency than the profile's
//! (the conversion itself is the rules'), and every deposit in another
//! currency than a deposit limit's (`crate::limits`, the check's day). The
//! rate an evaluation used is a fact of its decision, so the decision
//! replays from the log alone.
//!
//! The file is CSV, UTF-8, with this header and one rate a line:
//!
//! ```text
//! date,currency,per_unit_of,rate
//! 2027-01-15,EUR,USD,1.0800
//! ```
//!
//! On `date` (`YYYY-MM-DD`), one unit of `currency` is worth `rate` units of
//! `per_unit_of` (both ISO 4217); `rate` is a positive decimal with at most
//! 18 digits after the point. An event takes the rate of its own day (UTC),
//! or of the latest day before it in the newest version.

pub mod store;

use std::collections::BTreeSet;

use serde::Serialize;
use serde_json::Value as Json;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::{Body, FromBody};
use crate::openapi::answer::{Answer, Created};
use crate::openapi::shared::Timestamp;
use crate::openapi::OperationDoc;
use crate::{time, Ctx, Gateway};

/// The rows one import may hold.
pub const MAX_ROWS: usize = 250_000;
/// Rows written in one batch.
const ROWS_PER_BATCH: usize = 200;
/// Versions the admin list shows.
const VERSIONS_LISTED: i64 = 100;

/// The file's header, exactly.
pub const HEADER: [&str; 4] = ["date", "currency", "per_unit_of", "rate"];

/// One line of a rates file, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedRate {
    pub date: String,
    pub currency: String,
    pub per_unit_of: String,
    pub rate_units: i64,
    pub rate_scale: u32,
}

/// A positive decimal as units and a scale: `1.0800` is (10800, 4).
fn decimal(text: &str) -> Option<(i64, u32)> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) || (text.contains('.') && fraction.is_empty()) {
        return None;
    }
    let scale = u32::try_from(fraction.len()).ok().filter(|s| *s <= rules_model::MAX_RATE_DIGITS)?;
    let units: i64 = format!("{whole}{fraction}").parse().ok()?;
    (units > 0).then_some((units, scale))
}

/// Checks a rates file; the first problems, each with its line, on failure.
pub fn parse(csv_text: &[u8]) -> Result<Vec<ParsedRate>, String> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).trim(csv::Trim::All).from_reader(csv_text);
    let header: Vec<String> = reader.headers().map_err(|e| format!("the header cannot be read: {e}"))?.iter().map(str::to_string).collect();
    if header != HEADER {
        return Err(format!("the header must be {}, not {}", HEADER.join(","), header.join(",")));
    }
    let (mut rates, mut problems, mut seen) = (Vec::new(), Vec::new(), BTreeSet::new());
    for (i, record) in reader.records().enumerate() {
        let line = i + 2;
        if problems.len() >= 10 {
            break;
        }
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                problems.push(format!("line {line}: {e}"));
                continue;
            }
        };
        let field = |n: usize| record.get(n).unwrap_or("").to_string();
        let (date, currency, per_unit_of, rate) = (field(0), field(1), field(2), field(3));
        if time::parse_date(&date).is_none() {
            problems.push(format!("line {line}: date must be YYYY-MM-DD, not {date:?}"));
        }
        for code in [&currency, &per_unit_of] {
            if crate::input::currency_exponent(code).is_none() {
                problems.push(format!("line {line}: {code:?} is not an ISO 4217 currency code"));
            }
        }
        if currency == per_unit_of {
            problems.push(format!("line {line}: a rate converts between two currencies"));
        }
        let Some((rate_units, rate_scale)) = decimal(&rate) else {
            problems.push(format!("line {line}: rate must be a positive decimal such as 1.0825 (at most 18 digits after the point), not {rate:?}"));
            continue;
        };
        if !seen.insert((date.clone(), currency.clone(), per_unit_of.clone())) {
            problems.push(format!("line {line}: a second rate for {currency} in {per_unit_of} on {date}"));
        }
        rates.push(ParsedRate { date, currency, per_unit_of, rate_units, rate_scale });
        if rates.len() > MAX_ROWS {
            problems.push(format!("more than {MAX_ROWS} rates"));
            break;
        }
    }
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    if rates.is_empty() {
        return Err("the file holds no rate".into());
    }
    Ok(rates)
}

/// What an import made.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct RatesVersion {
    /// the SHA-256 of the file: the version each AML decision names
    pub version: String,
    pub rates: i64,
    pub imported_by: String,
    #[schema(value_type = Timestamp)]
    pub imported_at: String,
    /// false when this file was imported before: nothing changed
    pub created: bool,
}

impl Gateway {
    /// Imports a rates file into an environment as a new version (the
    /// newest), or answers the version it already is. `imported_by` is the
    /// key, person or `cli` that sent it.
    pub async fn import_rates(&self, environment: Environment, csv_text: &[u8], imported_by: &str) -> ApiResult<RatesVersion> {
        let rates = parse(csv_text).map_err(|message| ApiError::bad_request("invalid_rates", message))?;
        let version = hex::encode(Sha256::digest(csv_text));
        if let Some(before) = store::version(self.store.as_ref(), environment, &version).await? {
            return Ok(RatesVersion {
                version,
                rates: before.rows,
                imported_by: before.imported_by,
                imported_at: time::format(before.imported_at),
                created: false,
            });
        }
        let now = self.clock.now();
        for chunk in rates.chunks(ROWS_PER_BATCH) {
            self.store.batch(chunk.iter().map(|r| store::insert_rate(environment, &version, r)).collect()).await?;
        }
        let count = i64::try_from(rates.len()).unwrap_or(i64::MAX);
        self.store.batch(vec![store::insert_version(environment, &version, count, imported_by, now)]).await?;
        Ok(RatesVersion { version, rates: count, imported_by: imported_by.to_string(), imported_at: time::format(now), created: true })
    }

    /// [`Gateway::import_rates`] from the command line, audited as the admin route is.
    pub async fn import_rates_from_cli(&self, environment: Environment, csv_text: &[u8]) -> ApiResult<RatesVersion> {
        let imported = self.import_rates(environment, csv_text, "cli").await?;
        let audit = self.team_audit(environment, "aml.rates_import", "cli", &imported.version, self.clock.now());
        self.store.batch(vec![audit]).await?;
        Ok(imported)
    }
}

/// The rate an event in `currency` takes under a profile in `per_unit_of`,
/// as the rules read it: with both currencies' exponents.
pub(crate) fn rate_fact(row: store::RateRow, currency: &str, per_unit_of: &str) -> Option<rules_model::AmlRate> {
    Some(rules_model::AmlRate {
        version: row.version,
        date: row.date,
        currency: currency.to_string(),
        currency_exponent: crate::input::currency_exponent(currency)?,
        per_unit_of: per_unit_of.to_string(),
        per_unit_exponent: crate::input::currency_exponent(per_unit_of)?,
        rate_units: row.rate_units,
        rate_scale: row.rate_scale,
    })
}

/// The UTC calendar day of an instant, `YYYY-MM-DD`.
pub(crate) fn day_of(at: i64) -> String {
    time::format(at).get(..10).unwrap_or_default().to_string()
}

/// The body of `POST /v1/admin/aml/rates`.
#[derive(Serialize, ToSchema)]
pub(crate) struct ImportBody {
    /// the rates file: `date,currency,per_unit_of,rate`, then one rate a line (see docs/decisions.md, "Reference exchange rates (AML currencies)")
    #[schema(min_length = 1)]
    csv: String,
}

impl FromBody for ImportBody {
    fn from_body(body: &[u8], _: &Gateway, _: &Ctx<'_>) -> ApiResult<Self> {
        let body = crate::input::parse_json_object(body)?;
        match body.get("csv") {
            Some(Json::String(text)) if !text.trim().is_empty() => Ok(ImportBody { csv: text.clone() }),
            Some(Json::String(_)) | None | Some(Json::Null) => Err(ApiError::bad_request("missing_fields", "csv is required: the rates file")),
            Some(_) => Err(ApiError::bad_request("invalid_field", "csv must be a string: the rates file")),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub(crate) struct RatesVersions {
    /// newest first; the first converts new events
    versions: Vec<RatesVersion>,
}

pub(crate) fn import_doc() -> OperationDoc {
    OperationDoc::new("admin", "import reference exchange rates for AML monitoring: a new version, named by the file's SHA-256")
        .describe(
            "The body carries the CSV (`date,currency,per_unit_of,rate`; one unit of `currency` is worth `rate` units of `per_unit_of` on `date`). \
             The newest version converts every AML event in another currency than the profile's; an event with no rate is flagged \
             `unconvertible_currency` for the team. Larger files: `compliance-gateway rates import`.",
        )
        .answers("a new version")
        .or_200("this file was imported before: its version")
}

pub(crate) fn list_doc() -> OperationDoc {
    OperationDoc::new("admin", "the environment's reference-rate versions, newest first")
}

/// `POST /v1/admin/aml/rates`.
pub(crate) async fn import(gw: &Gateway, ctx: &Ctx<'_>, Body(ImportBody { csv: csv_text }): Body<ImportBody>) -> ApiResult<Created<RatesVersion>> {
    let imported = gw.import_rates(ctx.caller.environment, csv_text.as_bytes(), &ctx.caller.key_id).await?;
    if imported.created {
        Created::new(&imported)
    } else {
        Created::existing(&imported)
    }
}

/// `GET /v1/admin/aml/rates`.
pub(crate) async fn list(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<RatesVersions>> {
    let versions = store::versions(gw.store.as_ref(), ctx.caller.environment, VERSIONS_LISTED)
        .await?
        .into_iter()
        .map(|v| RatesVersion {
            version: v.version,
            rates: v.rows,
            imported_by: v.imported_by,
            imported_at: time::format(v.imported_at),
            created: true,
        })
        .collect();
    Answer::new(&RatesVersions { versions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rates_file_is_checked_line_by_line() {
        let ok = parse(b"date,currency,per_unit_of,rate\n2027-01-15,EUR,USD,1.0800\n2027-01-15,JPY,USD,0.0064\n").unwrap();
        assert_eq!(
            ok[0],
            ParsedRate { date: "2027-01-15".into(), currency: "EUR".into(), per_unit_of: "USD".into(), rate_units: 10_800, rate_scale: 4 }
        );
        assert_eq!((ok[1].rate_units, ok[1].rate_scale), (64, 4));
        for (bad, why) in [
            (&b"day,currency,per_unit_of,rate\n2027-01-15,EUR,USD,1.08\n"[..], "header"),
            (b"date,currency,per_unit_of,rate\n15/01/2027,EUR,USD,1.08\n", "date"),
            (b"date,currency,per_unit_of,rate\n2027-01-15,EUX,USD,1.08\n", "ISO 4217"),
            (b"date,currency,per_unit_of,rate\n2027-01-15,EUR,EUR,1.08\n", "two currencies"),
            (b"date,currency,per_unit_of,rate\n2027-01-15,EUR,USD,-1.08\n", "positive decimal"),
            (b"date,currency,per_unit_of,rate\n2027-01-15,EUR,USD,0\n", "positive decimal"),
            (b"date,currency,per_unit_of,rate\n2027-01-15,EUR,USD,1e3\n", "positive decimal"),
            (b"date,currency,per_unit_of,rate\n2027-01-15,EUR,USD,1.0000000000000000001\n", "positive decimal"),
            (b"date,currency,per_unit_of,rate\n2027-01-15,EUR,USD,1.08\n2027-01-15,EUR,USD,1.09\n", "a second rate"),
            (b"date,currency,per_unit_of,rate\n", "no rate"),
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.contains(why), "{why}: {e}");
        }
    }

    #[test]
    fn an_event_takes_the_day_of_its_instant_in_utc() {
        assert_eq!(day_of(1_800_000_000), "2027-01-15");
        assert_eq!(day_of(1_800_000_000 - 8 * 3_600 - 1), "2027-01-14");
    }
}
