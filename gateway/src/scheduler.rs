//! Time-driven work, idempotent if run twice: pending limit increases go
//! live, timed exclusions expire, abandoned KYC checks expire, the daily
//! exclusion snapshot is taken at 03:00 UTC, and active users are re-screened
//! every quarter. Sandbox tenants' due times follow their test clocks.

use serde_json::json;

use crate::api::exclusions::SOURCE_OPERATOR;
use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Fields;
use crate::ports::{Stmt, StoreError};
use crate::{time, Ctx, Gateway, Reply};

/// Active users are re-screened when their last screening is this old.
pub const RESCREEN_AFTER_SECONDS: i64 = 91 * 86_400;
/// The daily snapshot is taken at this second of the UTC day (03:00).
pub const SNAPSHOT_SECOND_OF_DAY: i64 = 3 * 3_600;
const BATCH: i64 = 500;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ScheduledReport {
    pub limits_activated: usize,
    pub exclusions_expired: usize,
    pub kyc_checks_expired: usize,
    pub snapshots_taken: usize,
    pub users_rescreened: usize,
}

/// The latest 03:00 UTC at or before `now`.
pub fn snapshot_boundary(now: i64) -> i64 {
    let boundary = now.div_euclid(86_400) * 86_400 + SNAPSHOT_SECOND_OF_DAY;
    if now < boundary {
        boundary - 86_400
    } else {
        boundary
    }
}

impl Gateway {
    /// Runs everything that has become due. Hosts call it on a timer.
    pub async fn run_scheduled(&self) -> Result<ScheduledReport, StoreError> {
        let now = self.clock.now();
        let report = ScheduledReport {
            limits_activated: self.activate_limits(now).await?,
            exclusions_expired: self.expire_exclusions(now).await?,
            kyc_checks_expired: self.expire_abandoned_checks(now).await?,
            snapshots_taken: self.take_daily_snapshots(now).await?,
            users_rescreened: self.quarterly_rescreen(now).await?,
        };
        if report != ScheduledReport::default() {
            self.wake_delivery();
        }
        Ok(report)
    }

    async fn activate_limits(&self, now: i64) -> Result<usize, StoreError> {
        let rows = self
            .store
            .query(
                "SELECT l.limit_id, l.tenant_id, t.environment, l.external_user_id, l.limit_type, l.amount_cents, l.currency, l.effective_from
                 FROM deposit_limits l JOIN tenants t ON t.tenant_id = l.tenant_id
                 WHERE l.status = 'pending' AND l.effective_from <= ?1 + t.clock_offset_seconds ORDER BY l.effective_from LIMIT ?2",
                vec![now.into(), BATCH.into()],
            )
            .await?;
        let mut done = 0;
        for row in &rows {
            let environment = Environment::parse(&row.text(2)?).unwrap_or(Environment::Sandbox);
            let tenant = row.text(1)?;
            let limit_id = row.text(0)?;
            let data = json!({
                "limit_id": limit_id,
                "user_id": row.text(3)?,
                "limit_type": row.text(4)?,
                "amount_cents": row.int(5)?,
                "currency": row.text(6)?,
                "effective_from": time::format(row.int(7)?),
            });
            let statements = vec![
                Stmt::expect_one(
                    "UPDATE deposit_limits SET status = 'active' WHERE limit_id = ?1 AND status = 'pending'",
                    vec![limit_id.as_str().into()],
                ),
                self.event(environment, Some(&tenant), "limit.activated", row.int(7)?, data),
            ];
            done += usize::from(self.store.batch(statements).await.is_ok());
        }
        Ok(done)
    }

    /// Announces timed exclusions that ran out, to every tenant of the
    /// environment, unless another exclusion still covers the person: an
    /// operator must never unblock someone who is still excluded.
    async fn expire_exclusions(&self, now: i64) -> Result<usize, StoreError> {
        let rows = self
            .store
            .query(
                "SELECT e.exclusion_id, e.environment, e.email, e.phone, e.duration, e.expires_at, e.source, t.clock_offset_seconds
                 FROM exclusions e JOIN tenants t ON t.tenant_id = e.tenant_id
                 WHERE e.expiry_announced = 0 AND e.expires_at IS NOT NULL AND e.expires_at <= ?1 + t.clock_offset_seconds
                 ORDER BY e.expires_at LIMIT ?2",
                vec![now.into(), BATCH.into()],
            )
            .await?;
        let mut done = 0;
        for row in &rows {
            let exclusion_id = row.text(0)?;
            let environment = Environment::parse(&row.text(1)?).unwrap_or(Environment::Sandbox);
            let (email, phone, expires_at) = (row.opt_text(2)?, row.opt_text(3)?, row.int(5)?);
            let covering = self
                .store
                .scalar(
                    "SELECT COUNT(*) FROM exclusions WHERE environment = ?1 AND exclusion_id <> ?2 AND (email = ?3 OR phone = ?4)
                     AND (expires_at IS NULL OR expires_at > ?5)",
                    vec![
                        environment.as_str().into(),
                        exclusion_id.as_str().into(),
                        email.clone().into(),
                        phone.clone().into(),
                        (now + row.int(7)?).into(),
                    ],
                )
                .await?;
            let still_excluded = covering > 0;
            let mut statements = vec![Stmt::expect_one(
                "UPDATE exclusions SET expiry_announced = 1 WHERE exclusion_id = ?1 AND expiry_announced = 0",
                vec![exclusion_id.as_str().into()],
            )];
            if !still_excluded {
                statements.push(self.event(
                    environment,
                    None,
                    "exclusion.expired",
                    expires_at,
                    json!({
                        "exclusion_id": exclusion_id,
                        "user_email": email,
                        "user_phone": phone,
                        "duration": row.text(4)?,
                        "expired_at": time::format(expires_at),
                        "source": row.opt_text(6)?.unwrap_or_else(|| SOURCE_OPERATOR.to_string()),
                    }),
                ));
            }
            done += usize::from(self.store.batch(statements).await.is_ok());
        }
        Ok(done)
    }

    async fn expire_abandoned_checks(&self, now: i64) -> Result<usize, StoreError> {
        let rows = self
            .store
            .query(
                "SELECT k.kyc_check_id, t.clock_offset_seconds FROM kyc_checks k JOIN tenants t ON t.tenant_id = k.tenant_id
                 WHERE k.status IN ('not_started', 'in_progress') AND k.updated_at + ?2 <= ?1 + t.clock_offset_seconds LIMIT ?3",
                vec![now.into(), crate::api::kyc::KYC_ABANDON_SECONDS.into(), BATCH.into()],
            )
            .await?;
        let mut done = 0;
        for row in &rows {
            let offset = row.int(1)?;
            if self.expire_check_by_id(&row.text(0)?, now + offset).await.map_err(|e| StoreError::Backend(e.message))? {
                done += 1;
            }
        }
        Ok(done)
    }

    /// Records, once per environment and day, what the 03:00 UTC snapshot holds.
    async fn take_daily_snapshots(&self, now: i64) -> Result<usize, StoreError> {
        let boundary = snapshot_boundary(now);
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
            let insert = Stmt::new(
                "INSERT INTO exclusion_snapshots (environment, snapshot_date, taken_at, through_seq, active_count)
                 SELECT CAST(?1 AS TEXT), CAST(?2 AS TEXT), CAST(?3 AS BIGINT),
                        COALESCE((SELECT MAX(seq) FROM exclusions), 0),
                        (SELECT COUNT(*) FROM exclusions WHERE environment = ?1 AND (expires_at IS NULL OR expires_at > ?3))
                 WHERE 1 = 1 ON CONFLICT (environment, snapshot_date) DO NOTHING",
                vec![environment.as_str().into(), date.as_str().into(), now.into()],
            );
            self.store.batch(vec![insert]).await?;
            taken += 1;
        }
        Ok(taken)
    }

    async fn quarterly_rescreen(&self, now: i64) -> Result<usize, StoreError> {
        let rows = self
            .store
            .query(
                "SELECT u.tenant_id, u.external_user_id, t.clock_offset_seconds FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
                 WHERE t.environment = 'sandbox' AND u.sanctions_status IN ('clear', 'cleared') AND u.last_screened_at <= ?1 + t.clock_offset_seconds - ?2
                 ORDER BY u.last_screened_at LIMIT ?3",
                vec![now.into(), RESCREEN_AFTER_SECONDS.into(), BATCH.into()],
            )
            .await?;
        let mut done = 0;
        for row in &rows {
            self.rescreen_user(&row.text(0)?, &row.text(1)?, now + row.int(2)?).await.map_err(|e| StoreError::Backend(e.message))?;
            done += 1;
        }
        Ok(done)
    }

    /// Screens a user again; a new hit holds their transactions and opens a
    /// case exactly as at signup. Returns whether it was a hit.
    pub(crate) async fn rescreen_user(&self, tenant_id: &str, user_id: &str, now: i64) -> ApiResult<bool> {
        let rows = self
            .store
            .query(
                "SELECT u.first_name, u.last_name, u.sanctions_status, u.screen_id, t.environment FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
                 WHERE u.tenant_id = ?1 AND u.external_user_id = ?2",
                vec![tenant_id.into(), user_id.into()],
            )
            .await?;
        let row = rows.first().ok_or_else(ApiError::user_not_found)?;
        let (first, last, status, screen_id) = (row.text(0)?, row.text(1)?, row.text(2)?, row.text(3)?);
        let environment = Environment::parse(&row.text(4)?).ok_or_else(ApiError::internal)?;
        if crate::api::transactions_held(&status) || status == "confirmed" {
            return Ok(false);
        }
        let outcome = self.rules.stub_screen(&first, &last)?;
        let mut statements = Vec::new();
        if outcome.hit {
            let (case_id, case_statements) = self.open_case(environment, tenant_id, user_id, &first, &last, &outcome, &screen_id, now);
            statements.push(Stmt::expect_one(
                "UPDATE users SET sanctions_status = 'hit_review_pending', case_id = ?4, last_screened_at = ?5, version = version + 1, updated_at = ?5
                 WHERE tenant_id = ?1 AND external_user_id = ?2 AND sanctions_status = ?3",
                vec![tenant_id.into(), user_id.into(), status.as_str().into(), case_id.as_str().into(), now.into()],
            ));
            statements.extend(case_statements);
        } else {
            statements.push(Stmt::new(
                "UPDATE users SET last_screened_at = ?3 WHERE tenant_id = ?1 AND external_user_id = ?2",
                vec![tenant_id.into(), user_id.into(), now.into()],
            ));
        }
        Ok(self.commit(statements).await? && outcome.hit)
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
        if ctx.caller.environment == Environment::Production && !self.config.production_vendors_configured {
            return Err(ApiError::new(503, "vendor_unavailable", "the screening vendor is unavailable; retry with backoff"));
        }
        let users = match user_id {
            Some(u) => vec![u],
            None => self
                .store
                .query(
                    "SELECT external_user_id FROM users WHERE tenant_id = ?1 AND sanctions_status IN ('clear', 'cleared') ORDER BY external_user_id",
                    vec![tenant_id.as_str().into()],
                )
                .await?
                .iter()
                .map(|r| r.text(0))
                .collect::<Result<Vec<_>, _>>()?,
        };
        let now = self.clock.now() + offset;
        let mut hits = 0;
        for user in &users {
            hits += usize::from(self.rescreen_user(&tenant_id, user, now).await?);
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
            "webhook_events_fanned_out": delivery.fanned_out,
            "webhook_attempts": delivery.attempted,
        })))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_boundary_is_the_latest_three_oclock() {
        let day = 20_000 * 86_400;
        assert_eq!(snapshot_boundary(day + 3 * 3_600), day + 3 * 3_600);
        assert_eq!(snapshot_boundary(day + 3 * 3_600 - 1), day - 86_400 + 3 * 3_600);
        assert_eq!(snapshot_boundary(day + 23 * 3_600), day + 3 * 3_600);
    }
}
