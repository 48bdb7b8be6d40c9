//! Runs the rules component in wasmtime. The only module that runs `bindgen!`;
//! the conversions are `rules::wit_bridge!`, shared with the guest.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use gateway::ports::{Rules, RulesFault, RulesResult, RulesVersion};
use rules::{
    AmlDecision, AmlFacts, AmlReviewDecision, AmlReviewFacts, CaseReviewDecision, CaseReviewFacts, Convert, DepositDecision, DepositFacts, DueFacts,
    DueWork, ExclusionDecision, ExclusionFacts, ExclusionStatus, ExclusionStatusFacts, Horizons, JurisdictionProfile, KycDecision, KycFacts,
    LimitCancelDecision, LimitCancelFacts, LimitChangeDecision, LimitChangeFacts, LimitView, LimitsFacts, ListCandidate, NameQuery, OfacScored,
    PlayerNotice, RegulatorImportFacts, RegulatorOutcome, ReviewItem, ReviewState, RuleError, SanctionsStatus, SanctionsView, ScoredCandidate,
    ScreeningDecision, ScreeningFacts, TierBounds, TierFacts, WithdrawalDecision, WithdrawalFacts,
};
use sha2::{Digest, Sha256};
use wasmtime::component::{Component, Linker};
use wasmtime::{Config, Engine, Store};

mod bindings {
    wasmtime::component::bindgen!({ world: "rules", path: "../wit" });
}

use bindings::exports::cgw::rules::decisions as wit;

rules::wit_bridge!();

/// The audited default component, built by `build-rules` and committed as
/// `rules/cgw_rules.wasm`; CI fails when a rebuild gives other bytes.
pub const EMBEDDED_COMPONENT: &[u8] = include_bytes!("../../rules/cgw_rules.wasm");

/// The longest one rules call may run; the slowest real decision takes microseconds.
pub const CALL_DEADLINE: Duration = Duration::from_millis(100);
/// The epoch advances every tick; a call may run this many ticks.
const EPOCH_TICK: Duration = Duration::from_millis(10);
const DEADLINE_TICKS: u64 = (CALL_DEADLINE.as_millis() / EPOCH_TICK.as_millis()) as u64;

/// Advances the engine's epoch every tick, for as long as the engine lives.
fn start_epoch_ticker(engine: &Engine) {
    let weak = engine.weak();
    let spawned = std::thread::Builder::new().name("rules-epoch".into()).spawn(move || {
        while let Some(engine) = weak.upgrade() {
            engine.increment_epoch();
            drop(engine);
            std::thread::sleep(EPOCH_TICK);
        }
    });
    if let Err(e) = spawned {
        tracing::error!(target: "rules", error = %e, "the rules time bound is unavailable: its ticker cannot start");
    }
}

/// A compiled rules component with one warm instance, replaced after a trap.
pub struct ComponentRules {
    engine: Engine,
    component: Component,
    linker: Linker<()>,
    warm: Mutex<Option<Warm>>,
    identity: RulesVersion,
    horizons: Horizons,
    jurisdictions: Vec<JurisdictionProfile>,
}

struct Warm {
    store: Store<()>,
    rules: bindings::Rules,
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read the rules component {path}: {source}")]
    Read { path: String, source: std::io::Error },
    #[error("the rules component is not valid: {0}")]
    Invalid(String),
}

impl ComponentRules {
    pub fn load(path: &Path) -> Result<Self, LoadError> {
        let bytes = std::fs::read(path).map_err(|source| LoadError::Read { path: path.display().to_string(), source })?;
        Self::from_bytes(&bytes)
    }

    /// The component carried in the binary.
    pub fn embedded() -> Result<Self, LoadError> {
        Self::from_bytes(EMBEDDED_COMPONENT)
    }

    /// Compiles the component once; every decision reuses a warm instance.
    /// Each call runs under a time bound: a component that does not return
    /// within [`CALL_DEADLINE`] is stopped (a trap), the call answers a fault
    /// (503 `rules_unavailable`), and the next call gets a fresh instance.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LoadError> {
        let mut config = Config::new();
        config.wasm_component_model(true);
        config.epoch_interruption(true);
        let engine = Engine::new(&config).map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
        start_epoch_ticker(&engine);
        let component = Component::new(&engine, bytes).map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
        let linker = Linker::new(&engine);
        let mut loaded = ComponentRules {
            engine,
            component,
            linker,
            warm: Mutex::new(None),
            identity: RulesVersion { version: String::new(), component_sha256: hex::encode(Sha256::digest(bytes)) },
            horizons: rules::time_horizons(),
            jurisdictions: Vec::new(),
        };
        let invalid = |e: RulesFault| LoadError::Invalid(e.to_string());
        loaded.identity.version = loaded.call("version", |r, s| r.call_version(s)).map_err(invalid)?;
        loaded.horizons = loaded.call("time_horizons", |r, s| r.call_time_horizons(s)).map_err(invalid)?.convert();
        loaded.jurisdictions = loaded.call("jurisdictions", |r, s| r.call_jurisdictions(s)).map_err(invalid)?.convert();
        Ok(loaded)
    }

    /// What the component imports; the rules must import nothing.
    pub fn imports(&self) -> Vec<String> {
        self.component.component_type().imports(&self.engine).map(|(name, _)| name.to_string()).collect()
    }

    fn instantiate(&self) -> wasmtime::Result<Warm> {
        let mut store = Store::new(&self.engine, ());
        store.set_epoch_deadline(DEADLINE_TICKS);
        let rules = bindings::Rules::instantiate(&mut store, &self.component, &self.linker)?;
        Ok(Warm { store, rules })
    }

    fn call<T>(&self, operation: &'static str, f: impl FnOnce(&wit::Guest, &mut Store<()>) -> wasmtime::Result<T>) -> RulesResult<T> {
        let _span = tracing::debug_span!("rules", operation).entered();
        let started = std::time::Instant::now();
        let result = self.call_warm(f);
        metrics::histogram!(gateway::telemetry::RULES_DURATION, "operation" => operation).record(started.elapsed().as_secs_f64());
        result
    }

    fn call_warm<T>(&self, f: impl FnOnce(&wit::Guest, &mut Store<()>) -> wasmtime::Result<T>) -> RulesResult<T> {
        let mut guard = self.warm.lock().map_err(|_| RulesFault::Engine("rules instance lock poisoned".into()))?;
        if guard.is_none() {
            *guard = Some(self.instantiate().map_err(|e| RulesFault::Engine(format!("{e:#}")))?);
        }
        let Some(warm) = guard.as_mut() else { return Err(RulesFault::Engine("no rules instance".into())) };
        warm.store.set_epoch_deadline(DEADLINE_TICKS);
        match f(warm.rules.cgw_rules_decisions(), &mut warm.store) {
            Ok(value) => Ok(value),
            Err(e) => {
                *guard = None;
                Err(RulesFault::Engine(format!("{e:#}")))
            }
        }
    }
}

impl Rules for ComponentRules {
    fn identity(&self) -> RulesVersion {
        self.identity.clone()
    }
    fn horizons(&self) -> Horizons {
        self.horizons
    }
    fn jurisdictions(&self) -> Vec<JurisdictionProfile> {
        self.jurisdictions.clone()
    }
    fn decide_deposit(&self, facts: &DepositFacts) -> RulesResult<Result<DepositDecision, RuleError>> {
        let facts: wit::DepositFacts = facts.clone().convert();
        Ok(self.call("decide_deposit", |r, s| r.call_decide_deposit(s, &facts))?.convert())
    }
    fn decide_limit_change(&self, facts: &LimitChangeFacts) -> RulesResult<Result<LimitChangeDecision, RuleError>> {
        let facts: wit::LimitChangeFacts = facts.clone().convert();
        Ok(self.call("decide_limit_change", |r, s| r.call_decide_limit_change(s, &facts))?.convert())
    }
    fn decide_limit_cancel(&self, facts: &LimitCancelFacts) -> RulesResult<LimitCancelDecision> {
        let facts: wit::LimitCancelFacts = (*facts).convert();
        Ok(self.call("decide_limit_cancel", |r, s| r.call_decide_limit_cancel(s, facts))?.convert())
    }
    fn describe_limits(&self, facts: &LimitsFacts) -> RulesResult<Vec<LimitView>> {
        let facts: wit::LimitsFacts = facts.clone().convert();
        Ok(self.call("describe_limits", |r, s| r.call_describe_limits(s, &facts))?.convert())
    }
    fn decide_withdrawal(&self, facts: &WithdrawalFacts) -> RulesResult<Result<WithdrawalDecision, RuleError>> {
        let facts: wit::WithdrawalFacts = facts.clone().convert();
        Ok(self.call("decide_withdrawal", |r, s| r.call_decide_withdrawal(s, facts))?.convert())
    }
    fn describe_tier(&self, facts: TierFacts) -> RulesResult<TierBounds> {
        let facts: wit::TierFacts = facts.convert();
        Ok(self.call("describe_tier", |r, s| r.call_describe_tier(s, facts))?.convert())
    }
    fn player_message(&self, notice: &PlayerNotice) -> RulesResult<String> {
        let notice: wit::PlayerNotice = notice.clone().convert();
        self.call("player_message", |r, s| r.call_player_message(s, &notice))
    }
    fn describe_reviews(&self, items: &[ReviewItem]) -> RulesResult<Vec<ReviewState>> {
        let items: Vec<wit::ReviewItem> = items.to_vec().convert();
        Ok(self.call("describe_reviews", |r, s| r.call_describe_reviews(s, &items))?.convert())
    }
    fn decide_aml(&self, facts: &AmlFacts) -> RulesResult<Result<AmlDecision, RuleError>> {
        let facts: wit::AmlFacts = facts.clone().convert();
        Ok(self.call("decide_aml", |r, s| r.call_decide_aml(s, &facts))?.convert())
    }
    fn decide_aml_review(&self, facts: &AmlReviewFacts) -> RulesResult<AmlReviewDecision> {
        let facts: wit::AmlReviewFacts = (*facts).convert();
        Ok(self.call("decide_aml_review", |r, s| r.call_decide_aml_review(s, facts))?.convert())
    }
    fn decide_kyc(&self, facts: &KycFacts) -> RulesResult<KycDecision> {
        let facts: wit::KycFacts = facts.clone().convert();
        Ok(self.call("decide_kyc", |r, s| r.call_decide_kyc(s, &facts))?.convert())
    }
    fn decide_exclusion(&self, facts: &ExclusionFacts) -> RulesResult<Result<ExclusionDecision, RuleError>> {
        let facts: wit::ExclusionFacts = facts.clone().convert();
        Ok(self.call("decide_exclusion", |r, s| r.call_decide_exclusion(s, &facts))?.convert())
    }
    fn describe_exclusions(&self, facts: &ExclusionStatusFacts) -> RulesResult<ExclusionStatus> {
        let facts: wit::ExclusionStatusFacts = facts.clone().convert();
        Ok(self.call("describe_exclusions", |r, s| r.call_describe_exclusions(s, &facts))?.convert())
    }
    fn decide_regulator_import(&self, facts: &RegulatorImportFacts) -> RulesResult<Vec<RegulatorOutcome>> {
        let facts: wit::RegulatorImportFacts = facts.clone().convert();
        Ok(self.call("decide_regulator_import", |r, s| r.call_decide_regulator_import(s, &facts))?.convert())
    }
    fn decide_screening(&self, facts: &ScreeningFacts) -> RulesResult<ScreeningDecision> {
        let facts: wit::ScreeningFacts = facts.clone().convert();
        Ok(self.call("decide_screening", |r, s| r.call_decide_screening(s, &facts))?.convert())
    }
    fn score_names(&self, query: &NameQuery, candidates: &[ListCandidate]) -> RulesResult<Vec<ScoredCandidate>> {
        let query: wit::NameQuery = query.clone().convert();
        let candidates: Vec<wit::ListCandidate> = candidates.to_vec().convert();
        Ok(self.call("score_names", |r, s| r.call_score_names(s, &query, &candidates))?.convert())
    }
    fn score_names_ofac(&self, query: &str, candidates: &[ListCandidate]) -> RulesResult<Vec<OfacScored>> {
        let candidates: Vec<wit::ListCandidate> = candidates.to_vec().convert();
        Ok(self.call("score_names_ofac", |r, s| r.call_score_names_ofac(s, query, &candidates))?.convert())
    }
    fn index_keys(&self, names: &[String]) -> RulesResult<Vec<Vec<String>>> {
        self.call("index_keys", |r, s| r.call_index_keys(s, names))
    }
    fn describe_sanctions(&self, status: SanctionsStatus) -> RulesResult<SanctionsView> {
        let status: wit::SanctionsStatus = status.convert();
        Ok(self.call("describe_sanctions", |r, s| r.call_describe_sanctions(s, status))?.convert())
    }
    fn decide_case_review(&self, facts: &CaseReviewFacts) -> RulesResult<CaseReviewDecision> {
        let facts: wit::CaseReviewFacts = (*facts).convert();
        Ok(self.call("decide_case_review", |r, s| r.call_decide_case_review(s, facts))?.convert())
    }
    fn due_now(&self, facts: &DueFacts) -> RulesResult<DueWork> {
        let facts: wit::DueFacts = facts.clone().convert();
        Ok(self.call("due_now", |r, s| r.call_due_now(s, &facts))?.convert())
    }
}
