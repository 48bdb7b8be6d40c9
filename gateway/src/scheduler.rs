//! Time-driven work, idempotent if run twice: pending limit increases go
//! live, timed exclusions expire, abandoned KYC checks expire, the daily
//! exclusion snapshot is taken at 03:00 UTC, and active users are re-screened
//! every quarter, after a list changes and once after a new rules version
//! (a failed re-screen is counted, never stopping the round). Sandbox
//! tenants' due times follow their test clocks.
//!
//! Each area answers its own due work (`limits::due_work`,
//! `exclusions::due_expiries`, `kyc::abandoned_check_candidates`,
//! `sanctions::due_rescreens`); this module groups it by environment and
//! tenant, asks the rules once a group and commits one batch a group. It
//! holds no SQL.

use rules_model::{DueFacts, EventKind, Operation};

use std::collections::BTreeMap;

use crate::auth::Environment;
use crate::decisions::Scope;
use crate::error::ApiResult;
use crate::exclusions::DueExpiry;
use crate::limits::DueLimitWork;
use crate::lists::Entries;
use crate::sanctions::DueRescreenWork;
use crate::users::store::claim as claim_user_row;
use crate::{Ctx, Gateway};

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ScheduledReport {
    pub limits_activated: usize,
    pub exclusions_expired: usize,
    pub kyc_checks_expired: usize,
    pub snapshots_taken: usize,
    pub users_rescreened: usize,
    /// re-screens that failed (each logged; the round went on without them)
    pub rescreen_errors: usize,
    /// staged list chunks loaded, and versions switched in
    pub list_chunks_loaded: usize,
    pub lists_activated: usize,
    /// rows deleted past their retention
    pub rows_pruned: i64,
    /// erasure jobs moved on or made by the retention sweep
    pub erasure_jobs: i64,
    /// exclusions and users keyed anew (`exclusions::rekey_contacts`)
    pub contacts_rekeyed: usize,
    /// players the national registers' nightly batch asked about (`registers::batch`)
    pub register_batch_players: usize,
    /// more work is due at once (staged chunks wait, expired rows remain)
    pub more_due: bool,
}

/// The due work of one environment and tenant: one rules call, one batch.
struct DueGroup {
    facts: DueFacts,
    limits: Vec<DueLimitWork>,
    exclusions: Vec<DueExpiry>,
    checks: Vec<(crate::kyc::Check, i64)>,
    users: Vec<DueRescreenWork>,
}

impl Default for DueGroup {
    fn default() -> Self {
        let facts = DueFacts { limits: Vec::new(), exclusions: Vec::new(), checks: Vec::new(), users: Vec::new() };
        DueGroup { facts, limits: Vec::new(), exclusions: Vec::new(), checks: Vec::new(), users: Vec::new() }
    }
}

impl Gateway {
    /// Runs everything that has become due. Hosts call it on a timer.
    pub async fn run_scheduled(&self) -> ApiResult<ScheduledReport> {
        let now = self.clock.now();
        let (mut report, rescreens) = self.run_due_work(now).await?;
        let staged = crate::lists::load_staged(self, self.config.work.list_chunks_per_round).await?;
        (report.list_chunks_loaded, report.lists_activated, report.more_due) = (staged.chunks_loaded, staged.lists_activated, staged.more);
        // One user's failed re-screen is counted and logged; it never stops
        // the others, the snapshot or the pruning.
        for user in &rescreens {
            let after = crate::sanctions::After::Since(user.whole_screened_at);
            match crate::sanctions::rescreen_user(self, &user.tenant_id, &user.user_id, user.now, Entries::All, after).await {
                Ok(Some(_)) => report.users_rescreened += 1,
                // another host re-screened the user since this round read them
                Ok(None) => {}
                Err(error) => {
                    crate::sanctions::rescreen_failed(&error);
                    report.rescreen_errors += 1;
                }
            }
        }
        let (screened, failed) = self.rescreen_after_list_changes(self.config.work.scheduled_batch).await?;
        (report.users_rescreened, report.rescreen_errors) = (report.users_rescreened + screened, report.rescreen_errors + failed);
        // after a new rules version, every active user once, a batch a round
        let (screened, failed) = crate::sanctions::rescreen_after_rules_change(self, self.config.work.scheduled_batch).await?;
        (report.users_rescreened, report.rescreen_errors) = (report.users_rescreened + screened, report.rescreen_errors + failed);
        report.snapshots_taken = crate::exclusions::take_daily_snapshots(self, now).await?;
        // contacts stored before the contact keys, a bounded batch a round (matched by their stored form meanwhile)
        let rekeyed = crate::exclusions::rekey_contacts(self.store.as_ref(), self.config.work.scheduled_batch).await?;
        (report.contacts_rekeyed, report.more_due) = (rekeyed.exclusions + rekeyed.users, report.more_due || rekeyed.more);
        // one request of each due run of the national registers' nightly batch (at most one a second each)
        report.register_batch_players = crate::registers::batch::run_due(self).await?.players;
        // new events may wait; pruning alone gives the delivery loop nothing to do
        if report != ScheduledReport::default() {
            self.wake_delivery();
        }
        let swept = self.sweep_expired(now).await?;
        (report.rows_pruned, report.more_due) = (swept.rows, report.more_due || swept.more);
        // each profile's retention table: held erasures whose date came, and ended relationships erased unasked
        // bounded per tick: what is left waits for the next tick (a retention date is a day, not a second)
        let erased = crate::erasure::sweep(self, now, self.config.retention.erasure_batch.max(1)).await?;
        report.erasure_jobs = erased.jobs;
        Ok(report)
    }

    /// Reads the candidates and, for each environment and tenant they belong
    /// to, asks the rules once what is due and writes the activations and
    /// expiries in one batch with the decision, logged under that tenant.
    /// Every user whose state a batch writes is claimed in it; a batch that
    /// loses a race is recomputed from fresh reads. Returns the users to
    /// re-screen, each of which is a screening decision of its own.
    async fn run_due_work(&self, now: i64) -> ApiResult<(ScheduledReport, Vec<DueRescreenWork>)> {
        let horizons = self.rules.horizons();
        let mut report = ScheduledReport::default();
        let mut rescreens = Vec::new();
        until_committed!({
            let limits = crate::limits::due_work(self, now).await?;
            let exclusions = crate::exclusions::due_expiries(self, now).await?;
            let checks = crate::kyc::abandoned_check_candidates(self, now, horizons.kyc_abandon_seconds, self.config.work.scheduled_batch).await?;
            let users = crate::sanctions::due_rescreens(self, now).await?;
            let mut groups: BTreeMap<(Environment, String), DueGroup> = BTreeMap::new();
            for (limit, facts) in limits {
                let g = groups.entry((limit.environment, limit.tenant_id.clone())).or_default();
                g.facts.limits.push(facts);
                g.limits.push(limit);
            }
            for (exclusion, facts) in exclusions {
                let g = groups.entry((exclusion.environment, exclusion.tenant_id.clone())).or_default();
                g.facts.exclusions.push(facts);
                g.exclusions.push(exclusion);
            }
            for (check, facts, version) in checks {
                let g = groups.entry((check.environment, check.tenant_id.clone())).or_default();
                g.facts.checks.push(facts);
                g.checks.push((check, version));
            }
            for (user, facts) in users {
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
                    statements.push(self.event(environment, Some(&limit.tenant_id), EventKind::LimitActivated, limit.effective_from, &limit.data));
                }
                for expiry in &work.expire_exclusions {
                    let Some(e) = due.exclusions.get(expiry.index as usize) else { continue };
                    statements.push(crate::exclusions::store::announce_expiry(&e.exclusion_id));
                    if expiry.announce {
                        statements.push(self.event(environment, None, EventKind::ExclusionExpired, e.expires_at, &e.data));
                    }
                }
                for expiry in &work.expire_checks {
                    let Some((check, version)) = due.checks.get(expiry.index as usize) else { continue };
                    let Some(facts) = due.facts.checks.get(expiry.index as usize) else { continue };
                    claims.insert(&check.external_user_id, *version);
                    statements.extend(crate::kyc::kyc_transition(
                        self,
                        check,
                        facts.verified,
                        None,
                        &expiry.decision,
                        crate::kyc::store::Reviewer::named("abandoned"),
                        facts.now,
                    ));
                }
                let scope_tenant = &scope.tenant_id;
                statements.extend(claims.iter().map(|(user, version)| claim_user_row(scope_tenant, user, *version, now)));
                if self.commit(statements).await?.done() {
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
}

/// Runs the scheduled work and one delivery round now.
pub(crate) async fn run_scheduled_now(gw: &Gateway, _ctx: &Ctx<'_>, (): ()) -> ApiResult<crate::openapi::answer::Answer<ScheduledRun>> {
    let report = gw.run_scheduled().await?;
    let delivery = gw.deliver_webhooks().await?;
    let body = ScheduledRun {
        limits_activated: report.limits_activated,
        exclusions_expired: report.exclusions_expired,
        kyc_checks_expired: report.kyc_checks_expired,
        snapshots_taken: report.snapshots_taken,
        users_rescreened: report.users_rescreened,
        rescreen_errors: report.rescreen_errors,
        list_chunks_loaded: report.list_chunks_loaded,
        lists_activated: report.lists_activated,
        register_batch_players: report.register_batch_players,
        webhook_events_fanned_out: delivery.fanned_out,
        webhook_attempts: delivery.attempted,
    };
    crate::openapi::answer::Answer::new(&body)
}

/// What one run of the scheduled work did.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub(crate) struct ScheduledRun {
    limits_activated: usize,
    exclusions_expired: usize,
    kyc_checks_expired: usize,
    snapshots_taken: usize,
    users_rescreened: usize,
    /// re-screens that failed; the round went on without them
    rescreen_errors: usize,
    list_chunks_loaded: usize,
    lists_activated: usize,
    /// players the national registers' nightly batch asked about this round
    register_batch_players: usize,
    webhook_events_fanned_out: usize,
    webhook_attempts: usize,
}

pub(crate) fn run_scheduled_now_doc() -> crate::openapi::OperationDoc {
    crate::openapi::OperationDoc::new("admin", "run due scheduled work now").errors(&[409])
}
