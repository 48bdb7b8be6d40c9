//! Sanctions screening at signup, its status, and the compliance team's review.

use rules::{
    CaseReviewDecision, CaseReviewFacts, CaseStatus, EventKind, Operation, ReviewAction, SanctionsStatus, ScreeningDecision, ScreeningFacts,
};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use super::stored_json;
use crate::auth::Environment;
use crate::decisions::{error_with_decision, with_decision, Scope};
use crate::error::{ApiError, ApiResult};
use crate::input::{is_upper_code, normalize_email, Fields};
use crate::ports::{Stmt, Value};
use crate::vendors::yente::Person;
use crate::{time, Ctx, Gateway, Reply};

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
        let date_of_birth = f.code("date_of_birth");
        let nationality = f.code("nationality").to_ascii_uppercase();
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
        until_committed!({
            if let Some(reply) = self.existing_screening(ctx, &who.user_id, &fingerprint).await? {
                return Ok(Some(reply));
            }
            self.ensure_screening_available(ctx.caller.environment).await?;
            let name = format!("{} {}", who.first_name, who.last_name);
            let person = Person { name: &name, date_of_birth: &who.date_of_birth, nationality: &who.nationality };
            let candidates = self.screening_candidates(ctx.caller.environment, &person, crate::lists::Entries::All).await?;
            let facts = ScreeningFacts {
                now: ctx.now,
                environment: ctx.caller.environment,
                first_name: who.first_name.clone(),
                last_name: who.last_name.clone(),
                date_of_birth: who.date_of_birth.clone(),
                nationality: who.nationality.clone(),
                current: None,
                candidates,
                hit_threshold: self.config.hit_threshold(ctx.caller.environment),
            };
            let (decision, log) = self.decide(&Scope::of(ctx, &who.user_id), Operation::Screening, &facts, |r, f| r.decide_screening(f))?;
            let screen_id = self.new_id("scr");
            let tenant = ctx.caller.tenant_id.as_str();
            let mut statements = vec![log.statement()];
            let mut response = json!({
                "screen_id": screen_id,
                "user_id": who.user_id,
                "status": decision.status.as_str(),
                "checked_at": time::format(ctx.now),
                "transactions_held": decision.transactions_held,
            });
            let mut case_id = None;
            let mut case_statements = Vec::new();
            if decision.opens_case {
                let (id, stmts) = self.open_case(ctx.caller.environment, tenant, &who.user_id, &decision, &screen_id, ctx.now);
                response["match_count"] = json!(decision.match_count);
                response["highest_match_score"] = json!(decision.highest_score);
                response["case_id"] = json!(id);
                response["signup_allowed"] = json!(true);
                response["estimated_review_time"] = json!(decision.estimated_review_time);
                case_id = Some(id);
                case_statements = stmts;
            }
            statements.push(Stmt::new(
                "INSERT INTO users (tenant_id, external_user_id, email, first_name, last_name, sanctions_status, last_screened_at, screen_id,
                                    screen_fingerprint, screen_response, case_id, verified_tier, verified_at, cumulative_withdrawn_cents, version,
                                    created_at, updated_at, date_of_birth, nationality)
                 VALUES (?1, ?2, ?3, ?10, ?11, ?4, ?9, ?5, ?6, ?7, ?8, ?12, NULL, 0, 0, ?9, ?9, ?13, ?14)",
                vec![
                    tenant.into(),
                    who.user_id.as_str().into(),
                    who.email.as_str().into(),
                    decision.status.as_str().into(),
                    screen_id.as_str().into(),
                    fingerprint.as_str().into(),
                    response.to_string().into(),
                    Value::from(case_id),
                    ctx.now.into(),
                    who.first_name.as_str().into(),
                    who.last_name.as_str().into(),
                    rules::KycTier::Tier0.as_str().into(),
                    who.date_of_birth.as_str().into(),
                    who.nationality.as_str().into(),
                ],
            ));
            statements.extend(case_statements);
            if self.commit(statements).await? {
                return Ok(Some(with_decision(Reply::created(response), &log)));
            }
            Ok(None)
        })
    }

    /// Production screens against the environment's lists (or a configured
    /// vendor); with neither, it answers 503 `vendor_unavailable`.
    pub(crate) async fn ensure_screening_available(&self, environment: Environment) -> ApiResult<()> {
        let vendor = self.config.production_vendors_configured || self.config.production_screening_vendor.is_some();
        if environment == Environment::Production && !vendor && !self.has_lists(environment).await? {
            return Err(crate::vendors::unavailable("screening", "no sanctions list or screening vendor is configured".into()));
        }
        Ok(())
    }

    /// A case for the compliance team, with the matched entities (never shown to
    /// operators), and the events of the decision, which carry none of them.
    pub(crate) fn open_case(
        &self,
        environment: Environment,
        tenant: &str,
        user_id: &str,
        decision: &ScreeningDecision,
        screen_id: &str,
        now: i64,
    ) -> (String, Vec<Stmt>) {
        let case_id = self.new_id("case");
        let matches: Vec<Json> = decision
            .matches
            .iter()
            .map(|m| {
                json!({
                    "list": m.source,
                    "entity_id": m.entity_id,
                    "entity_name": m.name,
                    "score": m.score,
                    "score_breakdown": { "name": m.name_score, "date_of_birth": m.date_of_birth_adjustment, "nationality": m.nationality_adjustment },
                })
            })
            .collect();
        let mut statements = vec![Stmt::new(
            "INSERT INTO sanctions_cases (case_id, tenant_id, environment, external_user_id, status, match_count, highest_score, matches, created_at, review_due_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            vec![
                case_id.as_str().into(),
                tenant.into(),
                environment.as_str().into(),
                user_id.into(),
                CaseStatus::Open.as_str().into(),
                i64::from(decision.match_count).into(),
                decision.highest_score.into(),
                Json::Array(matches).to_string().into(),
                now.into(),
                Value::from(decision.review_due_at),
            ],
        )];
        for event in &decision.events {
            statements.push(self.event(
                environment,
                Some(tenant),
                *event,
                now,
                json!({ "screen_id": screen_id, "case_id": case_id, "user_id": user_id, "status": decision.status.as_str(), "transactions_held": decision.transactions_held }),
            ));
        }
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
        let status = SanctionsStatus::parse(&row.text(0)?).ok_or_else(ApiError::internal)?;
        let (view, log) = self.decide(&Scope::of(ctx, user_id), Operation::Sanctions, &status, |r, s| r.describe_sanctions(*s))?;
        let reply = with_decision(
            Reply::ok(json!({
                "user_id": user_id,
                "status": status.as_str(),
                "transactions_held": view.transactions_held,
                "checked_at": time::format(row.int(1)?),
                "updated_at": time::format(row.int(2)?),
                "last_screened_at": time::format(row.int(3)?),
            })),
            &log,
        );
        self.defer(log);
        Ok(reply)
    }

    /// Cases of the environment by status, oldest first, with their age and
    /// review due time; `overdue=true` keeps those past the 48-hour target.
    pub(crate) async fn list_cases(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let status_text = ctx.query.get("status").unwrap_or(CaseStatus::Open.as_str());
        let status =
            CaseStatus::parse(status_text).ok_or_else(|| ApiError::bad_request("invalid_field", "status must be open, dismissed or confirmed"))?;
        let (overdue_only, target, now) = self.review_filter(ctx)?;
        let rows = self
            .store
            .query(
                "SELECT c.case_id, c.tenant_id, c.external_user_id, c.status, c.match_count, c.highest_score, c.created_at, c.review_due_at,
                        t.clock_offset_seconds
                 FROM sanctions_cases c JOIN tenants t ON t.tenant_id = c.tenant_id
                 WHERE c.environment = ?1 AND c.status = ?2 AND (?4 = 0 OR COALESCE(c.review_due_at, c.created_at + ?3) <= ?5 + t.clock_offset_seconds)
                 ORDER BY c.created_at, c.case_id LIMIT 500",
                vec![
                    ctx.caller.environment.as_str().into(),
                    status.as_str().into(),
                    target.into(),
                    overdue_only.into(),
                    now.into(),
                ],
            )
            .await?;
        let mut cases = Vec::new();
        for row in &rows {
            let created_at = row.int(6)?;
            let due = row.opt_int(7)?.unwrap_or(created_at.saturating_add(target));
            let now = now.saturating_add(row.int(8)?);
            cases.push(json!({
                "case_id": row.text(0)?,
                "tenant_id": row.text(1)?,
                "user_id": row.text(2)?,
                "status": row.text(3)?,
                "match_count": row.int(4)?,
                "highest_match_score": row.real(5)?,
                "created_at": time::format(created_at),
                "age_seconds": now.saturating_sub(created_at),
                "review_due_at": time::format(due),
                "overdue": status == CaseStatus::Open && due <= now,
            }));
        }
        Ok(Reply::ok(json!({ "cases": cases })))
    }

    /// Counts the compliance team watches: open work and what is past its review target.
    pub(crate) async fn review_metrics(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let target = self.rules.horizons().review_target_seconds;
        let now = self.clock.now();
        let environment = ctx.caller.environment.as_str();
        let open_cases = self
            .store
            .scalar(
                "SELECT COUNT(*) FROM sanctions_cases WHERE environment = ?1 AND status = ?2",
                vec![environment.into(), CaseStatus::Open.as_str().into()],
            )
            .await?;
        let overdue_cases = self
            .store
            .scalar(
                "SELECT COUNT(*) FROM sanctions_cases c JOIN tenants t ON t.tenant_id = c.tenant_id
                 WHERE c.environment = ?1 AND c.status = ?2 AND COALESCE(c.review_due_at, c.created_at + ?3) <= ?4 + t.clock_offset_seconds",
                vec![environment.into(), CaseStatus::Open.as_str().into(), target.into(), now.into()],
            )
            .await?;
        let pending = rules::KycStatus::PendingReview.as_str();
        let pending_checks = self
            .store
            .scalar("SELECT COUNT(*) FROM kyc_checks WHERE environment = ?1 AND status = ?2", vec![environment.into(), pending.into()])
            .await?;
        let overdue_checks = self
            .store
            .scalar(
                "SELECT COUNT(*) FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id
                 WHERE k.environment = ?1 AND k.status = ?2 AND k.updated_at + ?3 <= ?4 + t.clock_offset_seconds",
                vec![environment.into(), pending.into(), target.into(), now.into()],
            )
            .await?;
        Ok(Reply::ok(json!({
            "environment": environment,
            "measured_at": time::format(now),
            "review_target_seconds": target,
            "sanctions_cases_open": open_cases,
            "sanctions_cases_overdue": overdue_cases,
            "kyc_checks_pending_review": pending_checks,
            "kyc_checks_overdue": overdue_checks,
        })))
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
        let decision_text = f.code("decision");
        let reviewer = f.text("reviewer");
        let action = ReviewAction::parse(&decision_text);
        if !decision_text.is_empty() && action.is_none() {
            f.reject("invalid_field", "decision must be dismiss or confirm");
        }
        f.finish()?;
        let action = action.ok_or_else(ApiError::internal)?;
        // A lost race (the case decided, or the user written, since they were
        // read) is decided again from fresh reads.
        until_committed!({
            let rows = self
                .store
                .query(
                    "SELECT tenant_id, external_user_id, status FROM sanctions_cases WHERE case_id = ?1 AND environment = ?2",
                    vec![case_id.into(), ctx.caller.environment.as_str().into()],
                )
                .await?;
            let row = rows.first().ok_or_else(|| ApiError::not_found("case_not_found", "no such sanctions case"))?;
            let (tenant_id, user_id) = (row.text(0)?, row.text(1)?);
            let user = self.find_user(&tenant_id, &user_id).await?.ok_or_else(ApiError::internal)?;
            let case_status = CaseStatus::parse(&row.text(2)?).ok_or_else(ApiError::internal)?;
            let scope = Scope { environment: ctx.caller.environment, tenant_id: tenant_id.clone(), user_id: user_id.clone() };
            let facts = CaseReviewFacts { case_status, action };
            let (decision, log) = self.decide(&scope, Operation::CaseReview, &facts, |r, f| r.decide_case_review(f))?;
            let reply = |status: SanctionsStatus| {
                with_decision(
                    Reply::ok(
                        json!({ "case_id": case_id, "user_id": user_id, "decision": action.as_str(), "status": status.as_str(), "reviewer": reviewer }),
                    ),
                    &log,
                )
            };
            let outcome = match decision {
                CaseReviewDecision::Repeat(outcome) => {
                    self.defer(log.clone());
                    return Ok(Some(reply(outcome.user_status)));
                }
                CaseReviewDecision::AlreadyDecided(status) => {
                    let error = ApiError::conflict("case_already_decided", format!("the case was already {}", status.as_str()));
                    let error = error_with_decision(error, &log);
                    self.defer(log);
                    return Err(error);
                }
                CaseReviewDecision::Apply(outcome) => outcome,
            };
            let environment = ctx.caller.environment;
            let mut statements = vec![
                log.statement(),
                Stmt::expect_one(
                    "UPDATE sanctions_cases SET status = ?2, reviewer = ?3, decided_at = ?4 WHERE case_id = ?1 AND status = ?5",
                    vec![case_id.into(), outcome.case_status.as_str().into(), reviewer.as_str().into(), ctx.now.into(), CaseStatus::Open.as_str().into()],
                ),
                Stmt::expect_one(
                    "UPDATE users SET sanctions_status = ?3, version = version + 1, updated_at = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?5",
                    vec![tenant_id.as_str().into(), user_id.as_str().into(), outcome.user_status.as_str().into(), ctx.now.into(), user.version.into()],
                ),
            ];
            for event in &outcome.events {
                let data = match event {
                    EventKind::SanctionsAccountFrozen => json!({ "case_id": case_id, "user_id": user_id, "funds_frozen": true }),
                    EventKind::SanctionsConfirmed => json!({
                        "case_id": case_id, "user_id": user_id, "reviewer": reviewer, "transactions_held": outcome.transactions_held, "account_terminated": true,
                    }),
                    _ => json!({ "case_id": case_id, "user_id": user_id, "reviewer": reviewer, "transactions_held": outcome.transactions_held }),
                };
                statements.push(self.event(environment, Some(&tenant_id), *event, ctx.now, data));
            }
            Ok(self.commit(statements).await?.then(|| reply(outcome.user_status)))
        })
    }
}
