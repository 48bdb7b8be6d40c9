//! Sanctions screening at signup, its status, and the compliance team's review.

use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use super::{busy, stored_json, transactions_held};
use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::{is_upper_code, normalize_email, Fields};
use crate::ports::{Stmt, Value};
use crate::{time, Ctx, Gateway, Reply, WRITE_ATTEMPTS};

/// Generic wording only: operators must not learn why a user is under review.
const ESTIMATED_REVIEW_TIME: &str = "24-48 hours";
const SANCTIONS_LISTS: [&str; 4] = ["US OFAC SDN", "EU Consolidated Financial Sanctions", "UN Security Council Consolidated", "UK OFSI Consolidated"];

struct Identity {
    user_id: String,
    first_name: String,
    last_name: String,
    date_of_birth: String,
    nationality: String,
    email: String,
}

impl Identity {
    fn parse(body: &[u8], today: i64) -> ApiResult<Identity> {
        let mut f = Fields::from_body(body)?;
        let user_id = f.text("user_id");
        let first_name = f.text("first_name");
        let last_name = f.text("last_name");
        let date_of_birth = f.text("date_of_birth");
        let nationality = f.text("nationality").to_ascii_uppercase();
        let raw_email = f.text("email");
        if !date_of_birth.is_empty() && time::parse_date(&date_of_birth).is_none_or(|d| d > today) {
            f.reject("invalid_field", "date_of_birth must be a past date as YYYY-MM-DD");
        }
        if !nationality.is_empty() && !is_upper_code(&nationality, 2) {
            f.reject("invalid_field", "nationality must be a two-letter country code");
        }
        let email = normalize_email(&raw_email).unwrap_or_default();
        if !raw_email.is_empty() && email.is_empty() {
            f.reject("invalid_field", "email must be an e-mail address");
        }
        f.finish()?;
        Ok(Identity { user_id, first_name, last_name, date_of_birth, nationality, email })
    }

    /// Identifies the logical request, so a retry is told apart from a different person.
    fn fingerprint(&self) -> String {
        let canonical = json!([self.first_name, self.last_name, self.date_of_birth, self.nationality, self.email]);
        hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
    }
}

impl Gateway {
    pub(crate) async fn screen(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let who = Identity::parse(ctx.body, ctx.now)?;
        let fingerprint = who.fingerprint();
        for _ in 0..WRITE_ATTEMPTS {
            if let Some(reply) = self.existing_screening(ctx, &who.user_id, &fingerprint).await? {
                return Ok(reply);
            }
            if ctx.caller.environment == Environment::Production && !self.config.production_vendors_configured {
                return Err(ApiError::new(503, "vendor_unavailable", "the screening vendor is unavailable; retry with backoff"));
            }
            let outcome = self.rules.stub_screen(&who.first_name, &who.last_name)?;
            let screen_id = self.new_id("scr");
            let tenant = ctx.caller.tenant_id.as_str();
            let mut statements = Vec::new();
            let (status, case_id, response) = if outcome.hit {
                let (case_id, case_statements) =
                    self.open_case(ctx.caller.environment, tenant, &who.user_id, &who.first_name, &who.last_name, &outcome, &screen_id, ctx.now);
                statements.extend(case_statements);
                let response = json!({
                    "screen_id": screen_id,
                    "user_id": who.user_id,
                    "status": "hit_review_pending",
                    "checked_at": time::format(ctx.now),
                    "transactions_held": true,
                    "match_count": outcome.match_count,
                    "highest_match_score": outcome.highest_score,
                    "case_id": case_id,
                    "signup_allowed": true,
                    "estimated_review_time": ESTIMATED_REVIEW_TIME,
                });
                ("hit_review_pending", Some(case_id), response)
            } else {
                let response = json!({
                    "screen_id": screen_id,
                    "user_id": who.user_id,
                    "status": "clear",
                    "checked_at": time::format(ctx.now),
                    "transactions_held": false,
                });
                ("clear", None, response)
            };
            statements.insert(
                0,
                Stmt::new(
                    "INSERT INTO users (tenant_id, external_user_id, email, first_name, last_name, sanctions_status, last_screened_at, screen_id,
                                        screen_fingerprint, screen_response, case_id, verified_tier, verified_at, cumulative_withdrawn_cents, version,
                                        created_at, updated_at)
                     VALUES (?1, ?2, ?3, ?10, ?11, ?4, ?9, ?5, ?6, ?7, ?8, 'tier_0', NULL, 0, 0, ?9, ?9)",
                    vec![
                        tenant.into(),
                        who.user_id.as_str().into(),
                        who.email.as_str().into(),
                        status.into(),
                        screen_id.as_str().into(),
                        fingerprint.as_str().into(),
                        response.to_string().into(),
                        Value::from(case_id),
                        ctx.now.into(),
                        who.first_name.as_str().into(),
                        who.last_name.as_str().into(),
                    ],
                ),
            );
            if self.commit(statements).await? {
                return Ok(Reply::created(response));
            }
        }
        Err(busy())
    }

    /// A case for the compliance team, with the matched entities (never shown to
    /// operators), and the `sanctions.hit` event, which carries none of them.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn open_case(
        &self,
        environment: Environment,
        tenant: &str,
        user_id: &str,
        first_name: &str,
        last_name: &str,
        outcome: &rules::ScreeningOutcome,
        screen_id: &str,
        now: i64,
    ) -> (String, Vec<Stmt>) {
        let case_id = self.new_id("case");
        let matches: Vec<Json> = (0..outcome.match_count)
            .map(|i| {
                let list = SANCTIONS_LISTS[i as usize % SANCTIONS_LISTS.len()];
                json!({
                    "list": list,
                    "entity_id": format!("STUB-{}-{}", i + 1, &screen_id[screen_id.len().saturating_sub(6)..]),
                    "entity_name": format!("{} {}", first_name.to_uppercase(), last_name.to_uppercase()),
                    "score": if i == 0 { outcome.highest_score } else { outcome.highest_score - 0.05 },
                })
            })
            .collect();
        let statements = vec![
            Stmt::new(
                "INSERT INTO sanctions_cases (case_id, tenant_id, environment, external_user_id, status, match_count, highest_score, matches, created_at)
                 VALUES (?1, ?2, ?3, ?4, 'open', ?5, ?6, ?7, ?8)",
                vec![
                    case_id.as_str().into(),
                    tenant.into(),
                    environment.as_str().into(),
                    user_id.into(),
                    i64::from(outcome.match_count).into(),
                    outcome.highest_score.into(),
                    Json::Array(matches).to_string().into(),
                    now.into(),
                ],
            ),
            self.event(
                environment,
                Some(tenant),
                "sanctions.hit",
                now,
                json!({ "screen_id": screen_id, "case_id": case_id, "user_id": user_id, "status": "hit_review_pending", "transactions_held": true }),
            ),
        ];
        (case_id, statements)
    }

    /// A repeat of the same signup gets the original result; the same user id
    /// with a different identity gets 409 `already_screened`.
    async fn existing_screening(&self, ctx: &Ctx<'_>, user_id: &str, fingerprint: &str) -> ApiResult<Option<Reply>> {
        let rows = self
            .store
            .query(
                "SELECT screen_fingerprint, screen_response FROM users WHERE tenant_id = ?1 AND external_user_id = ?2",
                vec![ctx.caller.tenant_id.as_str().into(), user_id.into()],
            )
            .await?;
        let Some(row) = rows.first() else { return Ok(None) };
        if row.text(0)? != fingerprint {
            return Err(ApiError::conflict(
                "already_screened",
                "this user_id was already screened with different details; use GET /v1/sanctions/status",
            ));
        }
        Ok(Some(Reply::ok(stored_json(&row.text(1)?)?)))
    }

    pub(crate) async fn sanctions_status(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let user_id = ctx.query.required("user_id")?;
        let rows = self
            .store
            .query(
                "SELECT sanctions_status, created_at, updated_at, last_screened_at FROM users WHERE tenant_id = ?1 AND external_user_id = ?2",
                vec![ctx.caller.tenant_id.as_str().into(), user_id.into()],
            )
            .await?;
        let row = rows.first().ok_or_else(ApiError::user_not_found)?;
        let status = row.text(0)?;
        Ok(Reply::ok(json!({
            "user_id": user_id,
            "status": status,
            "transactions_held": transactions_held(&status),
            "checked_at": time::format(row.int(1)?),
            "updated_at": time::format(row.int(2)?),
            "last_screened_at": time::format(row.int(3)?),
        })))
    }

    pub(crate) async fn list_cases(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let status = ctx.query.get("status").unwrap_or("open");
        let rows = self
            .store
            .query(
                "SELECT case_id, tenant_id, external_user_id, status, match_count, highest_score, created_at FROM sanctions_cases
                 WHERE environment = ?1 AND status = ?2 ORDER BY created_at, case_id LIMIT 500",
                vec![ctx.caller.environment.as_str().into(), status.into()],
            )
            .await?;
        let mut cases = Vec::new();
        for row in &rows {
            cases.push(json!({
                "case_id": row.text(0)?,
                "tenant_id": row.text(1)?,
                "user_id": row.text(2)?,
                "status": row.text(3)?,
                "match_count": row.int(4)?,
                "highest_match_score": row.real(5)?,
                "created_at": time::format(row.int(6)?),
                "review_due_at": time::format(row.int(6)? + 48 * 3600),
            }));
        }
        Ok(Reply::ok(json!({ "cases": cases })))
    }

    /// The full case, matched entities included: for the compliance team only.
    pub(crate) async fn get_case(&self, ctx: &Ctx<'_>, case_id: &str) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT case_id, tenant_id, external_user_id, status, match_count, highest_score, matches, reviewer, decided_at, created_at
                 FROM sanctions_cases WHERE case_id = ?1 AND environment = ?2",
                vec![case_id.into(), ctx.caller.environment.as_str().into()],
            )
            .await?;
        let row = rows.first().ok_or_else(|| ApiError::not_found("case_not_found", "no such sanctions case"))?;
        Ok(Reply::ok(json!({
            "case_id": row.text(0)?,
            "tenant_id": row.text(1)?,
            "user_id": row.text(2)?,
            "status": row.text(3)?,
            "match_count": row.int(4)?,
            "highest_match_score": row.real(5)?,
            "matches": stored_json(&row.text(6)?)?,
            "reviewer": row.opt_text(7)?,
            "decided_at": time::json_opt(row.opt_int(8)?),
            "created_at": time::format(row.int(9)?),
        })))
    }

    /// Dismiss (false positive: holds lifted) or confirm (account terminated, funds frozen).
    pub(crate) async fn review_case(&self, ctx: &Ctx<'_>, case_id: &str) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let decision = f.text("decision");
        let reviewer = f.text("reviewer");
        if !decision.is_empty() && decision != "dismiss" && decision != "confirm" {
            f.reject("invalid_field", "decision must be dismiss or confirm");
        }
        f.finish()?;
        let (case_status, user_status) = if decision == "dismiss" { ("dismissed", "cleared") } else { ("confirmed", "confirmed") };
        let rows = self
            .store
            .query(
                "SELECT tenant_id, external_user_id, status FROM sanctions_cases WHERE case_id = ?1 AND environment = ?2",
                vec![case_id.into(), ctx.caller.environment.as_str().into()],
            )
            .await?;
        let row = rows.first().ok_or_else(|| ApiError::not_found("case_not_found", "no such sanctions case"))?;
        let (tenant_id, user_id, current) = (row.text(0)?, row.text(1)?, row.text(2)?);
        let reply = |decided_by: &str| {
            Reply::ok(json!({ "case_id": case_id, "user_id": user_id, "decision": decision, "status": user_status, "reviewer": decided_by }))
        };
        if current != "open" {
            return if current == case_status {
                Ok(reply(&reviewer))
            } else {
                Err(ApiError::conflict("case_already_decided", format!("the case was already {current}")))
            };
        }
        let environment = ctx.caller.environment;
        let mut statements = vec![
            Stmt::expect_one(
                "UPDATE sanctions_cases SET status = ?2, reviewer = ?3, decided_at = ?4 WHERE case_id = ?1 AND status = 'open'",
                vec![case_id.into(), case_status.into(), reviewer.as_str().into(), ctx.now.into()],
            ),
            Stmt::expect_one(
                "UPDATE users SET sanctions_status = ?3, version = version + 1, updated_at = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2",
                vec![tenant_id.as_str().into(), user_id.as_str().into(), user_status.into(), ctx.now.into()],
            ),
        ];
        if decision == "dismiss" {
            statements.push(self.event(
                environment,
                Some(&tenant_id),
                "sanctions.cleared",
                ctx.now,
                json!({ "case_id": case_id, "user_id": user_id, "reviewer": reviewer, "transactions_held": false }),
            ));
        } else {
            statements.push(self.event(
                environment,
                Some(&tenant_id),
                "sanctions.confirmed",
                ctx.now,
                json!({ "case_id": case_id, "user_id": user_id, "reviewer": reviewer, "transactions_held": true, "account_terminated": true }),
            ));
            statements.push(self.event(
                environment,
                Some(&tenant_id),
                "sanctions.account_frozen",
                ctx.now,
                json!({ "case_id": case_id, "user_id": user_id, "funds_frozen": true }),
            ));
        }
        if self.commit(statements).await? {
            Ok(reply(&reviewer))
        } else {
            Err(ApiError::conflict("case_already_decided", "the case was decided concurrently"))
        }
    }
}
