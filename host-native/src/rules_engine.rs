//! Runs the rules component in wasmtime. The only module that runs `bindgen!`.

use std::path::Path;
use std::sync::Mutex;

use gateway::ports::{Rules, RulesFault, RulesResult, RulesVersion};
use rules::{
    Cooloff, Deposit, DepositBreach, DepositDecision, DepositLimit, ExclusionDuration, ExclusionTerm, KycTier, LimitWindow, RuleError,
    ScreeningOutcome, StubKycOutcome, TierBounds, WindowUsage, WithdrawalAssessment,
};
use sha2::{Digest, Sha256};
use wasmtime::component::{Component, Linker};
use wasmtime::{Config, Engine, Store};

mod bindings {
    wasmtime::component::bindgen!({ world: "rules", path: "../wit" });
}

use bindings::exports::cgw::rules::decisions as wit;

/// A compiled rules component with one warm instance, replaced after a trap.
pub struct ComponentRules {
    engine: Engine,
    component: Component,
    linker: Linker<()>,
    warm: Mutex<Option<Warm>>,
    identity: RulesVersion,
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

    /// Compiles the component once; every decision reuses a warm instance.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LoadError> {
        let mut config = Config::new();
        config.wasm_component_model(true);
        let engine = Engine::new(&config).map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
        let component = Component::new(&engine, bytes).map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
        let linker = Linker::new(&engine);
        let mut loaded = ComponentRules {
            engine,
            component,
            linker,
            warm: Mutex::new(None),
            identity: RulesVersion { version: String::new(), component_sha256: hex::encode(Sha256::digest(bytes)) },
        };
        let version = loaded.call(|r, s| r.call_version(s)).map_err(|e| LoadError::Invalid(e.to_string()))?;
        loaded.identity.version = version;
        Ok(loaded)
    }

    /// What the component imports; the rules must import nothing.
    pub fn imports(&self) -> Vec<String> {
        self.component.component_type().imports(&self.engine).map(|(name, _)| name.to_string()).collect()
    }

    fn instantiate(&self) -> wasmtime::Result<Warm> {
        let mut store = Store::new(&self.engine, ());
        let rules = bindings::Rules::instantiate(&mut store, &self.component, &self.linker)?;
        Ok(Warm { store, rules })
    }

    fn call<T>(&self, f: impl FnOnce(&wit::Guest, &mut Store<()>) -> wasmtime::Result<T>) -> RulesResult<T> {
        let mut guard = self.warm.lock().map_err(|_| RulesFault::Engine("rules instance lock poisoned".into()))?;
        if guard.is_none() {
            *guard = Some(self.instantiate().map_err(|e| RulesFault::Engine(format!("{e:#}")))?);
        }
        let Some(warm) = guard.as_mut() else { return Err(RulesFault::Engine("no rules instance".into())) };
        match f(warm.rules.cgw_rules_decisions(), &mut warm.store) {
            Ok(value) => Ok(value),
            Err(e) => {
                *guard = None;
                Err(RulesFault::Engine(format!("{e:#}")))
            }
        }
    }
}

fn tier_in(t: KycTier) -> wit::KycTier {
    match t {
        KycTier::Tier0 => wit::KycTier::Tier0,
        KycTier::Tier1 => wit::KycTier::Tier1,
        KycTier::Tier2 => wit::KycTier::Tier2,
        KycTier::Tier3 => wit::KycTier::Tier3,
        KycTier::Tier4 => wit::KycTier::Tier4,
    }
}

fn tier_out(t: wit::KycTier) -> KycTier {
    match t {
        wit::KycTier::Tier0 => KycTier::Tier0,
        wit::KycTier::Tier1 => KycTier::Tier1,
        wit::KycTier::Tier2 => KycTier::Tier2,
        wit::KycTier::Tier3 => KycTier::Tier3,
        wit::KycTier::Tier4 => KycTier::Tier4,
    }
}

fn window_in(w: LimitWindow) -> wit::LimitWindow {
    match w {
        LimitWindow::Daily => wit::LimitWindow::Daily,
        LimitWindow::Weekly => wit::LimitWindow::Weekly,
        LimitWindow::Monthly => wit::LimitWindow::Monthly,
    }
}

fn window_out(w: wit::LimitWindow) -> LimitWindow {
    match w {
        wit::LimitWindow::Daily => LimitWindow::Daily,
        wit::LimitWindow::Weekly => LimitWindow::Weekly,
        wit::LimitWindow::Monthly => LimitWindow::Monthly,
    }
}

fn rule_error(e: wit::RuleError) -> RulesFault {
    RulesFault::Rule(match e {
        wit::RuleError::NonPositiveAmount => RuleError::NonPositiveAmount,
        wit::RuleError::AmountTooLarge => RuleError::AmountTooLarge,
    })
}

fn deposits_in(deposits: &[Deposit]) -> wit::Deposits {
    wit::Deposits { amount_cents: deposits.iter().map(|d| d.amount_cents).collect(), at: deposits.iter().map(|d| d.at).collect() }
}

fn term_in(t: ExclusionTerm) -> wit::ExclusionTerm {
    wit::ExclusionTerm { expires_at: t.expires_at }
}

impl Rules for ComponentRules {
    fn identity(&self) -> RulesVersion {
        self.identity.clone()
    }

    fn tier_for_cumulative(&self, cumulative_cents: i64) -> RulesResult<KycTier> {
        self.call(|r, s| r.call_tier_for_cumulative(s, cumulative_cents))?.map(tier_out).map_err(rule_error)
    }

    fn bounds_of_tier(&self, tier: KycTier) -> RulesResult<TierBounds> {
        let b = self.call(|r, s| r.call_bounds_of_tier(s, tier_in(tier)))?;
        Ok(TierBounds { tier: tier_out(b.tier), ceiling_cents: b.ceiling_cents, next_tier_at_cents: b.next_tier_at_cents })
    }

    fn assess_withdrawal(&self, verified: KycTier, cumulative_cents: i64, amount_cents: i64) -> RulesResult<WithdrawalAssessment> {
        let a = self.call(|r, s| r.call_assess_withdrawal(s, tier_in(verified), cumulative_cents, amount_cents))?.map_err(rule_error)?;
        Ok(WithdrawalAssessment {
            required_tier: tier_out(a.required_tier),
            verification_required: a.verification_required,
            ceiling_cents: a.ceiling_cents,
            remaining_cents: a.remaining_cents,
        })
    }

    fn limit_cooloff(&self, current_cents: Option<i64>, requested_cents: i64) -> RulesResult<Cooloff> {
        let c = self.call(|r, s| r.call_limit_cooloff(s, current_cents, requested_cents))?.map_err(rule_error)?;
        Ok(Cooloff { is_increase: c.is_increase, cooloff_seconds: c.cooloff_seconds })
    }

    fn window_seconds(&self, window: LimitWindow) -> RulesResult<i64> {
        self.call(|r, s| r.call_window_seconds(s, window_in(window)))
    }

    fn window_usage_at(&self, now: i64, window: LimitWindow, deposits: &[Deposit]) -> RulesResult<WindowUsage> {
        let deposits = deposits_in(deposits);
        let u = self.call(|r, s| r.call_window_usage_at(s, now, window_in(window), &deposits))?;
        Ok(WindowUsage { spent_cents: u.spent_cents, next_reset_at: u.next_reset_at })
    }

    fn check_deposit(&self, now: i64, limits: &[DepositLimit], deposits: &[Deposit], amount_cents: i64) -> RulesResult<DepositDecision> {
        let limits: Vec<wit::DepositLimit> =
            limits.iter().map(|l| wit::DepositLimit { window: window_in(l.window), amount_cents: l.amount_cents }).collect();
        let deposits = deposits_in(deposits);
        let decision = self.call(|r, s| r.call_check_deposit(s, now, &limits, &deposits, amount_cents))?.map_err(rule_error)?;
        Ok(match decision {
            wit::DepositDecision::Allowed(a) => DepositDecision::Allowed { would_remain_cents: a.would_remain_cents },
            wit::DepositDecision::Rejected(b) => DepositDecision::Rejected(DepositBreach {
                window: window_out(b.window),
                limit_cents: b.limit_cents,
                already_spent_cents: b.already_spent_cents,
                max_allowed_now_cents: b.max_allowed_now_cents,
                next_reset_at: b.next_reset_at,
            }),
        })
    }

    fn exclusion_expiry(&self, duration: ExclusionDuration, effective_from: i64) -> RulesResult<Option<i64>> {
        let d = match duration {
            ExclusionDuration::Hours24 => wit::ExclusionDuration::Hours24,
            ExclusionDuration::Days7 => wit::ExclusionDuration::Days7,
            ExclusionDuration::Days30 => wit::ExclusionDuration::Days30,
            ExclusionDuration::Months6 => wit::ExclusionDuration::Months6,
            ExclusionDuration::Year1 => wit::ExclusionDuration::Year1,
            ExclusionDuration::Permanent => wit::ExclusionDuration::Permanent,
        };
        self.call(|r, s| r.call_exclusion_expiry(s, d, effective_from))?.map_err(rule_error)
    }

    fn most_restrictive_exclusion(&self, now: i64, exclusions: &[ExclusionTerm]) -> RulesResult<Option<u32>> {
        let terms: Vec<wit::ExclusionTerm> = exclusions.iter().copied().map(term_in).collect();
        self.call(|r, s| r.call_most_restrictive_exclusion(s, now, &terms))
    }

    fn exclusion_lengthens(&self, current: ExclusionTerm, proposed: ExclusionTerm) -> RulesResult<bool> {
        self.call(|r, s| r.call_exclusion_lengthens(s, term_in(current), term_in(proposed)))
    }

    fn stub_screen(&self, first_name: &str, last_name: &str) -> RulesResult<ScreeningOutcome> {
        let who = wit::Identity { first_name: first_name.to_string(), last_name: last_name.to_string() };
        let o = self.call(|r, s| r.call_stub_screen(s, &who))?;
        Ok(ScreeningOutcome { hit: o.hit, match_count: o.match_count, highest_score: o.highest_score })
    }

    fn stub_kyc(&self, external_user_id: &str) -> RulesResult<StubKycOutcome> {
        Ok(match self.call(|r, s| r.call_stub_kyc(s, external_user_id))? {
            wit::StubKycOutcome::Approve => StubKycOutcome::Approve,
            wit::StubKycOutcome::Reject => StubKycOutcome::Reject,
            wit::StubKycOutcome::ManualReview => StubKycOutcome::ManualReview,
        })
    }
}
