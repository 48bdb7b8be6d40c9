//! Re-screens after a list changed: the users of the list's environment,
//! screened against the changed entries only, a bounded batch a round,
//! each list's place kept in its re-screen job.

use crate::auth::Environment;
use crate::error::ApiResult;
use crate::lists::{self, Entries};
use crate::Gateway;

impl Gateway {
    /// Users of environments whose lists changed, screened against the changed
    /// entries only, `batch` at a time; answers how many were screened and
    /// how many re-screens failed (each counted, none stopping the others:
    /// a user passed over is screened in full at the next periodic re-screen).
    pub(crate) async fn rescreen_after_list_changes(&self, batch: i64) -> ApiResult<(usize, usize)> {
        // Every changed list takes its turn in the round, within one budget of users.
        let pending = lists::store::rescreen_jobs(self.store.as_ref()).await?;
        let (mut screened, mut failed) = (0, 0);
        let mut budget = batch;
        for job in &pending {
            if budget <= 0 {
                break;
            }
            let looked_at = self.rescreen_one_list(job, budget).await?;
            screened += looked_at.0;
            failed += looked_at.1;
            budget -= looked_at.2;
        }
        Ok((screened, failed))
    }

    /// One list's turn: up to `batch` users after its cursor, claimed before
    /// any is screened (hosts sharing a store never screen one batch twice);
    /// answers how many were screened, how many failed and how many were looked at.
    async fn rescreen_one_list(&self, job: &lists::store::RescreenJob, batch: i64) -> ApiResult<(usize, usize, i64)> {
        let users = lists::store::users_after(self.store.as_ref(), job.environment, &job.after_tenant, &job.after_user, batch).await?;
        let done = (users.len() as i64) < batch;
        let (last_tenant, last_user) = match users.last() {
            Some(u) => (u.tenant_id.as_str(), u.user_id.as_str()),
            None => (job.after_tenant.as_str(), job.after_user.as_str()),
        };
        if !self.commit(vec![lists::store::claim_rescreen(job, last_tenant, last_user, !done)]).await?.done() {
            return Ok((0, 0, 0));
        }
        let (mut screened, mut failed) = (0, 0);
        for user in &users {
            // Every user is screened; the rules keep one under review or confirmed as they are.
            let now = match job.environment {
                Environment::Sandbox => self.clock.now().saturating_add(user.clock_offset_seconds),
                Environment::Production => self.clock.now(),
            };
            match super::rescreen_user(self, &user.tenant_id, &user.user_id, now, Entries::ChangedIn(&job.list_id), super::After::Any).await {
                Ok(_) => screened += 1,
                Err(error) => {
                    super::rescreen_failed(&error);
                    failed += 1;
                }
            }
        }
        Ok((screened, failed, users.len() as i64))
    }
}
