//! Time-driven work, idempotent if run twice: pending limit increases go
//! live, timed exclusions expire, abandoned KYC checks expire, the daily
//! exclusion snapshot is taken at 03:00 UTC, and active users are re-screened
//! every quarter. Sandbox tenants' due times follow their test clocks.

use rules::{DueExclusion, DueFacts, DueLimit, DueUser, EventKind, ExclusionTerm, LimitStatus, Operation, SanctionsStatus, ScreeningFacts};
use serde_json::json;

use std::collections::BTreeMap;

use crate::auth::Environment;
use crate::decisions::Scope;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::lists::Entries;
use crate::ports::{Stmt, StoreError};
use crate::users::store::claim as claim_user_row;
use crate::vendors::yente::Person;
use crate::{time, Ctx, Gateway, Reply};

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ScheduledReport {
    pub limits_activated: usize,
    pub exclusions_expired: usize,
    pub kyc_checks_expired: usize,
    pub snapshots_taken: usize,
    pub users_rescreened: usize,
    /// staged list chunks loaded, and versions switched in
    pub list_chunks_loaded: usize,
    pub lists_activated: usize,
    /// more work is due at once (staged chunks wait)
    pub more_due: bool,
}

/// The latest daily snapshot time (`second_of_day` UTC) at or before `now`.
pub fn snapshot_boundary(now: i64, second_of_day: i64) -> i64 {
    let boundary = now.div_euclid(time::SECONDS_PER_DAY) * time::SECONDS_PER_DAY + second_of_day;
    if now < boundary {
        boundary - time::SECONDS_PER_DAY
    } else {
        boundary
    }
}

/// The due work of one environment and tenant: one rules call, one batch.
struct DueGroup {
    facts: DueFacts,
    limits: Vec<LimitCandidate>,
    exclusions: Vec<ExclusionCandidate>,
    checks: Vec<(crate::kyc::Check, i64)>,
    users: Vec<UserCandidate>,
}

impl Default for DueGroup {
    fn default() -> Self {
        let facts = DueFacts { limits: Vec::new(), exclusions: Vec::new(), checks: Vec::new(), users: Vec::new() };
        DueGroup { facts, limits: Vec::new(), exclusions: Vec::new(), checks: Vec::new(), users: Vec::new() }
    }
}

/// A pending limit, for the due work, with its user's version.
struct LimitCandidate {
    limit_id: String,
    tenant_id: String,
    user_id: String,
    user_version: i64,
    environment: Environment,
    data: serde_json::Value,
    effective_from: i64,
}

/// A timed exclusion not yet announced as expired, with the tenant that registered it.
struct ExclusionCandidate {
    exclusion_id: String,
    tenant_id: String,
    environment: Environment,
    data: serde_json::Value,
    expires_at: i64,
}

/// A user whose screening may be a quarter old, with their tenant's now.
#[derive(Clone)]
struct UserCandidate {
    environment: Environment,
    tenant_id: String,
    user_id: String,
    now: i64,
}

impl Gateway {
    /// Runs everything that has become due. Hosts call it on a timer.
    pub async fn run_scheduled(&self) -> ApiResult<ScheduledReport> {
        let now = self.clock.now();
        let (mut report, rescreens) = self.run_due_work(now).await?;
        let staged = self.load_staged_lists(self.config.work.list_chunks_per_round).await?;
        (report.list_chunks_loaded, report.lists_activated, report.more_due) = (staged.chunks_loaded, staged.lists_activated, staged.more);
        for user in &rescreens {
            self.rescreen_user(&user.tenant_id, &user.user_id, user.now, Entries::All).await?;
            report.users_rescreened += 1;
        }
        report.users_rescreened += self.rescreen_after_list_changes(self.config.work.scheduled_batch).await?;
        report.snapshots_taken = self.take_daily_snapshots(now).await?;
        self.prune_decisions(now).await?;
        self.prune_idempotency_keys(now).await?;
        // shared request counters of windows that have ended
        self.store.batch(vec![crate::rate_limit::store::prune(now.saturating_sub(120))]).await?;
        if report != ScheduledReport::default() {
            self.wake_delivery();
        }
        Ok(report)
    }

    /// Reads the candidates and, for each environment and tenant they belong
    /// to, asks the rules once what is due and writes the activations and
    /// expiries in one batch with the decision, logged under that tenant.
    /// Every user whose state a batch writes is claimed in it; a batch that
    /// loses a race is recomputed from fresh reads. Returns the users to
    /// re-screen, each of which is a screening decision of its own.
    async fn run_due_work(&self, now: i64) -> ApiResult<(ScheduledReport, Vec<UserCandidate>)> {
        let horizons = self.rules.horizons();
        let mut report = ScheduledReport::default();
        let mut rescreens = Vec::new();
        until_committed!({
            let (limits, limit_facts) = self.limit_candidates(now).await?;
            let (exclusions, exclusion_facts) = self.exclusion_candidates(now).await?;
            let checks = crate::kyc::abandoned_check_candidates(self, now, horizons.kyc_abandon_seconds, self.config.work.scheduled_batch).await?;
            let (users, user_facts) = self.rescreen_candidates(now, horizons.rescreen_after_seconds).await?;
            let mut groups: BTreeMap<(Environment, String), DueGroup> = BTreeMap::new();
            for (limit, facts) in limits.into_iter().zip(limit_facts) {
                let g = groups.entry((limit.environment, limit.tenant_id.clone())).or_default();
                g.facts.limits.push(facts);
                g.limits.push(limit);
            }
            for (exclusion, facts) in exclusions.into_iter().zip(exclusion_facts) {
                let g = groups.entry((exclusion.environment, exclusion.tenant_id.clone())).or_default();
                g.facts.exclusions.push(facts);
                g.exclusions.push(exclusion);
            }
            for (check, facts, version) in checks {
                let g = groups.entry((check.environment, check.tenant_id.clone())).or_default();
                g.facts.checks.push(facts);
                g.checks.push((check, version));
            }
            for (user, facts) in users.into_iter().zip(user_facts) {
                let g = groups.entry((user.environment, user.tenant_id.clone())).or_default();
                g.facts.users.push(facts);
                g.users.push(user);
            }
            let mut lost = false;
            for ((environment, tenant_id), due) in groups {
                let scope = Scope { environment, tenant_id, user_id: String::new() };
                let (work, log) = self.decide(&scope, Operation::DueNow, &due.facts, |r, f| r.due_now(f))?;
                let mut statements = vec![log.statement()];
                let mut claims: BTreeMap<&str, i64> = BTreeMap::new();
                for limit in work.activate_limits.iter().filter_map(|i| due.limits.get(*i as usize)) {
                    claims.insert(&limit.user_id, limit.user_version);
                    statements.push(crate::limits::store::activate(&limit.limit_id));
                    statements.push(self.event(
                        environment,
                        Some(&limit.tenant_id),
                        EventKind::LimitActivated,
                        limit.effective_from,
                        limit.data.clone(),
                    ));
                }
                for expiry in &work.expire_exclusions {
                    let Some(e) = due.exclusions.get(expiry.index as usize) else { continue };
                    statements.push(Stmt::expect_one(
                        "UPDATE exclusions SET expiry_announced = 1 WHERE exclusion_id = ?1 AND expiry_announced = 0",
                        vec![e.exclusion_id.as_str().into()],
                    ));
                    if expiry.announce {
                        statements.push(self.event(environment, None, EventKind::ExclusionExpired, e.expires_at, e.data.clone()));
                    }
                }
                for expiry in &work.expire_checks {
                    let Some((check, version)) = due.checks.get(expiry.index as usize) else { continue };
                    let Some(facts) = due.facts.checks.get(expiry.index as usize) else { continue };
                    claims.insert(&check.external_user_id, *version);
                    statements.extend(crate::kyc::kyc_transition(self, check, facts.verified, None, &expiry.decision, "abandoned", facts.now));
                }
                let scope_tenant = &scope.tenant_id;
                statements.extend(claims.iter().map(|(user, version)| claim_user_row(scope_tenant, user, *version, now)));
                if self.commit(statements).await? {
                    report.limits_activated += work.activate_limits.len();
                    report.exclusions_expired += work.expire_exclusions.len();
                    report.kyc_checks_expired += work.expire_checks.len();
                    rescreens.extend(work.rescreen_users.iter().filter_map(|i| due.users.get(*i as usize)).cloned());
                } else {
                    lost = true;
                }
            }
            Ok((!lost).then_some(()))
        })?;
        Ok((report, rescreens))
    }

    async fn limit_candidates(&self, now: i64) -> ApiResult<(Vec<LimitCandidate>, Vec<DueLimit>)> {
        let rows = self
            .store
            .query(
                "SELECT l.limit_id, l.tenant_id, t.environment, l.external_user_id, l.limit_type, l.amount_cents, l.currency, l.effective_from,
                        t.clock_offset_seconds, l.status, u.version
                 FROM deposit_limits l JOIN tenants t ON t.tenant_id = l.tenant_id
                      JOIN users u ON u.tenant_id = l.tenant_id AND u.external_user_id = l.external_user_id
                 WHERE l.status = ?3 AND l.effective_from <= ?1 + t.clock_offset_seconds ORDER BY l.effective_from LIMIT ?2",
                vec![now.into(), self.config.work.scheduled_batch.into(), LimitStatus::Pending.as_str().into()],
            )
            .await?;
        let mut candidates = Vec::new();
        let mut facts = Vec::new();
        for row in &rows {
            let effective_from = row.int(7)?;
            facts.push(DueLimit {
                now: now.saturating_add(row.int(8)?),
                status: LimitStatus::parse(&row.text(9)?).ok_or_else(ApiError::internal)?,
                effective_from,
            });
            candidates.push(LimitCandidate {
                limit_id: row.text(0)?,
                tenant_id: row.text(1)?,
                user_id: row.text(3)?,
                user_version: row.int(10)?,
                environment: Environment::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
                data: json!({
                    "limit_id": row.text(0)?,
                    "user_id": row.text(3)?,
                    "limit_type": row.text(4)?,
                    "amount_cents": row.int(5)?,
                    "currency": row.text(6)?,
                    "effective_from": time::format(effective_from),
                }),
                effective_from,
            });
        }
        Ok((candidates, facts))
    }

    /// Timed exclusions that ran out and are not yet announced, each with
    /// every other exclusion of the same person in the environment.
    async fn exclusion_candidates(&self, now: i64) -> ApiResult<(Vec<ExclusionCandidate>, Vec<DueExclusion>)> {
        let rows = self
            .store
            .query(
                "SELECT e.exclusion_id, e.environment, e.email, e.phone, e.duration, e.expires_at, e.source, t.clock_offset_seconds, e.tenant_id
                 FROM exclusions e JOIN tenants t ON t.tenant_id = e.tenant_id
                 WHERE e.expiry_announced = 0 AND e.expires_at IS NOT NULL AND e.expires_at <= ?1 + t.clock_offset_seconds
                 ORDER BY e.expires_at LIMIT ?2",
                vec![now.into(), self.config.work.scheduled_batch.into()],
            )
            .await?;
        let mut candidates = Vec::new();
        let mut facts = Vec::new();
        for row in &rows {
            let exclusion_id = row.text(0)?;
            let environment = Environment::parse(&row.text(1)?).ok_or_else(ApiError::internal)?;
            let (email, phone, expires_at) = (row.opt_text(2)?, row.opt_text(3)?, row.int(5)?);
            let others = self
                .store
                .query(
                    "SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND exclusion_id <> ?2 AND email = ?3
                     UNION SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND exclusion_id <> ?2 AND phone = ?4",
                    vec![environment.as_str().into(), exclusion_id.as_str().into(), email.clone().into(), phone.clone().into()],
                )
                .await?;
            facts.push(DueExclusion {
                now: now.saturating_add(row.int(7)?),
                expires_at: Some(expires_at),
                others: others.iter().map(|r| Ok(ExclusionTerm { expires_at: r.opt_int(1)? })).collect::<ApiResult<Vec<_>>>()?,
            });
            candidates.push(ExclusionCandidate {
                data: json!({
                    "exclusion_id": exclusion_id,
                    "user_email": email,
                    "user_phone": phone,
                    "duration": row.text(4)?,
                    "expired_at": time::format(expires_at),
                    "source": row.opt_text(6)?.unwrap_or_else(|| crate::exclusions::store::Source::Operator.as_str().to_string()),
                }),
                exclusion_id,
                tenant_id: row.text(8)?,
                environment,
                expires_at,
            });
        }
        Ok((candidates, facts))
    }

    /// Clear or cleared users screened a quarter ago or more. Production
    /// users are re-screened once a screening vendor is configured.
    async fn rescreen_candidates(&self, now: i64, after_seconds: i64) -> ApiResult<(Vec<UserCandidate>, Vec<DueUser>)> {
        let rows = self
            .store
            .query(
                "SELECT u.tenant_id, u.external_user_id, t.clock_offset_seconds, u.sanctions_status, u.last_screened_at, t.environment
                 FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
                 WHERE (t.environment = ?4 OR ?5 = 1 OR EXISTS (SELECT 1 FROM sanctions_lists l WHERE l.environment = t.environment AND l.status = 'active'))
                   AND u.sanctions_status IN (?6, ?7) AND u.last_screened_at <= ?1 + t.clock_offset_seconds - ?2
                 ORDER BY u.last_screened_at LIMIT ?3",
                vec![
                    now.into(),
                    after_seconds.into(),
                    self.config.work.scheduled_batch.into(),
                    Environment::Sandbox.as_str().into(),
                    self.config.production_vendors_configured.into(),
                    SanctionsStatus::Clear.as_str().into(),
                    SanctionsStatus::Cleared.as_str().into(),
                ],
            )
            .await?;
        let mut candidates = Vec::new();
        let mut facts = Vec::new();
        for row in &rows {
            let tenant_now = now.saturating_add(row.int(2)?);
            facts.push(DueUser {
                now: tenant_now,
                status: SanctionsStatus::parse(&row.text(3)?).ok_or_else(ApiError::internal)?,
                last_screened_at: row.int(4)?,
            });
            candidates.push(UserCandidate {
                environment: Environment::parse(&row.text(5)?).ok_or_else(ApiError::internal)?,
                tenant_id: row.text(0)?,
                user_id: row.text(1)?,
                now: tenant_now,
            });
        }
        Ok((candidates, facts))
    }

    /// Records, once per environment and day, what the 03:00 UTC snapshot holds.
    async fn take_daily_snapshots(&self, now: i64) -> Result<usize, StoreError> {
        let boundary = snapshot_boundary(now, self.rules.horizons().snapshot_second_of_day);
        let date = time::format(boundary).get(..10).unwrap_or_default().to_string();
        let mut taken = 0;
        for environment in [Environment::Sandbox, Environment::Production] {
            let existing = self
                .store
                .scalar(
                    "SELECT COUNT(*) FROM exclusion_snapshots WHERE environment = ?1 AND snapshot_date = ?2",
                    vec![environment.as_str().into(), date.as_str().into()],
                )
                .await?;
            if existing > 0 {
                continue;
            }
            let insert = Stmt::expect_one(
                "INSERT INTO exclusion_snapshots (environment, snapshot_date, taken_at, through_seq, active_count)
                 SELECT CAST(?1 AS TEXT), CAST(?2 AS TEXT), CAST(?3 AS BIGINT),
                        COALESCE((SELECT MAX(seq) FROM exclusions), 0),
                        (SELECT COUNT(*) FROM exclusions WHERE environment = ?1 AND (expires_at IS NULL OR expires_at > ?3))
                 WHERE 1 = 1 ON CONFLICT (environment, snapshot_date) DO NOTHING",
                vec![environment.as_str().into(), date.as_str().into(), now.into()],
            );
            // Another host may take the same snapshot at the same moment: the
            // first insert wins, and only the winner counts it as taken.
            match self.store.batch(vec![insert]).await {
                Ok(()) => taken += 1,
                Err(StoreError::Conflict { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(taken)
    }

    /// Screens a user again; a new hit holds their transactions and opens a
    /// case exactly as at signup. Returns whether it was a hit.
    /// `entries` names the list entries to screen against: all of them, or
    /// those one import changed (the re-screen after a list update).
    pub(crate) async fn rescreen_user(&self, tenant_id: &str, user_id: &str, now: i64, entries: Entries<'_>) -> ApiResult<bool> {
        until_committed!({
            let rows = self
                .store
                .query(
                    "SELECT u.first_name, u.last_name, u.sanctions_status, u.screen_id, t.environment, u.date_of_birth, u.nationality, u.version
                     FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
                     WHERE u.tenant_id = ?1 AND u.external_user_id = ?2",
                    vec![tenant_id.into(), user_id.into()],
                )
                .await?;
            let row = rows.first().ok_or_else(ApiError::user_not_found)?;
            let (first_name, last_name, screen_id, version) = (row.text(0)?, row.text(1)?, row.text(3)?, row.int(7)?);
            let status = SanctionsStatus::parse(&row.text(2)?).ok_or_else(ApiError::internal)?;
            let environment = Environment::parse(&row.text(4)?).ok_or_else(ApiError::internal)?;
            let (date_of_birth, nationality) = (row.opt_text(5)?.unwrap_or_default(), row.opt_text(6)?.unwrap_or_default());
            let name = format!("{first_name} {last_name}");
            let person = Person { name: &name, date_of_birth: &date_of_birth, nationality: &nationality };
            let candidates = self.screening_candidates(environment, &person, entries).await?;
            let facts = ScreeningFacts {
                now,
                environment,
                first_name,
                last_name,
                date_of_birth,
                nationality,
                current: Some(status),
                candidates,
                hit_threshold: self.config.hit_threshold(environment),
            };
            let scope = Scope { environment, tenant_id: tenant_id.to_string(), user_id: user_id.to_string() };
            let (decision, log) = self.decide(&scope, Operation::Screening, &facts, |r, f| r.decide_screening(f))?;
            let mut statements = vec![log.statement()];
            if decision.opens_case {
                let (case_id, case_statements) = crate::sanctions::open_case(self, environment, tenant_id, user_id, &decision, &screen_id, now);
                statements.push(Stmt::expect_one(
                    "UPDATE users SET sanctions_status = ?6, case_id = ?4, last_screened_at = ?5, version = version + 1, updated_at = ?5
                     WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
                    vec![tenant_id.into(), user_id.into(), version.into(), case_id.as_str().into(), now.into(), decision.status.as_str().into()],
                ));
                statements.extend(case_statements);
            } else {
                statements.push(Stmt::expect_one(
                    "UPDATE users SET last_screened_at = ?3, version = version + 1 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?4",
                    vec![tenant_id.into(), user_id.into(), now.into(), version.into()],
                ));
            }
            Ok(self.commit(statements).await?.then_some(decision.opens_case))
        })
    }

    /// On-demand re-screen of one user or of every active user of a tenant.
    pub(crate) async fn rescreen(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let mut f = Fields::from_body(ctx.body)?;
        let tenant_id = f.text("tenant_id");
        let user_id = f.opt_text("user_id");
        f.finish()?;
        let tenants = self
            .store
            .query(
                "SELECT clock_offset_seconds FROM tenants WHERE tenant_id = ?1 AND environment = ?2 AND is_service = 0",
                vec![tenant_id.as_str().into(), ctx.caller.environment.as_str().into()],
            )
            .await?;
        let offset = tenants
            .first()
            .map(|r| r.int(0))
            .transpose()?
            .ok_or_else(|| ApiError::not_found("tenant_not_found", "no such tenant in this environment"))?;
        crate::sanctions::ensure_screening_available(self, ctx.caller.environment).await?;
        let users = match user_id {
            Some(u) => vec![u],
            None => self
                .store
                .query(
                    "SELECT external_user_id FROM users WHERE tenant_id = ?1 AND sanctions_status IN (?2, ?3) ORDER BY external_user_id",
                    vec![tenant_id.as_str().into(), SanctionsStatus::Clear.as_str().into(), SanctionsStatus::Cleared.as_str().into()],
                )
                .await?
                .iter()
                .map(|r| r.text(0))
                .collect::<Result<Vec<_>, _>>()?,
        };
        let now = self.clock.now() + offset;
        let mut hits = 0;
        for user in &users {
            hits += usize::from(self.rescreen_user(&tenant_id, user, now, Entries::All).await?);
        }
        Ok(Reply::ok(json!({ "tenant_id": tenant_id, "rescreened": users.len(), "new_hits": hits })))
    }

    /// Runs the scheduled work and one delivery round now.
    pub(crate) async fn run_scheduled_now(&self, _ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let report = self.run_scheduled().await?;
        let delivery = self.deliver_webhooks().await?;
        Ok(Reply::ok(json!({
            "limits_activated": report.limits_activated,
            "exclusions_expired": report.exclusions_expired,
            "kyc_checks_expired": report.kyc_checks_expired,
            "snapshots_taken": report.snapshots_taken,
            "users_rescreened": report.users_rescreened,
            "list_chunks_loaded": report.list_chunks_loaded,
            "lists_activated": report.lists_activated,
            "webhook_events_fanned_out": delivery.fanned_out,
            "webhook_attempts": delivery.attempted,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_boundary_is_the_latest_given_second_of_day() {
        let day = 20_000 * time::SECONDS_PER_DAY;
        let at = rules::time_horizons().snapshot_second_of_day;
        assert_eq!(snapshot_boundary(day + at, at), day + at);
        assert_eq!(snapshot_boundary(day + at - 1, at), day - time::SECONDS_PER_DAY + at);
        assert_eq!(snapshot_boundary(day + time::SECONDS_PER_DAY - 1, at), day + at);
    }
}
