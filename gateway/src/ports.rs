//! The ports through which the core talks to the world. Each host supplies
//! them: a SQL store, a clock, the rules engine and a source of ids.

use rules::{
    AmlDecision, AmlFacts, AmlReviewDecision, AmlReviewFacts, CaseReviewDecision, CaseReviewFacts, DepositDecision, DepositFacts, DueFacts, DueWork,
    ExclusionDecision, ExclusionFacts, ExclusionStatus, ExclusionStatusFacts, Horizons, JurisdictionProfile, KycDecision, KycFacts,
    LimitCancelDecision, LimitCancelFacts, LimitChangeDecision, LimitChangeFacts, LimitView, LimitsFacts, ListCandidate, NameQuery, OfacScored,
    PlayerNotice, RegulatorImportFacts, RegulatorOutcome, ReviewItem, ReviewState, RuleError, SanctionsStatus, SanctionsView, ScoredCandidate,
    ScreeningDecision, ScreeningFacts, TierBounds, TierFacts, WithdrawalDecision, WithdrawalFacts,
};

/// `Send + Sync` natively; nothing on wasm, where hosts are single-threaded.
#[cfg(not(target_arch = "wasm32"))]
pub trait MaybeSend: Send + Sync {}
#[cfg(not(target_arch = "wasm32"))]
impl<T: Send + Sync + ?Sized> MaybeSend for T {}
#[cfg(target_arch = "wasm32")]
pub trait MaybeSend {}
#[cfg(target_arch = "wasm32")]
impl<T: ?Sized> MaybeSend for T {}

/// The largest integer every store keeps exactly: D1 returns integers as JS
/// doubles, so stored values (and the store contract) stay within ±(2^53 − 1).
/// Input integers beyond it are refused as invalid.
pub const MAX_STORED_INTEGER: i64 = (1 << 53) - 1;

/// A SQL value. The schema uses only BIGINT, DOUBLE PRECISION and TEXT.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
}

impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Int(i64::from(v))
    }
}
impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Real(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::Text(v.to_string())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::Text(v)
    }
}
impl From<&String> for Value {
    fn from(v: &String) -> Self {
        Value::Text(v.clone())
    }
}
impl<T: Into<Value>> From<Option<T>> for Value {
    fn from(v: Option<T>) -> Self {
        v.map_or(Value::Null, Into::into)
    }
}

/// How many rows a statement in a batch must affect for the batch to commit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Any,
    /// exactly one row; otherwise the whole batch is rolled back with [`StoreError::Conflict`]
    One,
}

/// One statement of portable SQL: numbered placeholders `?1`, `?2`, ….
#[derive(Debug, Clone)]
pub struct Stmt {
    pub sql: &'static str,
    pub params: Vec<Value>,
    pub expect: Expect,
}

impl Stmt {
    pub fn new(sql: &'static str, params: Vec<Value>) -> Self {
        Stmt { sql, params, expect: Expect::Any }
    }
    pub fn expect_one(sql: &'static str, params: Vec<Value>) -> Self {
        Stmt { sql, params, expect: Expect::One }
    }
}

/// One read of [`Store::query_many`].
#[derive(Debug, Clone)]
pub struct Read {
    pub sql: &'static str,
    pub params: Vec<Value>,
}

impl Read {
    pub fn new(sql: &'static str, params: Vec<Value>) -> Self {
        Read { sql, params }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StoreError {
    /// a statement's row-count expectation failed; nothing was written
    #[error("statement {statement} of the batch did not affect the expected rows")]
    Conflict { statement: usize },
    /// a unique constraint was violated; nothing was written
    #[error("unique constraint violated")]
    Unique,
    /// the store cannot be reached now (refused, lost or restarting
    /// connection); a batch may or may not have been written, so a client
    /// retries with its idempotency key
    #[error("store unavailable: {0}")]
    Unavailable(String),
    #[error("store backend error: {0}")]
    Backend(String),
}

/// A result row, read by column index.
#[derive(Debug, Clone, PartialEq)]
pub struct Row(pub Vec<Value>);

impl Row {
    fn get(&self, i: usize) -> Result<&Value, StoreError> {
        self.0.get(i).ok_or_else(|| StoreError::Backend(format!("no column {i}")))
    }
    pub fn text(&self, i: usize) -> Result<String, StoreError> {
        match self.get(i)? {
            Value::Text(s) => Ok(s.clone()),
            other => Err(StoreError::Backend(format!("column {i} is not text: {other:?}"))),
        }
    }
    pub fn opt_text(&self, i: usize) -> Result<Option<String>, StoreError> {
        match self.get(i)? {
            Value::Null => Ok(None),
            _ => self.text(i).map(Some),
        }
    }
    pub fn int(&self, i: usize) -> Result<i64, StoreError> {
        match self.get(i)? {
            Value::Int(v) => Ok(*v),
            other => Err(StoreError::Backend(format!("column {i} is not an integer: {other:?}"))),
        }
    }
    pub fn opt_int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        match self.get(i)? {
            Value::Null => Ok(None),
            _ => self.int(i).map(Some),
        }
    }
    pub fn bool(&self, i: usize) -> Result<bool, StoreError> {
        self.int(i).map(|v| v != 0)
    }
    pub fn real(&self, i: usize) -> Result<f64, StoreError> {
        match self.get(i)? {
            Value::Real(v) => Ok(*v),
            Value::Int(v) => Ok(*v as f64),
            other => Err(StoreError::Backend(format!("column {i} is not a number: {other:?}"))),
        }
    }
}

/// The store: portable SQL with atomic batches and no interactive
/// transactions, so that Cloudflare D1 can back it as well as SQLite and
/// Postgres. Safety comes from unique constraints, conditional updates and
/// the row-count expectations of [`Stmt`].
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait Store: MaybeSend {
    async fn query(&self, sql: &'static str, params: Vec<Value>) -> Result<Vec<Row>, StoreError>;
    /// Runs every statement or none.
    async fn batch(&self, statements: Vec<Stmt>) -> Result<(), StoreError>;

    /// Runs independent reads in one round trip where the backend can (one
    /// blocking call on SQLite, pipelined on Postgres, one batch on D1); the
    /// results come back in the order of the reads.
    async fn query_many(&self, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
        let mut results = Vec::with_capacity(reads.len());
        for read in reads {
            results.push(self.query(read.sql, read.params).await?);
        }
        Ok(results)
    }

    /// The pool's connections (idle, in use), for a backend that pools them.
    fn connections(&self) -> Option<(usize, usize)> {
        None
    }

    /// Runs independent reads near the caller: on a read replica where the
    /// backend has them, in one batch with `fence` first (a batch is one
    /// snapshot, so the heartbeat `fence` reads dates the other reads),
    /// starting at least at `after` (a [`Store::bookmark`] the caller
    /// echoes). A store with one database runs `reads` alone on it and says
    /// so ([`ReadFrom::Primary`]: current). Only the exclusion check reads
    /// this way, behind the exclusions area's freshness fence; every
    /// other read stays on the primary.
    async fn query_near(&self, fence: Read, reads: Vec<Read>, after: Option<&str>) -> Result<NearRows, StoreError> {
        let _ = (fence, after);
        Ok(NearRows { rows: self.query_many(reads).await?, from: ReadFrom::Primary })
    }

    /// The position in the primary's history of the latest batch this store
    /// committed, which [`Store::query_near`] accepts as `after` to read its
    /// own writes at once; `None` for a store without replicas.
    fn bookmark(&self) -> Option<String> {
        None
    }

    /// The first column of the first row as an integer; 0 when there is no row.
    async fn scalar(&self, sql: &'static str, params: Vec<Value>) -> Result<i64, StoreError> {
        let rows = self.query(sql, params).await?;
        rows.first().map(|r| r.int(0)).transpose().map(Option::unwrap_or_default)
    }
}

/// Who answered a [`Store::query_near`].
#[derive(Debug, Clone, PartialEq)]
pub enum ReadFrom {
    /// the database every write goes to: current
    Primary,
    /// a read replica, perhaps behind the primary by any time: the rows of
    /// the fence read in the same snapshot, and the host's clock (unix
    /// milliseconds) read after the answer arrived
    Replica { fence: Vec<Row>, answered_at_ms: i64 },
}

/// The rows of a [`Store::query_near`], in the order of its reads, and who answered.
#[derive(Debug, Clone, PartialEq)]
pub struct NearRows {
    pub rows: Vec<Vec<Row>>,
    pub from: ReadFrom,
}

/// Per-key request rate limits. The default counts in the process
/// (the rate-limit area's `RateLimiter`); a host that runs as several
/// processes or isolates supplies a shared, strongly consistent counter.
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait RateLimit: MaybeSend {
    /// Counts one request of `key_id` against `limit_per_minute` and says where the key stands.
    async fn check(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState;
    /// Where `key_id` stands, without counting anything.
    async fn peek(&self, key_id: &str, limit_per_minute: u32, now: i64) -> RateState;
}

/// A key's quota after a request was counted, for the answer and its
/// `RateLimit-Policy` / `RateLimit` headers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateState {
    /// false when the request is over the limit (429)
    pub allowed: bool,
    pub limit: u32,
    pub window_seconds: u32,
    pub remaining: u32,
    /// seconds until the window resets; the `Retry-After` of a 429
    pub reset_seconds: u64,
}

/// Values that never change once written, kept near the callers (KV at the
/// edge). Never the authority for anything that can change: a miss or a
/// failure only means the store is asked.
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait PageCache: MaybeSend {
    async fn get(&self, key: &str) -> Option<String>;
    async fn put(&self, key: &str, value: &str);
}

/// Real time in unix seconds. Sandbox tenants see it shifted by their test clock.
pub trait Clock: MaybeSend {
    fn now(&self) -> i64;
}

/// Random identifiers and secrets.
pub trait Ids: MaybeSend {
    /// `len` cryptographically random bytes
    fn random_bytes(&self, len: usize) -> Vec<u8>;
}

/// The rules engine failed to reach a decision (a trap, a load failure).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RulesFault {
    #[error("rules engine failed: {0}")]
    Engine(String),
}

pub type RulesResult<T> = Result<T, RulesFault>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesVersion {
    pub version: String,
    pub component_sha256: String,
}

/// The compliance rules, as exported by the `cgw:rules@9.0.0` component:
/// one call per decision. A `RuleError` is the rules refusing the facts.
pub trait Rules: MaybeSend {
    fn identity(&self) -> RulesVersion;
    /// The rules' time spans; implementations ask the rules once and keep them.
    fn horizons(&self) -> Horizons;
    /// The jurisdiction profiles, asked once when the rules load.
    fn jurisdictions(&self) -> Vec<JurisdictionProfile>;
    fn decide_deposit(&self, facts: &DepositFacts) -> RulesResult<Result<DepositDecision, RuleError>>;
    fn decide_limit_change(&self, facts: &LimitChangeFacts) -> RulesResult<Result<LimitChangeDecision, RuleError>>;
    fn decide_limit_cancel(&self, facts: &LimitCancelFacts) -> RulesResult<LimitCancelDecision>;
    fn describe_limits(&self, facts: &LimitsFacts) -> RulesResult<Vec<LimitView>>;
    fn decide_withdrawal(&self, facts: &WithdrawalFacts) -> RulesResult<Result<WithdrawalDecision, RuleError>>;
    fn describe_tier(&self, facts: TierFacts) -> RulesResult<TierBounds>;
    /// What the player is told, word for word.
    fn player_message(&self, notice: &PlayerNotice) -> RulesResult<String>;
    /// When each item of a review list is due, and whether it is overdue.
    fn describe_reviews(&self, items: &[ReviewItem]) -> RulesResult<Vec<ReviewState>>;
    fn decide_kyc(&self, facts: &KycFacts) -> RulesResult<KycDecision>;
    fn decide_exclusion(&self, facts: &ExclusionFacts) -> RulesResult<Result<ExclusionDecision, RuleError>>;
    fn describe_exclusions(&self, facts: &ExclusionStatusFacts) -> RulesResult<ExclusionStatus>;
    fn decide_regulator_import(&self, facts: &RegulatorImportFacts) -> RulesResult<Vec<RegulatorOutcome>>;
    fn decide_screening(&self, facts: &ScreeningFacts) -> RulesResult<ScreeningDecision>;
    fn decide_aml(&self, facts: &AmlFacts) -> RulesResult<Result<AmlDecision, RuleError>>;
    fn decide_aml_review(&self, facts: &AmlReviewFacts) -> RulesResult<AmlReviewDecision>;
    /// The compliance team's search: every candidate scored, best first.
    fn score_names(&self, query: &NameQuery, candidates: &[ListCandidate]) -> RulesResult<Vec<ScoredCandidate>>;
    /// The compliance team's search as OFAC's own tool scores it, best first.
    fn score_names_ofac(&self, query: &str, candidates: &[ListCandidate]) -> RulesResult<Vec<OfacScored>>;
    /// The index keys of each name, for list imports and look-ups.
    fn index_keys(&self, names: &[String]) -> RulesResult<Vec<Vec<String>>>;
    fn describe_sanctions(&self, status: SanctionsStatus) -> RulesResult<SanctionsView>;
    fn decide_case_review(&self, facts: &CaseReviewFacts) -> RulesResult<CaseReviewDecision>;
    fn due_now(&self, facts: &DueFacts) -> RulesResult<DueWork>;
}

/// The rules library called directly, for tests and differential checks.
/// Production hosts run the component, whose hash auditors verify.
pub struct LibraryRules;

impl Rules for LibraryRules {
    fn identity(&self) -> RulesVersion {
        RulesVersion { version: rules::VERSION.to_string(), component_sha256: "library".to_string() }
    }
    fn horizons(&self) -> Horizons {
        rules::time_horizons()
    }
    fn jurisdictions(&self) -> Vec<JurisdictionProfile> {
        rules::jurisdictions()
    }
    fn decide_deposit(&self, facts: &DepositFacts) -> RulesResult<Result<DepositDecision, RuleError>> {
        Ok(rules::decide_deposit(facts))
    }
    fn decide_limit_change(&self, facts: &LimitChangeFacts) -> RulesResult<Result<LimitChangeDecision, RuleError>> {
        Ok(rules::decide_limit_change(facts))
    }
    fn decide_limit_cancel(&self, facts: &LimitCancelFacts) -> RulesResult<LimitCancelDecision> {
        Ok(rules::decide_limit_cancel(facts))
    }
    fn describe_limits(&self, facts: &LimitsFacts) -> RulesResult<Vec<LimitView>> {
        Ok(rules::describe_limits(facts))
    }
    fn decide_withdrawal(&self, facts: &WithdrawalFacts) -> RulesResult<Result<WithdrawalDecision, RuleError>> {
        Ok(rules::decide_withdrawal(facts))
    }
    fn describe_tier(&self, facts: TierFacts) -> RulesResult<TierBounds> {
        Ok(rules::describe_tier(facts))
    }
    fn player_message(&self, notice: &PlayerNotice) -> RulesResult<String> {
        Ok(rules::player_message(notice))
    }
    fn describe_reviews(&self, items: &[ReviewItem]) -> RulesResult<Vec<ReviewState>> {
        Ok(rules::describe_reviews(items))
    }
    fn decide_kyc(&self, facts: &KycFacts) -> RulesResult<KycDecision> {
        Ok(rules::decide_kyc(facts))
    }
    fn decide_exclusion(&self, facts: &ExclusionFacts) -> RulesResult<Result<ExclusionDecision, RuleError>> {
        Ok(rules::decide_exclusion(facts))
    }
    fn describe_exclusions(&self, facts: &ExclusionStatusFacts) -> RulesResult<ExclusionStatus> {
        Ok(rules::describe_exclusions(facts))
    }
    fn decide_regulator_import(&self, facts: &RegulatorImportFacts) -> RulesResult<Vec<RegulatorOutcome>> {
        Ok(rules::decide_regulator_import(facts))
    }
    fn decide_aml(&self, facts: &AmlFacts) -> RulesResult<Result<AmlDecision, RuleError>> {
        Ok(rules::decide_aml(facts))
    }
    fn decide_aml_review(&self, facts: &AmlReviewFacts) -> RulesResult<AmlReviewDecision> {
        Ok(rules::decide_aml_review(facts))
    }
    fn decide_screening(&self, facts: &ScreeningFacts) -> RulesResult<ScreeningDecision> {
        Ok(rules::decide_screening(facts))
    }
    fn score_names(&self, query: &NameQuery, candidates: &[ListCandidate]) -> RulesResult<Vec<ScoredCandidate>> {
        Ok(rules::score_candidates(query, candidates))
    }
    fn score_names_ofac(&self, query: &str, candidates: &[ListCandidate]) -> RulesResult<Vec<OfacScored>> {
        Ok(rules::ofac_scores(query, candidates))
    }
    fn index_keys(&self, names: &[String]) -> RulesResult<Vec<Vec<String>>> {
        Ok(names.iter().map(|n| rules::index_keys(n)).collect())
    }
    fn describe_sanctions(&self, status: SanctionsStatus) -> RulesResult<SanctionsView> {
        Ok(rules::describe_sanctions(status))
    }
    fn decide_case_review(&self, facts: &CaseReviewFacts) -> RulesResult<CaseReviewDecision> {
        Ok(rules::decide_case_review(facts))
    }
    fn due_now(&self, facts: &DueFacts) -> RulesResult<DueWork> {
        Ok(rules::due_now(facts))
    }
}

/// What an endpoint answered to a webhook delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SendOutcome {
    /// The endpoint answered with this status and, perhaps, a `Retry-After` header.
    Answered { status: u16, retry_after: Option<String> },
    /// No answer: connection refused, timeout, TLS failure…
    Failed(String),
}

/// The transport for webhooks: one POST, no redirects followed.
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait WebhookSender: MaybeSend {
    async fn post(&self, url: &str, headers: &[(String, String)], body: &[u8]) -> SendOutcome;
}

/// A request to a third-party vendor (a screening or identity-verification
/// API), built by the core's adapters and sent by the host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VendorRequest {
    pub method: &'static str,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// A vendor's answer; transport failures and timeouts are `Err`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VendorResponse {
    pub status: u16,
    pub body: Vec<u8>,
}

/// The host's outbound HTTP client, for vendors and published lists.
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait VendorHttp: MaybeSend {
    /// One call to a vendor's API: a short timeout (seconds), no redirects.
    async fn send(&self, request: VendorRequest) -> Result<VendorResponse, String>;
    /// A published file (a sanctions list): a GET that follows redirects and
    /// may take minutes; `Err` unless it answers 200 and the whole body
    /// arrives, and for anything larger than `max_bytes`. Errors never
    /// carry the URL, which may hold credentials.
    async fn download(&self, url: &str, max_bytes: u64) -> Result<Vec<u8>, String>;
}

/// Name resolution for the check that production webhooks go to public
/// addresses only; tests inject their own answers.
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait Resolver: MaybeSend {
    /// The addresses `host` resolves to now; empty when it does not resolve.
    async fn resolve(&self, host: &str, port: u16) -> Vec<std::net::IpAddr>;
}

/// The host's timer, for the checks that must answer within a bound (readiness).
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait Timer: MaybeSend {
    async fn sleep_ms(&self, milliseconds: u64);
}

/// The W3C `traceparent` of the work under way (a request's span), kept with
/// each event it fires so that the event's webhooks continue its trace.
pub trait TraceContext: MaybeSend {
    fn traceparent(&self) -> Option<String>;
}

/// Tells the host's delivery loop that new events were committed, so that
/// they go out at once rather than at the next tick.
pub trait Waker: MaybeSend {
    fn wake(&self);
}
