//! The decision log: every decision the rules make for a request, with the
//! rules version and SHA-256, the exact input facts and the output, both in
//! their canonical encoding (serde JSON of the rules types, fields in
//! declaration order). A state-changing decision is written in the batch of
//! the change it causes; a read-only one is queued and written off the request
//! path, many to a row of `decision_pages` ([`Gateway::flush_decisions`]). Any
//! recorded decision can be replayed through another rules component
//! ([`replay_recorded`]).

use std::sync::Mutex;

use rules_model::{Operation, RuleError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value as Json;
use utoipa::{IntoParams, ToSchema};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::{Cursor, Instant, Limit};
use crate::input::{Params, Path};
use crate::openapi::answer::Answer;
use crate::openapi::shared::{Environment as EnvironmentName, OperationName, Timestamp};
use crate::openapi::OperationDoc;
use crate::ports::{Rules, RulesFault, Stmt, StoreError};

pub mod store;
use crate::{time, Ctx, Gateway};

/// Read-only decisions per page (one row of `decision_pages`).
const PAGE_ENTRIES: usize = 256;
/// The longest a page spans, from its first decision to its last: an id's
/// page is found among the pages that start this long before it.
const PAGE_SPAN_SECONDS: i64 = 60;
/// How many pages one flush writes per batch.
const PAGES_PER_BATCH: usize = 8;
/// How many pages a listing reads at a time.
const PAGES_PER_READ: i64 = 64;
const DEFAULT_PAGE: i64 = 100;
const MAX_PAGE: i64 = 1000;

/// Who a decision was made for.
#[derive(Debug, Clone)]
pub struct Scope {
    pub environment: Environment,
    pub tenant_id: String,
    pub user_id: String,
}

impl Scope {
    pub(crate) fn of(ctx: &Ctx<'_>, user_id: &str) -> Scope {
        Scope { environment: ctx.caller.environment, tenant_id: ctx.caller.tenant_id.clone(), user_id: user_id.to_string() }
    }
}

/// A decision ready to be written.
#[must_use = "a decision must be written with the change it causes, or deferred"]
#[derive(Debug, Clone)]
pub struct DecisionLog {
    record: RecordedDecision,
}

impl DecisionLog {
    /// The id the answer names in `x-decision-id`.
    pub fn decision_id(&self) -> &str {
        &self.record.decision_id
    }

    /// The insert, for the batch of the change the decision causes.
    pub fn statement(&self) -> Stmt {
        store::insert(&self.record)
    }
}

/// Queued read-only decisions, written by [`Gateway::flush_decisions`].
#[derive(Default)]
pub(crate) struct DecisionQueue(Mutex<Vec<RecordedDecision>>);

impl DecisionQueue {
    fn push(&self, r: RecordedDecision) {
        if let Ok(mut q) = self.0.lock() {
            q.push(r);
        }
    }
    pub(crate) fn len(&self) -> usize {
        self.0.lock().map(|q| q.len()).unwrap_or(0)
    }
    fn take(&self) -> Vec<RecordedDecision> {
        self.0.lock().map(|mut q| std::mem::take(&mut *q)).unwrap_or_default()
    }
    fn requeue(&self, mut failed: Vec<RecordedDecision>) {
        if let Ok(mut q) = self.0.lock() {
            failed.append(&mut q);
            *q = failed;
        }
    }
}

/// Splits queued decisions into pages: per environment and rules, sorted
/// by id, at most [`PAGE_ENTRIES`] and [`PAGE_SPAN_SECONDS`] each.
fn pages_of(mut queued: Vec<RecordedDecision>) -> Vec<Vec<RecordedDecision>> {
    queued.sort_by(|a, b| (a.environment, &a.rules_sha256, &a.decision_id).cmp(&(b.environment, &b.rules_sha256, &b.decision_id)));
    let mut pages: Vec<Vec<RecordedDecision>> = Vec::new();
    for record in queued {
        let fits = pages.last().and_then(|p| p.first().map(|first| (p.len(), first))).is_some_and(|(len, first)| {
            len < PAGE_ENTRIES
                && first.environment == record.environment
                && first.rules_sha256 == record.rules_sha256
                && record.decided_at - first.decided_at < PAGE_SPAN_SECONDS
        });
        match pages.last_mut() {
            Some(page) if fits => page.push(record),
            _ => pages.push(vec![record]),
        }
    }
    pages
}

/// The second a decision id names (its first eleven hex digits after `dec_`).
fn id_second(decision_id: &str) -> Option<i64> {
    decision_id.strip_prefix("dec_").and_then(|rest| rest.get(..11)).and_then(|hex| i64::from_str_radix(hex, 16).ok())
}

/// The canonical encoding of facts and decisions.
pub fn canonical<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

impl Gateway {
    /// Asks the rules once and prepares the log of the decision.
    pub(crate) fn decide<F: Serialize, O: Serialize>(
        &self,
        scope: &Scope,
        operation: Operation,
        facts: &F,
        ask: impl FnOnce(&dyn Rules, &F) -> Result<O, RulesFault>,
    ) -> ApiResult<(O, DecisionLog)> {
        let output = ask(self.rules.as_ref(), facts)?;
        let log = self.decision_log(scope, operation, canonical(facts), canonical(&output));
        Ok((output, log))
    }

    /// [`Gateway::decide`] for a call whose rules may refuse the facts; the refusal is logged too.
    pub(crate) fn decide_or_refuse<F: Serialize, O: Serialize>(
        &self,
        scope: &Scope,
        operation: Operation,
        facts: &F,
        ask: impl FnOnce(&dyn Rules, &F) -> Result<Result<O, RuleError>, RulesFault>,
    ) -> ApiResult<(O, DecisionLog)> {
        let (output, log) = self.decide(scope, operation, facts, ask)?;
        match output {
            Ok(o) => Ok((o, log)),
            Err(e) => {
                self.defer(log);
                Err(e.into())
            }
        }
    }

    fn decision_log(&self, scope: &Scope, operation: Operation, input: String, output: String) -> DecisionLog {
        let decided_at = self.clock.now();
        // Ids sort by time, so the log's keys grow at their end and a time window is a key range.
        let decision_id = format!("{}{}", id_floor(decided_at), hex::encode(self.ids.id_bytes(8)));
        let identity = self.rules.identity();
        let record = RecordedDecision {
            decision_id,
            operation,
            environment: scope.environment,
            tenant_id: scope.tenant_id.clone(),
            user_id: scope.user_id.clone(),
            decided_at,
            rules_version: identity.version,
            rules_sha256: identity.component_sha256,
            input,
            output,
        };
        DecisionLog { record }
    }

    /// Queues the log of a decision that changed nothing.
    pub(crate) fn defer(&self, log: DecisionLog) {
        if self.config.skip_read_decision_log {
            return;
        }
        self.decision_queue.push(log.record);
    }

    /// How many read-only decisions wait for the next flush (a host that
    /// flushes on its own schedule flushes at once past a page's worth).
    pub fn queued_decisions(&self) -> usize {
        self.decision_queue.len()
    }

    /// Whether a flush has anything to write: queued decisions or owed keys.
    pub fn writes_waiting(&self) -> bool {
        self.decision_queue.len() > 0 || self.owed_keys.len() > 0
    }

    /// Writes the queued read-only decisions as pages; hosts call it on a
    /// short timer and at shutdown. Pages that fail go back to the queue.
    /// The idempotency keys' owed writes go first ([`crate::idempotency::OwedKeys`]).
    pub async fn flush_decisions(&self) -> Result<usize, StoreError> {
        // the keys owed ride on the same tick: a failure keeps them for the next
        if let Err(e) = self.settle_owed_keys().await {
            tracing::warn!(target: "idempotency", error = %e, "writing the keys' owed releases failed (kept for the next try)");
        }
        let mut pages = pages_of(self.decision_queue.take());
        let mut written = 0;
        let store = self.decision_store.as_deref().unwrap_or(self.store.as_ref());
        while !pages.is_empty() {
            let rest = pages.split_off(pages.len().min(PAGES_PER_BATCH));
            let statements: Vec<Stmt> = pages.iter().filter_map(|p| store::insert_page(p)).collect();
            if let Err(e) = store.batch(statements).await {
                metrics::counter!(crate::metric_names::DECISION_LOG_FLUSH_FAILURES).increment(1);
                self.decision_queue.requeue(pages.into_iter().chain(rest).flatten().collect());
                return Err(e);
            }
            written += pages.iter().map(Vec::len).sum::<usize>();
            pages = rest;
        }
        Ok(written)
    }

    /// A recorded decision, as an admin or the replay command sees it: a row
    /// of its own, or an entry of the page that starts at most a page span before it.
    pub async fn load_decision(&self, decision_id: &str) -> ApiResult<Option<RecordedDecision>> {
        if let Some(found) = store::by_id(self.store.as_ref(), decision_id).await? {
            return Ok(Some(found));
        }
        let Some(second) = id_second(decision_id) else { return Ok(None) };
        let floor = id_floor(second.saturating_sub(PAGE_SPAN_SECONDS));
        Ok(store::in_pages_around(self.store.as_ref(), decision_id, &floor).await?.into_iter().find(|d| d.decision_id == decision_id))
    }
}

/// A decision of the caller's environment, or 404 `decision_not_found`.
async fn decision_in_environment(gw: &Gateway, ctx: &Ctx<'_>, decision_id: &str) -> ApiResult<RecordedDecision> {
    let found = gw.load_decision(decision_id).await?.filter(|d| d.environment == ctx.caller.environment);
    found.ok_or_else(|| ApiError::not_found("decision_not_found", "no such decision in this environment"))
}

/// A recorded decision as the API shows it.
#[derive(Serialize, ToSchema)]
#[schema(as = Decision)]
pub struct DecisionView {
    decision_id: String,
    #[schema(value_type = OperationName)]
    operation: &'static str,
    #[schema(value_type = EnvironmentName)]
    environment: &'static str,
    tenant_id: String,
    /// `null` for a decision about no one user
    #[schema(required)]
    user_id: Option<String>,
    #[schema(value_type = Timestamp)]
    decided_at: String,
    rules_version: String,
    /// the SHA-256 of the rules component that decided
    rules_sha256: String,
    /// the facts the rules were given
    #[schema(value_type = serde_json::Value)]
    input: Json,
    /// what the rules answered
    #[schema(value_type = serde_json::Value)]
    output: Json,
}

/// What a replay found.
#[derive(Serialize, ToSchema)]
#[schema(as = DecisionReplay)]
pub(crate) struct Replayed {
    decision_id: String,
    identical: bool,
    /// where the outputs differ, as JSON pointers
    differences: Vec<String>,
    recorded_rules_sha256: String,
    replayed_rules_version: String,
    replayed_rules_sha256: String,
    #[schema(value_type = serde_json::Value)]
    replayed_output: Json,
}

/// The query of `GET /v1/admin/decisions`.
#[derive(serde::Deserialize, IntoParams)]
pub(crate) struct DecisionQuery {
    tenant_id: Option<String>,
    user_id: Option<String>,
    #[param(value_type = Timestamp, required = false)]
    from: Option<Instant>,
    #[param(value_type = Timestamp, required = false)]
    to: Option<Instant>,
    /// opaque, from next_cursor
    #[param(value_type = Option<String>)]
    cursor: Option<Cursor<String>>,
    /// default 100
    #[param(inline)]
    limit: Option<DecisionLimit>,
}

/// The `limit` of a page of decisions: 1 to 1000.
type DecisionLimit = Limit<MAX_PAGE>;

#[derive(Serialize, ToSchema)]
pub(crate) struct DecisionPage {
    decisions: Vec<DecisionView>,
    #[schema(required)]
    next_cursor: Option<String>,
    has_more: bool,
}

pub(crate) fn get_decision_doc() -> OperationDoc {
    OperationDoc::new("admin", "one recorded decision").errors(&[404])
}

pub(crate) fn replay_decision_doc() -> OperationDoc {
    OperationDoc::new("admin", "run a recorded decision again on this rules version").errors(&[404, 409])
}

pub(crate) fn list_decisions_doc() -> OperationDoc {
    OperationDoc::new("admin", "recorded rules decisions, newest first")
}

pub(crate) async fn get_decision(gw: &Gateway, ctx: &Ctx<'_>, Path(decision_id): Path) -> ApiResult<Answer<DecisionView>> {
    Answer::new(&decision_in_environment(gw, ctx, &decision_id).await?.view())
}

/// Replays a recorded decision through the rules this host runs.
pub(crate) async fn replay_decision(gw: &Gateway, ctx: &Ctx<'_>, Path(decision_id): Path) -> ApiResult<Answer<Replayed>> {
    let decision = decision_in_environment(gw, ctx, &decision_id).await?;
    let report = replay_recorded(gw.rules.as_ref(), &decision).map_err(|e| match e {
        ReplayError::Rules(fault) => ApiError::from(fault),
        ReplayError::Input { .. } | ReplayError::Output(_) => ApiError::unprocessable("unreplayable_decision", e.to_string()),
    })?;
    let identity = gw.rules.identity();
    let body = Replayed {
        identical: report.differences.is_empty(),
        decision_id: decision.decision_id,
        differences: report.differences,
        recorded_rules_sha256: decision.rules_sha256,
        replayed_rules_version: identity.version,
        replayed_rules_sha256: identity.component_sha256,
        replayed_output: report.replayed,
    };
    Answer::new(&body)
}

pub(crate) async fn list_decisions(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<DecisionQuery>) -> ApiResult<Answer<DecisionPage>> {
    let DecisionQuery { tenant_id, user_id, from, to, cursor, limit } = query;
    let (tenant, user) = (tenant_id.as_deref().unwrap_or(""), user_id.as_deref().unwrap_or(""));
    let (from, to) = (from.map_or(0, |t| t.0), to.map_or(crate::ports::MAX_STORED_INTEGER, |t| t.0));
    let limit = Limit::or(limit, DEFAULT_PAGE);
    let after_id = Cursor::after(cursor).unwrap_or_default();
    let (lower, upper) = (id_floor(from), id_floor(to.saturating_add(1)));
    let wanted = |d: &RecordedDecision| {
        d.environment == ctx.caller.environment
            && (tenant.is_empty() || d.tenant_id == tenant)
            && (user.is_empty() || d.user_id == user)
            && (from..=to).contains(&d.decided_at)
            && d.decision_id > after_id
            && d.decision_id >= lower
            && d.decision_id < upper
    };
    let filter = store::RowFilter {
        environment: ctx.caller.environment,
        tenant_id: tenant,
        user_id: user,
        from,
        to,
        after_id: &after_id,
        lower: &lower,
        upper: &upper,
        limit: limit + 1,
    };
    let mut found = store::rows(gw.store.as_ref(), &filter).await?;
    // Pages in key order; an unread page holds only ids from its key on,
    // so the listing is complete once enough ids lie before the last key read.
    let start_second = id_second(&after_id).unwrap_or(0).max(from).saturating_sub(PAGE_SPAN_SECONDS);
    let mut page_after = id_floor(start_second);
    let mut first_read = true;
    loop {
        let pages = store::pages_after(gw.store.as_ref(), ctx.caller.environment, &page_after, first_read, &upper, &after_id, PAGES_PER_READ).await?;
        first_read = false;
        let read = pages.len() as i64;
        let Some(last_key) = pages.last().map(|p| p.page_id.clone()) else { break };
        for page in pages {
            found.extend(page.decisions.into_iter().filter(|d| wanted(d)));
        }
        if read < PAGES_PER_READ || found.iter().filter(|d| d.decision_id <= last_key).count() as i64 > limit {
            break;
        }
        page_after = last_key;
    }
    found.sort_by(|a, b| a.decision_id.cmp(&b.decision_id));
    found.truncate(limit as usize + 1);
    let has_more = found.len() as i64 > limit;
    found.truncate(limit as usize);
    let next_cursor = found.last().filter(|_| has_more).map(|d| encode_cursor(&d.decision_id));
    Answer::new(&DecisionPage { decisions: found.iter().map(RecordedDecision::view).collect(), next_cursor, has_more })
}

/// A decision as recorded.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedDecision {
    pub decision_id: String,
    pub operation: Operation,
    pub environment: Environment,
    pub tenant_id: String,
    pub user_id: String,
    pub decided_at: i64,
    pub rules_version: String,
    pub rules_sha256: String,
    pub input: String,
    pub output: String,
}

impl RecordedDecision {
    pub fn view(&self) -> DecisionView {
        let parse = |text: &str| serde_json::from_str::<Json>(text).unwrap_or(Json::Null);
        DecisionView {
            decision_id: self.decision_id.clone(),
            operation: self.operation.as_str(),
            environment: self.environment.as_str(),
            tenant_id: self.tenant_id.clone(),
            user_id: (!self.user_id.is_empty()).then(|| self.user_id.clone()),
            decided_at: time::format(self.decided_at),
            rules_version: self.rules_version.clone(),
            rules_sha256: self.rules_sha256.clone(),
            input: parse(&self.input),
            output: parse(&self.output),
        }
    }
}

/// The smallest decision id of a second: ids are `dec_` and the second in
/// eleven hex digits, then random; clamped to the range the format holds.
pub(crate) fn id_floor(at: i64) -> String {
    format!("dec_{:011x}", at.clamp(0, 0xFFF_FFFF_FFFF))
}

fn encode_cursor(id: &str) -> String {
    crate::api::cursor::encode(&id)
}

/// Why a recorded decision could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the recorded input does not decode as {operation} facts: {detail}")]
    Input { operation: &'static str, detail: String },
    #[error(transparent)]
    Rules(#[from] RulesFault),
    #[error("the recorded output is not JSON: {0}")]
    Output(String),
}

/// What a replay found: the output the rules give now, and where it differs from the record.
#[derive(Debug, Clone)]
pub struct ReplayReport {
    pub replayed: Json,
    pub differences: Vec<String>,
}

/// Replays a recorded decision through `rules` and compares the outputs;
/// the one comparison behind the admin endpoint and the command line.
pub fn replay_recorded(rules: &dyn Rules, recorded: &RecordedDecision) -> Result<ReplayReport, ReplayError> {
    let parse = |t: &str| serde_json::from_str::<Json>(t).map_err(|e| ReplayError::Output(e.to_string()));
    let output = parse(&recorded.output)?;
    let replayed = as_recorded(&output, parse(&replay(rules, recorded.operation, &recorded.input)?)?);
    let differences = differences(&output, &replayed);
    Ok(ReplayReport { replayed, differences })
}

/// A call that became fallible (`describe-limits` and `describe-tier` in
/// rules 12.0.0) logged its output bare before: such an output is compared
/// with the replayed call's `Ok`. Outputs logged as a result stay results.
fn as_recorded(recorded: &Json, replayed: Json) -> Json {
    let is_result = |j: &Json| matches!(j, Json::Object(o) if o.len() == 1 && (o.contains_key("Ok") || o.contains_key("Err")));
    if is_result(recorded) || !is_result(&replayed) {
        return replayed;
    }
    match replayed {
        Json::Object(mut o) if o.contains_key("Ok") => o.remove("Ok").unwrap_or(Json::Null),
        other => other,
    }
}

fn facts<T: DeserializeOwned>(operation: Operation, input: &str) -> Result<T, ReplayError> {
    serde_json::from_str(input).map_err(|e| ReplayError::Input { operation: operation.as_str(), detail: e.to_string() })
}

/// The replay's arms: one per logged call of [`rules_model::for_each_wit_function!`]
/// (those that name an operation), each deserialising the recorded facts and
/// asking the rules again. A logged call has one argument, its facts.
macro_rules! replay_calls {
    ([] calls { $($calls:tt)* } loaded { $($loaded:tt)* }) => {
        replay_calls!(@arms [] $($calls)*);
    };
    (@arms [$($arms:tt)*] $(#[$doc:meta])* [$op:ident] $name:ident ( $arg:ident : $mode:ident $t:ty ) -> $ret:ty = $lib:ident; $($rest:tt)*) => {
        replay_calls!(@arms [$($arms)* $op $name $mode $t;] $($rest)*);
    };
    (@arms [$($arms:tt)*] $(#[$doc:meta])* [] $name:ident ( $($args:tt)* ) -> $ret:ty = $lib:ident; $($rest:tt)*) => {
        replay_calls!(@arms [$($arms)*] $($rest)*);
    };
    (@arms [$($op:ident $name:ident $mode:ident $t:ty;)*]) => {
        /// Runs a recorded input through `rules` and returns the output in the
        /// canonical encoding, to compare with the recorded one.
        pub fn replay(rules: &dyn Rules, operation: Operation, input: &str) -> Result<String, ReplayError> {
            Ok(match operation {
                $(Operation::$op => {
                    let facts: <$t as ToOwned>::Owned = facts(operation, input)?;
                    canonical(&rules.$name($crate::__rules_lend!($mode facts))?)
                })*
            })
        }
    };
}
mod replaying {
    use super::{canonical, facts, ReplayError};
    use crate::ports::Rules;
    use rules_model::*;
    rules_model::for_each_wit_function!(replay_calls);
}
pub use replaying::replay;

/// The paths at which two JSON documents differ, for a readable replay report.
pub fn differences(recorded: &Json, replayed: &Json) -> Vec<String> {
    fn walk(path: String, a: &Json, b: &Json, out: &mut Vec<String>) {
        match (a, b) {
            (Json::Object(x), Json::Object(y)) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                for k in keys {
                    walk(format!("{path}.{k}"), x.get(k).unwrap_or(&Json::Null), y.get(k).unwrap_or(&Json::Null), out);
                }
            }
            (Json::Array(x), Json::Array(y)) if x.len() == y.len() => {
                for (i, (p, q)) in x.iter().zip(y).enumerate() {
                    walk(format!("{path}[{i}]"), p, q, out);
                }
            }
            _ if a != b => out.push(format!("{path}: recorded {a}, replayed {b}")),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk("output".to_string(), recorded, replayed, &mut out);
    out
}

/// Adds `x-decision-id` to an error decided by the rules.
pub(crate) fn error_with_decision(mut error: ApiError, log: &DecisionLog) -> ApiError {
    error.decision_id = Some(log.decision_id().into());
    error
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::{Row, Value};

    fn record(env: Environment, at: i64, n: usize) -> RecordedDecision {
        RecordedDecision {
            decision_id: format!("{}{n:016x}", id_floor(at)),
            operation: Operation::ExclusionStatus,
            environment: env,
            tenant_id: "ten_1".into(),
            user_id: String::new(),
            decided_at: at,
            rules_version: "2.0.0".into(),
            rules_sha256: "ab".repeat(32),
            input: r#"{"now":5,"exclusions":[{"expires_at":null}]}"#.into(),
            output: r#"{"active":[0],"most_restrictive":0}"#.into(),
        }
    }

    /// A limits view and a tier record logged before the calls became
    /// fallible replay identically; the twin: a changed output is seen.
    #[test]
    fn outputs_logged_bare_before_a_call_became_fallible_still_replay() {
        let limits = RecordedDecision {
            operation: Operation::Limits,
            input: r#"{"now":100000,"limits":[{"window":"limit_daily","amount_cents":10000,"same_currency":true,"status":"active","effective_from":0}],"totals":[{"window":"limit_daily","spent_cents":8000,"oldest_at":99000,"newest_at":99000}],"deposits":null}"#.into(),
            output: r#"[{"window":"limit_daily","in_force":0,"pending":null,"spent_cents":8000,"remaining_cents":2000,"next_reset_at":185400}]"#.into(),
            ..record(Environment::Sandbox, 1_000, 1)
        };
        let report = replay_recorded(&crate::ports::LibraryRules, &limits).unwrap();
        assert!(report.differences.is_empty(), "{:?}", report.differences);
        let tier = RecordedDecision {
            operation: Operation::Tier,
            input: r#""tier_0""#.into(),
            output: r#"{"tier":"tier_0","ceiling_cents":20000,"next_tier_at_cents":20001}"#.into(),
            ..record(Environment::Sandbox, 1_000, 2)
        };
        assert!(replay_recorded(&crate::ports::LibraryRules, &tier).unwrap().differences.is_empty());
        let changed = RecordedDecision { output: r#"{"tier":"tier_0","ceiling_cents":20001,"next_tier_at_cents":20002}"#.into(), ..tier };
        assert!(!replay_recorded(&crate::ports::LibraryRules, &changed).unwrap().differences.is_empty());
    }

    #[test]
    fn pages_split_by_environment_size_and_span() {
        let mut queued: Vec<RecordedDecision> = (0..300).map(|n| record(Environment::Sandbox, 1_000, n)).collect();
        queued.push(record(Environment::Production, 1_000, 0));
        queued.push(record(Environment::Sandbox, 1_000 + PAGE_SPAN_SECONDS, 999));
        let pages = pages_of(queued);
        let sizes: Vec<usize> = pages.iter().map(Vec::len).collect();
        assert_eq!(sizes, vec![PAGE_ENTRIES, 300 - PAGE_ENTRIES, 1, 1]);
        for page in &pages {
            assert!(page.windows(2).all(|w| w[0].decision_id < w[1].decision_id), "a page is sorted");
            assert!(page.iter().all(|r| r.environment == page[0].environment));
        }
    }

    #[test]
    fn a_page_keeps_every_decision_to_the_byte() {
        let page = vec![record(Environment::Sandbox, 7, 1), record(Environment::Sandbox, 8, 2)];
        let statement = store::insert_page(&page).unwrap();
        let p = &statement.params;
        let row = Row(vec![p[2].clone(), p[4].clone(), p[5].clone(), p[6].clone()]);
        assert_eq!(store::page_decisions(&row).unwrap(), page);
        assert_eq!(p[0], Value::Text(page[0].decision_id.clone()));
        assert_eq!(p[1], Value::Text(page[1].decision_id.clone()));
        assert_eq!(id_second(&page[1].decision_id), Some(8));
        assert_eq!(id_second("dec_zz"), None);
    }
}
