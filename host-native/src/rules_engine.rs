//! Runs the rules component in wasmtime. The only module that runs `bindgen!`
//! (for the WIT types); the conversions are `rules_model::wit_bridge!`, shared with
//! the guest, and the calls are generated from the one list of the
//! interface's functions, `rules_model::for_each_wit_function!`.

use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use gateway::ports::{Rules, RulesFault, RulesResult, RulesVersion};
use rules_model::{
    AccessRequestFacts, AccessRequestPlan, CutoffFacts, ErasureFacts, ErasurePlan, FilingCodes, FilingFacts, NameLegibility, RetentionCutoffs,
};
use rules_model::{
    AmlDecision, AmlFacts, AmlReviewDecision, AmlReviewFacts, CaseReviewDecision, CaseReviewFacts, Convert, DepositDecision, DepositFacts, DueFacts,
    DueWork, ExclusionDecision, ExclusionFacts, ExclusionStatus, ExclusionStatusFacts, Horizons, JurisdictionProfile, KycDecision, KycFacts,
    LimitCancelDecision, LimitCancelFacts, LimitChangeDecision, LimitChangeFacts, LimitView, LimitsFacts, ListCandidate, NameQuery, OfacScored,
    PlayerNotice, RegulatorImportFacts, RegulatorOutcome, ReviewItem, ReviewState, RuleError, SanctionsStatus, SanctionsView, ScoredCandidate,
    ScreeningDecision, ScreeningFacts, TierBounds, TierFacts, WithdrawalDecision, WithdrawalFacts,
};
use rules_model::{NationalIdKind, RegisterCheckDecision, RegisterCheckFacts};
use sha2::{Digest, Sha256};
use wasmtime::component::{Component, ComponentExportIndex, ComponentNamedList, Instance, Lift, Linker, Lower, TypedFunc};
use wasmtime::{Config, Engine, ProfilingStrategy, Store};

mod bindings {
    wasmtime::component::bindgen!({ world: "rules", path: "../wit" });
}

use bindings::exports::cgw::rules::decisions as wit;

rules_model::wit_bridge!();

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
    /// the time bound of one call, in epoch ticks
    deadline_ticks: u64,
    identity: RulesVersion,
    horizons: Horizons,
    jurisdictions: Vec<JurisdictionProfile>,
}

struct Warm {
    store: Store<()>,
    exports: Exports,
}

/// The interface the component exports its functions in: `cgw:rules/decisions@13.1.0`.
fn interface_name() -> String {
    match rules_model::WIT_PACKAGE.split_once('@') {
        Some((package, version)) => format!("{package}/decisions@{version}"),
        None => format!("{}/decisions", rules_model::WIT_PACKAGE),
    }
}

/// One export of the interface, typed: its name is the list's snake name in kebab case.
fn typed<P, R>(store: &mut Store<()>, instance: &Instance, interface: &ComponentExportIndex, name: &str) -> wasmtime::Result<TypedFunc<P, R>>
where
    P: ComponentNamedList + Lower,
    R: ComponentNamedList + Lift,
{
    let wit_name = name.replace('_', "-");
    let index = instance
        .get_export_index(&mut *store, Some(interface), &wit_name)
        .ok_or_else(|| wasmtime::format_err!("the rules component exports no function {wit_name}"))?;
    instance.get_typed_func::<P, R>(&mut *store, &index)
}

/// An argument owned for lowering: `borrow` cloned, `copy` as it is.
macro_rules! owned {
    (borrow $e:expr) => {
        ToOwned::to_owned($e)
    };
    (copy $e:expr) => {
        $e
    };
}

/// The component's exports, each typed once per instance, and the calls of
/// [`Rules`] through them.
macro_rules! component_calls {
    ([] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* }
        loaded { $( $lname:ident () -> $lret:ty = $llib:ident; )* }) => {
        #[allow(clippy::type_complexity)]
        struct Exports {
            $( $name: TypedFunc<($(<<$t as ToOwned>::Owned as WitTwin>::Wit,)*), (<$ret as WitTwin>::Wit,)>, )*
            $( $lname: TypedFunc<(), (<$lret as WitTwin>::Wit,)>, )*
        }

        impl Exports {
            fn new(store: &mut Store<()>, instance: &Instance) -> wasmtime::Result<Self> {
                let name = interface_name();
                let interface = instance
                    .get_export_index(&mut *store, None, &name)
                    .ok_or_else(|| wasmtime::format_err!("the rules component does not export {name}"))?;
                Ok(Exports {
                    $( $name: typed(store, instance, &interface, stringify!($name))?, )*
                    $( $lname: typed(store, instance, &interface, stringify!($lname))?, )*
                })
            }
        }

        /// The answers asked once when the rules load.
        struct Loaded {
            $( $lname: $lret, )*
        }

        impl ComponentRules {
            fn ask_loaded(&self) -> RulesResult<Loaded> {
                Ok(Loaded { $( $lname: self.call(stringify!($lname), |e, s| e.$lname.call(s, ()))?.0.convert(), )* })
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
            $(
                fn $name(&self, $($arg: gateway::__rules_param!($mode $t)),*) -> RulesResult<$ret> {
                    $( let $arg: <<$t as ToOwned>::Owned as WitTwin>::Wit = owned!($mode $arg).convert(); )*
                    Ok(self.call(stringify!($name), |e, s| e.$name.call(s, ($($arg,)*)))?.0.convert())
                }
            )*
        }
    };
}

rules_model::for_each_wit_function!(component_calls);

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
        // For profiling: `/tmp/perf-PID.map` names the guest's compiled functions to `perf`.
        if std::env::var_os("CGW_RULES_PERFMAP").is_some() {
            config.profiler(ProfilingStrategy::PerfMap);
        }
        let engine = Engine::new(&config).map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
        start_epoch_ticker(&engine);
        let component = Component::new(&engine, bytes).map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
        let linker = Linker::new(&engine);
        let mut loaded = ComponentRules {
            engine,
            component,
            linker,
            warm: Mutex::new(None),
            deadline_ticks: DEADLINE_TICKS,
            identity: RulesVersion { version: String::new(), component_sha256: hex::encode(Sha256::digest(bytes)) },
            horizons: Horizons::UNANSWERED,
            jurisdictions: Vec::new(),
        };
        let answers = loaded.ask_loaded().map_err(|e| LoadError::Invalid(e.to_string()))?;
        loaded.identity.version = answers.version;
        loaded.horizons = answers.time_horizons;
        loaded.jurisdictions = answers.jurisdictions;
        Ok(loaded)
    }

    /// The same rules with another time bound a call (at least one tick). For
    /// tests that compare answers under a loaded machine, where a thread
    /// starved of CPU for [`CALL_DEADLINE`] would trap a correct call.
    pub fn with_call_deadline(mut self, deadline: Duration) -> Self {
        self.deadline_ticks = (deadline.as_millis() / EPOCH_TICK.as_millis()).max(1) as u64;
        self
    }

    /// What the component imports; the rules must import nothing.
    pub fn imports(&self) -> Vec<String> {
        self.component.component_type().imports(&self.engine).map(|(name, _)| name.to_string()).collect()
    }

    fn instantiate(&self) -> wasmtime::Result<Warm> {
        let mut store = Store::new(&self.engine, ());
        store.set_epoch_deadline(self.deadline_ticks);
        let instance = self.linker.instantiate(&mut store, &self.component)?;
        let exports = Exports::new(&mut store, &instance)?;
        Ok(Warm { store, exports })
    }

    fn call<T>(&self, operation: &'static str, f: impl FnOnce(&Exports, &mut Store<()>) -> wasmtime::Result<T>) -> RulesResult<T> {
        let _span = tracing::debug_span!("rules", operation).entered();
        let started = std::time::Instant::now();
        let result = self.call_warm(f);
        metrics::histogram!(gateway::telemetry::RULES_DURATION, "operation" => operation).record(started.elapsed().as_secs_f64());
        result
    }

    fn call_warm<T>(&self, f: impl FnOnce(&Exports, &mut Store<()>) -> wasmtime::Result<T>) -> RulesResult<T> {
        let mut guard = self.warm.lock().map_err(|_| RulesFault::Engine("rules instance lock poisoned".into()))?;
        if guard.is_none() {
            *guard = Some(self.instantiate().map_err(|e| RulesFault::Engine(format!("{e:#}")))?);
        }
        let Some(warm) = guard.as_mut() else { return Err(RulesFault::Engine("no rules instance".into())) };
        warm.store.set_epoch_deadline(self.deadline_ticks);
        match f(&warm.exports, &mut warm.store) {
            Ok(value) => Ok(value),
            Err(e) => {
                *guard = None;
                Err(RulesFault::Engine(format!("{e:#}")))
            }
        }
    }
}
