//! The shared self-exclusion list: registration, the live check and the snapshot.

use base64::Engine as _;
use rules::{ExclusionDuration, ExclusionTerm};
use serde_json::{json, Value as Json};

use super::{busy, stored_json};
use crate::error::{ApiError, ApiResult};
use crate::input::{normalize_email, normalize_phone, Fields};
use crate::ports::{Stmt, Value};
use crate::{time, Ctx, Gateway, Reply, MAX_CLOCK_SKEW_SECONDS, WRITE_ATTEMPTS};

/// Source of an exclusion registered by a licensed operator through the API.
pub const SOURCE_OPERATOR: &str = "operator";
/// Source of an exclusion made through the regulator's comprehensive form.
pub const SOURCE_REGULATOR: &str = "regulator_comprehensive";
const REASONS: [&str; 2] = ["self_initiated", "operator_initiated"];
const DEFAULT_PAGE: i64 = 100;
const MAX_PAGE: i64 = 1000;

/// The licensing regulator's register takes exclusions of six months or more.
fn propagates_to_regulator(duration: ExclusionDuration) -> bool {
    matches!(duration, ExclusionDuration::Months6 | ExclusionDuration::Year1 | ExclusionDuration::Permanent)
}

pub(crate) fn check_skew(f: &mut Fields, name: &'static str, sent: i64, now: i64) {
    if sent != 0 && (sent - now).abs() > MAX_CLOCK_SKEW_SECONDS {
        f.reject(
            "timestamp_out_of_range",
            format!("{name} must be within {MAX_CLOCK_SKEW_SECONDS} seconds of the service clock ({})", time::format(now)),
        );
    }
}

impl Gateway {
    pub(crate) async fn register_exclusion(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let user_id = f.text("user_id");
        let raw_email = f.opt_text("email");
        let raw_phone = f.opt_text("phone");
        let duration_text = f.text("duration");
        let reason = f.text("reason");
        let initiated_at = f.timestamp("initiated_at");
        let email = raw_email.as_deref().and_then(normalize_email);
        let phone = raw_phone.as_deref().and_then(normalize_phone);
        if raw_email.is_some() && email.is_none() {
            f.reject("invalid_field", "email must be an e-mail address");
        }
        if raw_phone.is_some() && phone.is_none() {
            f.reject("invalid_field", "phone must be a phone number of 7 to 15 digits");
        }
        let duration = ExclusionDuration::parse(&duration_text);
        if !duration_text.is_empty() && duration.is_none() {
            f.reject(
                "unsupported_duration",
                "duration must be one of duration_24h, duration_7d, duration_30d, duration_6m, duration_1y, duration_permanent",
            );
        }
        if !reason.is_empty() && !REASONS.contains(&reason.as_str()) {
            f.reject("unsupported_reason", "reason must be self_initiated or operator_initiated");
        }
        check_skew(&mut f, "initiated_at", initiated_at, ctx.now);
        f.finish()?;
        let duration = duration.ok_or_else(ApiError::internal)?;
        for _ in 0..WRITE_ATTEMPTS {
            let user = self.require_user(ctx, &user_id).await?;
            let active = self.active_user_exclusions(ctx, &user_id).await?;
            if let Some((_, response, _)) = active.iter().find(|(d, _, _)| d == duration.as_str()) {
                return Ok(Reply::ok(stored_json(response)?));
            }
            let expires_at = self.rules.exclusion_expiry(duration, ctx.now)?;
            let proposed = ExclusionTerm { expires_at };
            let terms: Vec<ExclusionTerm> = active.iter().map(|(_, _, e)| ExclusionTerm { expires_at: *e }).collect();
            if let Some(i) = self.rules.most_restrictive_exclusion(ctx.now, &terms)? {
                let current = terms.get(i as usize).copied().ok_or_else(ApiError::internal)?;
                if !self.rules.exclusion_lengthens(current, proposed)? {
                    return Err(ApiError::conflict(
                        "already_excluded",
                        "the user is already excluded until at least that time; an exclusion can be lengthened, never shortened",
                    ));
                }
            }
            let email = email.clone().or_else(|| normalize_email(&user.email));
            let exclusion_id = self.new_id("exc");
            let is_permanent = expires_at.is_none();
            let regulator_propagated = propagates_to_regulator(duration);
            let response = json!({
                "exclusion_id": exclusion_id,
                "user_id": user_id,
                "duration": duration.as_str(),
                "effective_from": time::format(ctx.now),
                "expires_at": time::json_opt(expires_at),
                "is_permanent": is_permanent,
                "regulator_propagated": regulator_propagated,
            });
            let data = json!({
                "exclusion_id": exclusion_id,
                "user_email": email,
                "user_phone": phone,
                "duration": duration.as_str(),
                "is_permanent": is_permanent,
                "expires_at": time::json_opt(expires_at),
                "source": SOURCE_OPERATOR,
            });
            let environment = ctx.caller.environment;
            let mut statements = vec![
                self.claim_user(ctx, &user),
                next_exclusion_seq(),
                Stmt::new(
                    "INSERT INTO exclusions (exclusion_id, seq, environment, tenant_id, external_user_id, email, phone, duration, reason, source,
                                             effective_from, expires_at, regulator_propagated, response, created_at)
                     VALUES (?1, (SELECT value FROM counters WHERE name = 'exclusion_seq'), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?10)",
                    vec![
                        exclusion_id.as_str().into(),
                        environment.as_str().into(),
                        ctx.caller.tenant_id.as_str().into(),
                        user_id.as_str().into(),
                        Value::from(email.clone()),
                        Value::from(phone.clone()),
                        duration.as_str().into(),
                        reason.as_str().into(),
                        SOURCE_OPERATOR.into(),
                        ctx.now.into(),
                        Value::from(expires_at),
                        regulator_propagated.into(),
                        response.to_string().into(),
                    ],
                ),
                self.event(environment, None, "exclusion.created", ctx.now, data.clone()),
            ];
            if is_permanent {
                statements.push(self.event(environment, None, "exclusion.permanent", ctx.now, data));
            }
            if self.commit(statements).await? {
                return Ok(Reply::created(response));
            }
        }
        Err(busy())
    }

    /// Imports exclusions made through the regulator's comprehensive form:
    /// permanent, irrevocable, shared with every tenant of the environment.
    /// An address already permanently excluded by the regulator is skipped.
    pub(crate) async fn import_regulator_exclusions(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        self.import_regulator_list(ctx.caller.environment, &ctx.caller.tenant_id, ctx.now, ctx.body).await.map(Reply::ok)
    }

    /// Imports a regulator list given as `{"entries": [{email?, phone?, reference?}]}`,
    /// for the admin endpoint and the `regulator-import` command alike.
    pub async fn import_regulator_file(&self, environment: crate::auth::Environment, body: &[u8]) -> ApiResult<Json> {
        let service_tenant = format!("svc_{}", environment.as_str());
        self.import_regulator_list(environment, &service_tenant, self.clock.now(), body).await
    }

    async fn import_regulator_list(&self, environment: crate::auth::Environment, importer: &str, now: i64, body: &[u8]) -> ApiResult<Json> {
        let object = crate::input::parse_json_object(body)?;
        let entries = object
            .get("entries")
            .and_then(Json::as_array)
            .filter(|a| !a.is_empty() && a.len() <= 1000)
            .ok_or_else(|| ApiError::bad_request("invalid_field", "entries must be an array of 1 to 1000 objects with email and/or phone"))?;
        let mut parsed = Vec::new();
        for (i, entry) in entries.iter().enumerate() {
            let field = |name: &str| entry.get(name).and_then(Json::as_str).map(str::trim).filter(|s| !s.is_empty());
            let email = field("email").map(|e| normalize_email(e).ok_or(i)).transpose();
            let phone = field("phone").map(|p| normalize_phone(p).ok_or(i)).transpose();
            match (email, phone) {
                (Ok(None), Ok(None)) | (Err(_), _) | (_, Err(_)) => {
                    return Err(ApiError::bad_request("invalid_field", format!("entries[{i}] needs a valid email or phone")));
                }
                (Ok(email), Ok(phone)) => parsed.push((email, phone, field("reference").map(str::to_string))),
            }
        }
        let (mut imported, mut skipped) = (Vec::new(), 0);
        for (email, phone, reference) in parsed {
            let existing = self
                .store
                .scalar(
                    "SELECT COUNT(*) FROM exclusions WHERE environment = ?1 AND source = ?2 AND expires_at IS NULL AND (email = ?3 OR phone = ?4)",
                    vec![environment.as_str().into(), SOURCE_REGULATOR.into(), Value::from(email.clone()), Value::from(phone.clone())],
                )
                .await?;
            if existing > 0 {
                skipped += 1;
                continue;
            }
            let exclusion_id = self.new_id("exc");
            let data = json!({
                "exclusion_id": exclusion_id,
                "user_email": email,
                "user_phone": phone,
                "duration": ExclusionDuration::Permanent.as_str(),
                "is_permanent": true,
                "expires_at": null,
                "source": SOURCE_REGULATOR,
            });
            let statements = vec![
                next_exclusion_seq(),
                Stmt::new(
                    "INSERT INTO exclusions (exclusion_id, seq, environment, tenant_id, external_user_id, email, phone, duration, reason, source,
                                             effective_from, expires_at, regulator_propagated, response, created_at)
                     VALUES (?1, (SELECT value FROM counters WHERE name = 'exclusion_seq'), ?2, ?3, NULL, ?4, ?5, ?6, ?7, ?8, ?9, NULL, 1, ?10, ?9)",
                    vec![
                        exclusion_id.as_str().into(),
                        environment.as_str().into(),
                        importer.into(),
                        Value::from(email.clone()),
                        Value::from(phone.clone()),
                        ExclusionDuration::Permanent.as_str().into(),
                        reference.unwrap_or_else(|| "regulator_form".to_string()).into(),
                        SOURCE_REGULATOR.into(),
                        now.into(),
                        data.to_string().into(),
                    ],
                ),
                self.event(environment, None, "exclusion.kgc_synced", now, data.clone()),
                self.event(environment, None, "exclusion.permanent", now, data),
            ];
            if !self.commit(statements).await? {
                return Err(busy());
            }
            imported.push(exclusion_id);
        }
        Ok(json!({ "imported": imported.len(), "skipped": skipped, "exclusion_ids": imported }))
    }

    /// The user's exclusions at this tenant still active at the caller's now:
    /// (duration, stored response, expiry).
    async fn active_user_exclusions(&self, ctx: &Ctx<'_>, user_id: &str) -> ApiResult<Vec<(String, String, Option<i64>)>> {
        let rows = self
            .store
            .query(
                "SELECT duration, response, expires_at FROM exclusions
                 WHERE tenant_id = ?1 AND external_user_id = ?2 AND (expires_at IS NULL OR expires_at > ?3) ORDER BY seq",
                vec![ctx.caller.tenant_id.as_str().into(), user_id.into(), ctx.now.into()],
            )
            .await?;
        rows.iter().map(|r| Ok((r.text(0)?, r.text(1)?, r.opt_int(2)?))).collect()
    }

    /// Whether an e-mail or phone is on the shared list of the environment at
    /// `now`. Every tenant sees every tenant's exclusions at once: an
    /// exclusion counts from its registration until its expiry, compared with
    /// the caller's own clock.
    pub(crate) async fn find_exclusion(&self, ctx: &Ctx<'_>, email: Option<&str>, phone: Option<&str>) -> ApiResult<Option<Json>> {
        if email.is_none() && phone.is_none() {
            return Ok(None);
        }
        let rows = self
            .store
            .query(
                "SELECT exclusion_id, duration, expires_at, source FROM exclusions WHERE environment = ?1 AND (email = ?2 OR phone = ?3) ORDER BY seq",
                vec![ctx.caller.environment.as_str().into(), Value::from(email), Value::from(phone)],
            )
            .await?;
        let terms = rows.iter().map(|r| Ok(ExclusionTerm { expires_at: r.opt_int(2)? })).collect::<ApiResult<Vec<_>>>()?;
        let Some(index) = self.rules.most_restrictive_exclusion(ctx.now, &terms)? else { return Ok(None) };
        let row = rows.get(index as usize).ok_or_else(ApiError::internal)?;
        let expires_at = row.opt_int(2)?;
        Ok(Some(json!({
            "is_excluded": true,
            "exclusion_id": row.text(0)?,
            "duration": row.text(1)?,
            "expires_at": time::json_opt(expires_at),
            "is_permanent": expires_at.is_none(),
            "source": row.text(3)?,
        })))
    }

    /// Whether a player is excluded: by an exclusion registered for them at
    /// this tenant, or on the shared list under their screening e-mail. One
    /// read; the rules decide which exclusions are still active.
    pub(crate) async fn is_excluded(&self, ctx: &Ctx<'_>, user: &crate::api::User) -> ApiResult<bool> {
        let rows = self
            .store
            .query(
                "SELECT expires_at FROM exclusions
                 WHERE (tenant_id = ?1 AND external_user_id = ?2) OR (environment = ?3 AND email = ?4)",
                vec![
                    ctx.caller.tenant_id.as_str().into(),
                    user.external_user_id.as_str().into(),
                    ctx.caller.environment.as_str().into(),
                    user.email.as_str().into(),
                ],
            )
            .await?;
        let terms = rows.iter().map(|r| Ok(ExclusionTerm { expires_at: r.opt_int(0)? })).collect::<ApiResult<Vec<_>>>()?;
        Ok(self.rules.most_restrictive_exclusion(ctx.now, &terms)?.is_some())
    }

    pub(crate) async fn check_exclusion(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let raw_email = ctx.query.get("email");
        let raw_phone = ctx.query.get("phone");
        if raw_email.is_none() && raw_phone.is_none() {
            return Err(ApiError::bad_request("missing_fields", "give the email or phone query parameter"));
        }
        let email = raw_email
            .map(|e| normalize_email(e).ok_or_else(|| ApiError::bad_request("invalid_field", "email must be an e-mail address")))
            .transpose()?;
        let phone = raw_phone
            .map(|p| normalize_phone(p).ok_or_else(|| ApiError::bad_request("invalid_field", "phone must be a phone number of 7 to 15 digits")))
            .transpose()?;
        let found = self.find_exclusion(ctx, email.as_deref(), phone.as_deref()).await?;
        Ok(Reply::ok(found.unwrap_or_else(|| json!({ "is_excluded": false }))))
    }

    /// Active exclusions of the environment, in registration order, for
    /// nightly reconciliation. The cursor names the last row seen, so pages
    /// stay correct while rows are added or expire.
    pub(crate) async fn exclusion_snapshot(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let limit = match ctx.query.get("limit") {
            None => DEFAULT_PAGE,
            Some(text) => text
                .parse::<i64>()
                .ok()
                .filter(|n| (1..=MAX_PAGE).contains(n))
                .ok_or_else(|| ApiError::bad_request("invalid_limit", format!("limit must be an integer from 1 to {MAX_PAGE}")))?,
        };
        let after = match ctx.query.get("cursor") {
            None => 0,
            Some(cursor) => decode_cursor(cursor).ok_or_else(|| ApiError::bad_request("invalid_cursor", "cursor is not one this service issued"))?,
        };
        // The live list by default; with `snapshot=daily`, the list as the 03:00 UTC snapshot took it.
        let (through_seq, active_at, daily) = match ctx.query.get("snapshot") {
            None | Some("live") => (i64::MAX, ctx.now, Json::Null),
            Some("daily") => {
                let rows = self
                    .store
                    .query(
                        "SELECT snapshot_date, taken_at, through_seq, active_count FROM exclusion_snapshots WHERE environment = ?1 ORDER BY snapshot_date DESC LIMIT 1",
                        vec![ctx.caller.environment.as_str().into()],
                    )
                    .await?;
                let row = rows.first().ok_or_else(|| ApiError::not_found("snapshot_not_found", "no daily snapshot has been taken yet"))?;
                let taken_at = row.int(1)?;
                let info = json!({ "snapshot_date": row.text(0)?, "taken_at": time::format(taken_at), "active_count": row.int(3)? });
                (row.int(2)?, taken_at, info)
            }
            Some(_) => return Err(ApiError::bad_request("invalid_field", "snapshot must be live or daily")),
        };
        let rows = self
            .store
            .query(
                "SELECT seq, exclusion_id, email, phone, duration, effective_from, expires_at, source FROM exclusions
                 WHERE environment = ?1 AND seq > ?2 AND seq <= ?5 AND (expires_at IS NULL OR expires_at > ?3) ORDER BY seq LIMIT ?4",
                vec![ctx.caller.environment.as_str().into(), after.into(), active_at.into(), (limit + 1).into(), through_seq.into()],
            )
            .await?;
        let has_more = rows.len() as i64 > limit;
        let mut items = Vec::new();
        let mut last = after;
        for row in rows.iter().take(limit as usize) {
            last = row.int(0)?;
            let expires_at = row.opt_int(6)?;
            items.push(json!({
                "exclusion_id": row.text(1)?,
                "user_email": row.opt_text(2)?,
                "user_phone": row.opt_text(3)?,
                "duration": row.text(4)?,
                "effective_from": time::format(row.int(5)?),
                "expires_at": time::json_opt(expires_at),
                "is_permanent": expires_at.is_none(),
                "source": row.text(7)?,
            }));
        }
        Ok(Reply::ok(json!({
            "exclusions": items,
            "next_cursor": if has_more { Json::String(encode_cursor(last)) } else { Json::Null },
            "has_more": has_more,
            "generated_at": time::format(ctx.now),
            "daily_snapshot": daily,
        })))
    }
}

/// Takes the next exclusion sequence number; the insert that follows in the
/// same batch reads it back.
fn next_exclusion_seq() -> Stmt {
    Stmt::expect_one("UPDATE counters SET value = value + 1 WHERE name = 'exclusion_seq'", vec![])
}

fn encode_cursor(after_seq: i64) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json!({ "v": 1, "after": after_seq }).to_string())
}

fn decode_cursor(cursor: &str) -> Option<i64> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let value: Json = serde_json::from_slice(&bytes).ok()?;
    (value.get("v")?.as_i64()? == 1).then_some(())?;
    value.get("after")?.as_i64().filter(|n| *n >= 0)
}
