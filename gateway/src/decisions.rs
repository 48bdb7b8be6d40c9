//! The decision log: every decision the rules make for a request, with the
//! rules version and SHA-256, the exact input facts and the output, both in
//! their canonical encoding (serde JSON of the rules types, fields in
//! declaration order). A state-changing decision is written in the batch of
//! the change it causes; a read-only one is queued and written in batches off
//! the request path ([`Gateway::flush_decisions`]). Any recorded decision can
//! be replayed through another rules component ([`replay`]).

use std::sync::Mutex;

use base64::Engine as _;
use rules::{Operation, RuleError};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value as Json};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Rules, RulesFault, Stmt, StoreError};
use crate::{time, Ctx, Gateway, Reply};

/// How many queued decisions one flush writes per batch.
const FLUSH_BATCH: usize = 256;
/// How many decisions one flushed INSERT carries.
const ROWS_PER_INSERT: usize = 16;
const INSERT_ONE: &str =
    "INSERT INTO decisions (decision_id, operation, environment, tenant_id, user_id, decided_at, rules_version, rules_sha256, input, output)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
const COLUMNS: usize = 10;
const DEFAULT_PAGE: i64 = 100;
const MAX_PAGE: i64 = 1000;

/// The INSERT of [`ROWS_PER_INSERT`] decisions at once, built once.
fn insert_many() -> &'static str {
    static SQL: std::sync::OnceLock<&'static str> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        let rows: Vec<String> = (0..ROWS_PER_INSERT)
            .map(|r| format!("({})", (1..=COLUMNS).map(|c| format!("?{}", r * COLUMNS + c)).collect::<Vec<_>>().join(", ")))
            .collect();
        let sql = format!(
            "INSERT INTO decisions (decision_id, operation, environment, tenant_id, user_id, decided_at, rules_version, rules_sha256, input, output) VALUES {}",
            rows.join(", ")
        );
        Box::leak(sql.into_boxed_str())
    })
}

/// Queued decisions as statements: full chunks in one INSERT each, the rest one by one.
fn flush_statements(queued: &[Stmt]) -> Vec<Stmt> {
    let mut out = Vec::with_capacity(queued.len() / ROWS_PER_INSERT + ROWS_PER_INSERT);
    let mut chunks = queued.chunks_exact(ROWS_PER_INSERT);
    for chunk in chunks.by_ref() {
        out.push(Stmt::new(insert_many(), chunk.iter().flat_map(|s| s.params.iter().cloned()).collect()));
    }
    out.extend(chunks.remainder().iter().cloned());
    out
}

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
    pub decision_id: String,
    statement: Stmt,
}

impl DecisionLog {
    /// The insert, for the batch of the change the decision causes.
    pub fn statement(&self) -> Stmt {
        self.statement.clone()
    }
}

/// Queued read-only decisions, written by [`Gateway::flush_decisions`].
#[derive(Default)]
pub(crate) struct DecisionQueue(Mutex<Vec<Stmt>>);

impl DecisionQueue {
    fn push(&self, s: Stmt) {
        if let Ok(mut q) = self.0.lock() {
            q.push(s);
        }
    }
    fn take(&self) -> Vec<Stmt> {
        self.0.lock().map(|mut q| std::mem::take(&mut *q)).unwrap_or_default()
    }
    fn requeue(&self, mut failed: Vec<Stmt>) {
        if let Ok(mut q) = self.0.lock() {
            failed.append(&mut q);
            *q = failed;
        }
    }
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
        // Ids sort by time, so the log's key grows at its end and a time window is a key range.
        let decision_id = format!("{}{}", id_floor(decided_at), hex::encode(self.ids.random_bytes(8)));
        let identity = self.rules.identity();
        let statement = Stmt::new(
            INSERT_ONE,
            vec![
                decision_id.as_str().into(),
                operation.as_str().into(),
                scope.environment.as_str().into(),
                scope.tenant_id.as_str().into(),
                scope.user_id.as_str().into(),
                decided_at.into(),
                identity.version.into(),
                identity.component_sha256.into(),
                input.into(),
                output.into(),
            ],
        );
        DecisionLog { decision_id, statement }
    }

    /// Queues the log of a decision that changed nothing.
    pub(crate) fn defer(&self, log: DecisionLog) {
        if self.config.skip_read_decision_log {
            return;
        }
        self.decision_queue.push(log.statement);
    }

    /// Writes the queued read-only decisions; hosts call it on a short timer
    /// and at shutdown. A batch that fails goes back to the queue.
    pub async fn flush_decisions(&self) -> Result<usize, StoreError> {
        let mut pending = self.decision_queue.take();
        let mut written = 0;
        let store = self.decision_store.as_deref().unwrap_or(self.store.as_ref());
        while !pending.is_empty() {
            let rest = pending.split_off(pending.len().min(FLUSH_BATCH));
            let count = pending.len();
            if let Err(e) = store.batch(flush_statements(&pending)).await {
                pending.extend(rest);
                self.decision_queue.requeue(pending);
                return Err(e);
            }
            written += count;
            pending = rest;
        }
        Ok(written)
    }

    /// Deletes decisions older than the retention; a scheduled job.
    pub(crate) async fn prune_decisions(&self, now: i64) -> Result<(), StoreError> {
        let cutoff = now.saturating_sub(self.config.decision_retention_seconds());
        self.store.batch(vec![Stmt::new("DELETE FROM decisions WHERE decided_at < ?1", vec![cutoff.into()])]).await
    }

    /// A recorded decision, as an admin or the replay command sees it.
    pub async fn load_decision(&self, decision_id: &str) -> ApiResult<Option<RecordedDecision>> {
        let rows = self
            .store
            .query(
                "SELECT decision_id, operation, environment, tenant_id, user_id, decided_at, rules_version, rules_sha256, input, output
                 FROM decisions WHERE decision_id = ?1",
                vec![decision_id.into()],
            )
            .await?;
        rows.first().map(recorded_from_row).transpose()
    }

    pub(crate) async fn get_decision(&self, ctx: &Ctx<'_>, decision_id: &str) -> ApiResult<Reply> {
        let found = self.load_decision(decision_id).await?.filter(|d| d.environment == ctx.caller.environment);
        let decision = found.ok_or_else(|| ApiError::not_found("decision_not_found", "no such decision in this environment"))?;
        Ok(Reply::ok(decision.to_json()))
    }

    /// Replays a recorded decision through the rules this host runs.
    pub(crate) async fn replay_decision(&self, ctx: &Ctx<'_>, decision_id: &str) -> ApiResult<Reply> {
        let found = self.load_decision(decision_id).await?.filter(|d| d.environment == ctx.caller.environment);
        let decision = found.ok_or_else(|| ApiError::not_found("decision_not_found", "no such decision in this environment"))?;
        let replayed = replay(self.rules.as_ref(), decision.operation, &decision.input).map_err(|e| match e {
            ReplayError::Rules(fault) => ApiError::from(fault),
            ReplayError::Input { .. } => ApiError::unprocessable("unreplayable_decision", e.to_string()),
        })?;
        let parse = |t: &str| serde_json::from_str::<Json>(t).map_err(|_| ApiError::internal());
        let replayed = parse(&replayed)?;
        let differences = differences(&parse(&decision.output)?, &replayed);
        let identity = self.rules.identity();
        Ok(Reply::ok(json!({
            "decision_id": decision.decision_id,
            "identical": differences.is_empty(),
            "differences": differences,
            "recorded_rules_sha256": decision.rules_sha256,
            "replayed_rules_version": identity.version,
            "replayed_rules_sha256": identity.component_sha256,
            "replayed_output": replayed,
        })))
    }

    pub(crate) async fn list_decisions(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let q = &ctx.query;
        let tenant = q.get("tenant_id").unwrap_or("");
        let user = q.get("user_id").unwrap_or("");
        let bound = |name: &'static str, default: i64| -> ApiResult<i64> {
            q.get(name).map_or(Ok(default), |t| {
                time::parse(t).ok_or_else(|| ApiError::bad_request("invalid_field", format!("{name} must be an ISO 8601 timestamp")))
            })
        };
        let (from, to) = (bound("from", 0)?, bound("to", i64::MAX)?);
        let limit = match q.get("limit") {
            None => DEFAULT_PAGE,
            Some(t) => t
                .parse::<i64>()
                .ok()
                .filter(|n| (1..=MAX_PAGE).contains(n))
                .ok_or_else(|| ApiError::bad_request("invalid_limit", format!("limit must be an integer from 1 to {MAX_PAGE}")))?,
        };
        let after_id = match q.get("cursor") {
            None => String::new(),
            Some(c) => decode_cursor(c).ok_or_else(|| ApiError::bad_request("invalid_cursor", "cursor is not one this service issued"))?,
        };
        let rows = self
            .store
            .query(
                "SELECT decision_id, operation, environment, tenant_id, user_id, decided_at, rules_version, rules_sha256, input, output
                 FROM decisions
                 WHERE decision_id > ?6 AND decision_id >= ?8 AND decision_id < ?9
                   AND environment = ?1 AND (?2 = '' OR tenant_id = ?2) AND (?3 = '' OR user_id = ?3) AND decided_at >= ?4 AND decided_at <= ?5
                 ORDER BY decision_id LIMIT ?7",
                vec![
                    ctx.caller.environment.as_str().into(),
                    tenant.into(),
                    user.into(),
                    from.into(),
                    to.into(),
                    after_id.into(),
                    (limit + 1).into(),
                    id_floor(from).into(),
                    id_floor(to.saturating_add(1)).into(),
                ],
            )
            .await?;
        let has_more = rows.len() as i64 > limit;
        let decisions: Vec<RecordedDecision> = rows.iter().take(limit as usize).map(recorded_from_row).collect::<ApiResult<_>>()?;
        let next = decisions.last().filter(|_| has_more).map(|d| Json::String(encode_cursor(&d.decision_id)));
        Ok(Reply::ok(json!({
            "decisions": decisions.iter().map(RecordedDecision::to_json).collect::<Vec<_>>(),
            "next_cursor": next.unwrap_or(Json::Null),
            "has_more": has_more,
        })))
    }
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
    pub fn to_json(&self) -> Json {
        let parse = |text: &str| serde_json::from_str::<Json>(text).unwrap_or(Json::Null);
        json!({
            "decision_id": self.decision_id,
            "operation": self.operation.as_str(),
            "environment": self.environment.as_str(),
            "tenant_id": self.tenant_id,
            "user_id": if self.user_id.is_empty() { Json::Null } else { Json::String(self.user_id.clone()) },
            "decided_at": time::format(self.decided_at),
            "rules_version": self.rules_version,
            "rules_sha256": self.rules_sha256,
            "input": parse(&self.input),
            "output": parse(&self.output),
        })
    }
}

fn recorded_from_row(row: &crate::ports::Row) -> ApiResult<RecordedDecision> {
    Ok(RecordedDecision {
        decision_id: row.text(0)?,
        operation: Operation::parse(&row.text(1)?).ok_or_else(ApiError::internal)?,
        environment: Environment::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
        tenant_id: row.text(3)?,
        user_id: row.text(4)?,
        decided_at: row.int(5)?,
        rules_version: row.text(6)?,
        rules_sha256: row.text(7)?,
        input: row.text(8)?,
        output: row.text(9)?,
    })
}

/// The smallest decision id of a second: ids are `dec_` and the second in
/// eleven hex digits, then random; clamped to the range the format holds.
fn id_floor(at: i64) -> String {
    format!("dec_{:011x}", at.clamp(0, 0xFFF_FFFF_FFFF))
}

fn encode_cursor(id: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json!({ "v": 1, "after": id }).to_string())
}

fn decode_cursor(cursor: &str) -> Option<String> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let value: Json = serde_json::from_slice(&bytes).ok()?;
    (value.get("v")?.as_i64()? == 1).then_some(())?;
    value.get("after")?.as_str().map(str::to_string)
}

/// Why a recorded decision could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("the recorded input does not decode as {operation} facts: {detail}")]
    Input { operation: &'static str, detail: String },
    #[error(transparent)]
    Rules(#[from] RulesFault),
}

fn facts<T: DeserializeOwned>(operation: Operation, input: &str) -> Result<T, ReplayError> {
    serde_json::from_str(input).map_err(|e| ReplayError::Input { operation: operation.as_str(), detail: e.to_string() })
}

/// Runs a recorded input through `rules` and returns the output in the
/// canonical encoding, to compare with the recorded one.
pub fn replay(rules: &dyn Rules, operation: Operation, input: &str) -> Result<String, ReplayError> {
    Ok(match operation {
        Operation::Deposit => canonical(&rules.decide_deposit(&facts(operation, input)?)?),
        Operation::LimitChange => canonical(&rules.decide_limit_change(&facts(operation, input)?)?),
        Operation::LimitCancel => canonical(&rules.decide_limit_cancel(&facts(operation, input)?)?),
        Operation::Limits => canonical(&rules.describe_limits(&facts(operation, input)?)?),
        Operation::Withdrawal => canonical(&rules.decide_withdrawal(&facts(operation, input)?)?),
        Operation::Tier => canonical(&rules.describe_tier(facts(operation, input)?)?),
        Operation::Kyc => canonical(&rules.decide_kyc(&facts(operation, input)?)?),
        Operation::Exclusion => canonical(&rules.decide_exclusion(&facts(operation, input)?)?),
        Operation::ExclusionStatus => canonical(&rules.describe_exclusions(&facts(operation, input)?)?),
        Operation::RegulatorImport => canonical(&rules.decide_regulator_import(&facts(operation, input)?)?),
        Operation::Screening => canonical(&rules.decide_screening(&facts(operation, input)?)?),
        Operation::CaseReview => canonical(&rules.decide_case_review(&facts(operation, input)?)?),
        Operation::Sanctions => canonical(&rules.describe_sanctions(facts(operation, input)?)?),
        Operation::DueNow => canonical(&rules.due_now(&facts(operation, input)?)?),
    })
}

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

/// Adds `x-decision-id` to a reply.
pub(crate) fn with_decision(mut reply: Reply, log: &DecisionLog) -> Reply {
    reply.decision_id = Some(log.decision_id.clone());
    reply
}

/// Adds `x-decision-id` to an error decided by the rules.
pub(crate) fn error_with_decision(mut error: ApiError, log: &DecisionLog) -> ApiError {
    error.decision_id = Some(log.decision_id.as_str().into());
    error
}
