//! The ports through which the core talks to the world. Each host supplies
//! them: a SQL store, a clock, the rules engine and a source of ids.

use rules_model::{
    AccessRequestFacts, AccessRequestPlan, CutoffFacts, ErasureFacts, ErasurePlan, FilingCodes, FilingFacts, NameLegibility, RetentionCutoffs,
};
use rules_model::{
    AmlDecision, AmlFacts, AmlReviewDecision, AmlReviewFacts, CaseReviewDecision, CaseReviewFacts, DepositDecision, DepositFacts, DueFacts, DueWork,
    ExclusionDecision, ExclusionFacts, ExclusionStatus, ExclusionStatusFacts, Horizons, JurisdictionProfile, KycDecision, KycFacts,
    LimitCancelDecision, LimitCancelFacts, LimitChangeDecision, LimitChangeFacts, LimitView, LimitsFacts, ListCandidate, NameQuery, OfacScored,
    PlayerNotice, RegulatorImportFacts, RegulatorOutcome, ReviewItem, ReviewState, RuleError, SanctionsStatus, SanctionsView, ScoredCandidate,
    ScreeningDecision, ScreeningFacts, TierBounds, TierFacts, WithdrawalDecision, WithdrawalFacts,
};
use rules_model::{NationalIdKind, RegisterCheckDecision, RegisterCheckFacts};

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

    /// Brings the query planner's statistics of `tables` up to date after a
    /// bulk load, before the loaded rows are read: a planner that still
    /// takes a freshly loaded table for a small one can choose a plan that
    /// scans it once per row of another (on Postgres, minutes for a
    /// sanctions list until autovacuum analyses it). A backend whose
    /// planner keeps no such statistics does nothing.
    async fn refresh_statistics(&self, tables: &[&'static str]) -> Result<(), StoreError> {
        let _ = tables;
        Ok(())
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
    /// `len` cryptographically random bytes, for secrets (keys, passwords,
    /// tokens, seals): from the operating system
    fn random_bytes(&self, len: usize) -> Vec<u8>;
    /// `len` unpredictable bytes for an identifier (a request's, a decision's):
    /// a host may draw them from a user-space CSPRNG the OS seeds, which costs
    /// no system call on every request
    fn id_bytes(&self, len: usize) -> Vec<u8> {
        self.random_bytes(len)
    }
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

/// The parameter type of a rules call in the [`Rules`] trait: `borrow T` is
/// `&T`, `copy T` is `T`.
#[doc(hidden)]
#[macro_export]
macro_rules! __rules_param {
    (borrow $t:ty) => {
        &$t
    };
    (copy $t:ty) => {
        $t
    };
}

/// Lends an owned argument to a rules call as its [`Rules`] parameter takes it.
#[doc(hidden)]
#[macro_export]
macro_rules! __rules_lend {
    (borrow $e:expr) => {
        &$e
    };
    (copy $e:expr) => {
        $e
    };
}

/// The [`Rules`] trait's calls, one per function of [`rules_model::for_each_wit_function!`].
macro_rules! rules_trait_calls {
    ([] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* } loaded { $($loaded:tt)* }) => {
        $( $(#[$doc])* fn $name(&self, $($arg: $crate::__rules_param!($mode $t)),*) -> RulesResult<$ret>; )*
    };
}

/// `Rules` for a type, each call the rules library's function of the list.
/// Expanded where the `rules` library and the types of the calls are in
/// scope: by the test-support crate `rules-library` (differential tests,
/// benchmarks) and by the gateway's own unit tests. The gateway and the
/// hosts never link the library: production runs the component.
#[doc(hidden)]
#[macro_export]
macro_rules! library_rules {
    ($ty:ty) => {
        impl $crate::ports::Rules for $ty {
            fn identity(&self) -> $crate::ports::RulesVersion {
                $crate::ports::RulesVersion { version: rules::VERSION.to_string(), component_sha256: "library".to_string() }
            }
            fn horizons(&self) -> Horizons {
                rules::time_horizons()
            }
            fn jurisdictions(&self) -> Vec<JurisdictionProfile> {
                rules::jurisdictions()
            }
            $crate::ports::for_each_wit_function!($crate::__library_calls);
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __library_calls {
    ([] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* } loaded { $($loaded:tt)* }) => {
        $( fn $name(&self, $($arg: $crate::__rules_param!($mode $t)),*) -> $crate::ports::RulesResult<$ret> { Ok(rules::$lib($($arg),*)) } )*
    };
}

/// Implements every call of [`Rules`] by forwarding it to the `Rules` that
/// `self.$via()` returns; for test doubles that wrap an implementation
/// (count calls, inject faults). `identity`, `horizons` and `jurisdictions`
/// are written by hand beside it. The types of the calls must be in scope
/// (`use rules_model::*`).
#[macro_export]
macro_rules! delegate_rules_calls {
    ($via:ident) => {
        $crate::ports::for_each_wit_function!($crate::__delegate_rules_calls, $via);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __delegate_rules_calls {
    ([$via:ident] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* } loaded { $($loaded:tt)* }) => {
        $( fn $name(&self, $($arg: $crate::__rules_param!($mode $t)),*) -> $crate::ports::RulesResult<$ret> { self.$via().$name($($arg),*) } )*
    };
}

#[doc(hidden)]
pub use rules_model::for_each_wit_function;

/// The compliance rules, as exported by the `cgw:rules@13.1.0` component:
/// one call per decision. A `RuleError` is the rules refusing the facts.
/// The calls are generated from the one list of the interface's functions,
/// [`rules_model::for_each_wit_function!`].
pub trait Rules: MaybeSend {
    fn identity(&self) -> RulesVersion;
    /// The rules' time spans; implementations ask the rules once and keep them.
    fn horizons(&self) -> Horizons;
    /// The jurisdiction profiles, asked once when the rules load.
    fn jurisdictions(&self) -> Vec<JurisdictionProfile>;
    rules_model::for_each_wit_function!(rules_trait_calls);
}

/// Rules that answer nothing: every call a fault. For tools that need a
/// [`crate::Gateway`] to write what no rule decides (an admin key's SQL).
pub struct NoRules;

macro_rules! refused_calls {
    ([] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* } loaded { $($loaded:tt)* }) => {
        $( fn $name(&self, $(_: $crate::__rules_param!($mode $t)),*) -> RulesResult<$ret> { Err(RulesFault::Engine("no rules here".to_string())) } )*
    };
}

impl Rules for NoRules {
    fn identity(&self) -> RulesVersion {
        RulesVersion { version: String::new(), component_sha256: String::new() }
    }
    fn horizons(&self) -> Horizons {
        Horizons::UNANSWERED
    }
    fn jurisdictions(&self) -> Vec<JurisdictionProfile> {
        Vec::new()
    }
    rules_model::for_each_wit_function!(refused_calls);
}

/// The rules library called directly, for the gateway's unit tests.
#[cfg(test)]
pub struct LibraryRules;

#[cfg(test)]
mod library {
    use rules::*;
    crate::library_rules!(super::LibraryRules);
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
    /// a client certificate to present over TLS (CRUKS's PKIoverheid certificate)
    pub client_identity: Option<ClientIdentity>,
}

/// A client certificate and its private key, both PEM, for mutual TLS.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    pub certificate_pem: String,
    pub key_pem: String,
}

impl std::fmt::Debug for ClientIdentity {
    /// never the key
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClientIdentity(..)")
    }
}

/// A vendor's answer; transport failures and timeouts are `Err`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VendorResponse {
    pub status: u16,
    /// names in lower case (GAMSTOP answers in its headers)
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl VendorResponse {
    /// The first value of a header, by its lower-case name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// The host's outbound HTTP client, for vendors and published lists.
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait VendorHttp: MaybeSend {
    /// One call to a vendor's API: a short timeout (seconds), no redirects;
    /// over https, the request's client certificate presented, or an error
    /// where the host cannot present it.
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

/// The host's timer, for the checks that must answer within a bound (readiness,
/// the register checks' budget).
#[cfg_attr(not(target_arch = "wasm32"), async_trait::async_trait)]
#[cfg_attr(target_arch = "wasm32", async_trait::async_trait(?Send))]
pub trait Timer: MaybeSend {
    async fn sleep_ms(&self, milliseconds: u64);
    /// Real time in unix milliseconds, for bounds and latencies within a request.
    fn now_ms(&self) -> i64;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// One function as the list declares it: the WIT name, each parameter's
    /// name and type, and the result, all in WIT notation.
    #[derive(Debug, PartialEq)]
    struct Signature {
        name: String,
        params: Vec<(String, String)>,
        result: String,
    }

    /// `DepositFacts` → `deposit-facts`, `Vec<X>` and `[X]` → `list<x>`,
    /// `Result` → `result`, `Option` → `option`, `String` and `str` → `string`.
    fn wit_type(rust: &str) -> String {
        fn word(w: &str) -> String {
            match w {
                "Result" => "result".to_string(),
                "Option" => "option".to_string(),
                "Vec" => "list".to_string(),
                "String" | "str" => "string".to_string(),
                _ => {
                    let mut kebab = String::new();
                    for (i, c) in w.chars().enumerate() {
                        if c.is_ascii_uppercase() && i > 0 {
                            kebab.push('-');
                        }
                        kebab.push(c.to_ascii_lowercase());
                    }
                    kebab
                }
            }
        }
        let (mut out, mut current) = (String::new(), String::new());
        for c in rust.chars().filter(|c| !c.is_whitespace()) {
            if c.is_ascii_alphanumeric() || c == '_' {
                current.push(c);
                continue;
            }
            if !current.is_empty() {
                out.push_str(&word(&std::mem::take(&mut current)));
            }
            match c {
                '[' => out.push_str("list<"),
                ']' => out.push('>'),
                _ => out.push(c),
            }
        }
        if !current.is_empty() {
            out.push_str(&word(&current));
        }
        out
    }

    macro_rules! signatures {
        ([] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* }
            loaded { $( $lname:ident () -> $lret:ty = $llib:ident; )* }) => {
            fn declared() -> Vec<Signature> { vec![
                $(Signature {
                    name: stringify!($name).replace('_', "-"),
                    params: vec![$((stringify!($arg).replace('_', "-"), wit_type(stringify!($t)))),*],
                    result: wit_type(stringify!($ret)),
                },)*
                $(Signature { name: stringify!($lname).replace('_', "-"), params: vec![], result: wit_type(stringify!($lret)) },)*
            ] }
        };
    }
    rules_model::for_each_wit_function!(signatures);

    /// Every `name: func(…) -> …;` of the interface, in WIT notation.
    fn wit_functions(wit: &str) -> Vec<Signature> {
        let mut out = Vec::new();
        for line in wit.lines().map(str::trim) {
            let Some((name, rest)) = line.split_once(": func(") else { continue };
            let (params, result) = rest.split_once(')').expect("a closing parenthesis");
            let params = params
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (n, t) = p.split_once(':').expect("name: type");
                    (n.trim().to_string(), t.chars().filter(|c| !c.is_whitespace()).collect())
                })
                .collect();
            let result = result.trim().trim_start_matches("->").trim_end_matches(';').chars().filter(|c| !c.is_whitespace()).collect();
            out.push(Signature { name: name.to_string(), params, result });
        }
        out
    }

    #[test]
    fn the_function_list_is_the_wit_interface() {
        let mut declared = declared();
        let mut exported = wit_functions(include_str!("../../wit/rules.wit"));
        assert!(exported.len() > 20, "the WIT file's functions were not found");
        declared.sort_by(|a, b| a.name.cmp(&b.name));
        exported.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(declared, exported, "rules_model::for_each_wit_function! and wit/rules.wit disagree");
    }

    /// The negative twin: the comparison sees a changed name, parameter or result.
    #[test]
    fn a_function_the_list_does_not_declare_is_seen() {
        let declared = declared();
        let wit = include_str!("../../wit/rules.wit");
        for (from, to) in [
            ("decide-deposit: func(facts: deposit-facts)", "decide-deposits: func(facts: deposit-facts)"),
            ("describe-tier: func(facts: tier-facts) -> result<tier-bounds, rule-error>", "describe-tier: func(facts: tier-facts) -> tier-bounds"),
            ("index-keys: func(names: list<string>)", "index-keys: func(names: list<string>, more: u32)"),
        ] {
            assert!(wit.contains(from), "{from}");
            let mut changed = wit_functions(&wit.replace(from, to));
            let mut declared: Vec<&Signature> = declared.iter().collect();
            changed.sort_by(|a, b| a.name.cmp(&b.name));
            declared.sort_by(|a, b| a.name.cmp(&b.name));
            assert_ne!(declared, changed.iter().collect::<Vec<_>>(), "{to}");
        }
        assert_eq!(wit_type("Result < DepositDecision, RuleError >"), "result<deposit-decision,rule-error>");
        assert_eq!(wit_type("[ListCandidate]"), "list<list-candidate>");
        assert_eq!(wit_type("Vec<Vec<String>>"), "list<list<string>>");
    }

    /// Every logged operation replays through its call: the replay's match is
    /// generated from the list and the compiler holds it exhaustive; this
    /// checks each arm asks the call of its operation.
    #[test]
    fn every_operation_replays_through_the_library() {
        use rules_model::Operation;
        let facts: Vec<(Operation, String)> = vec![
            (Operation::Tier, crate::decisions::canonical(&TierFacts::of(rules_model::KycTier::Tier2, 2))),
            (Operation::Sanctions, crate::decisions::canonical(&SanctionsStatus::HitReviewPending)),
        ];
        for (operation, input) in facts {
            let replayed = crate::decisions::replay(&LibraryRules, operation, &input).expect("replays");
            let expected = match operation {
                Operation::Tier => crate::decisions::canonical(&rules::describe_tier(&TierFacts::of(rules_model::KycTier::Tier2, 2))),
                _ => crate::decisions::canonical(&rules::describe_sanctions(SanctionsStatus::HitReviewPending)),
            };
            assert_eq!(replayed, expected, "{operation:?}");
        }
        let refused = crate::decisions::replay(&LibraryRules, Operation::Deposit, "{}");
        assert!(matches!(refused, Err(crate::decisions::ReplayError::Input { operation: "deposit", .. })), "{refused:?}");
    }
}
