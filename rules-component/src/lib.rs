//! Exports the `rules` library as the `cgw:rules@13.1.0` component. No logic
//! of its own: each export converts its facts, calls the library once and
//! converts the decision back, through the conversions of `rules::wit_bridge!`.
//! The exports are generated from the one list of the interface's functions,
//! `rules::for_each_wit_function!`.
//! It is built for `wasm32-unknown-unknown` only; on other targets it is empty.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ world: "rules", path: "../wit" });

use exports::cgw::rules::decisions as wit;
use rules::Convert;
#[allow(unused_imports)]
use rules::{
    AccessRequestFacts, AccessRequestPlan, CutoffFacts, ErasureFacts, ErasurePlan, FilingCodes, FilingFacts, NameLegibility, RetentionCutoffs,
};
#[allow(unused_imports)]
use rules::{
    AmlDecision, AmlFacts, AmlReviewDecision, AmlReviewFacts, CaseReviewDecision, CaseReviewFacts, DepositDecision, DepositFacts, DueFacts, DueWork,
    ExclusionDecision, ExclusionFacts, ExclusionStatus, ExclusionStatusFacts, Horizons, JurisdictionProfile, KycDecision, KycFacts,
    LimitCancelDecision, LimitCancelFacts, LimitChangeDecision, LimitChangeFacts, LimitView, LimitsFacts, ListCandidate, NameQuery, OfacScored,
    PlayerNotice, RegulatorImportFacts, RegulatorOutcome, ReviewItem, ReviewState, RuleError, SanctionsStatus, SanctionsView, ScoredCandidate,
    ScreeningDecision, ScreeningFacts, TierBounds, TierFacts, WithdrawalDecision, WithdrawalFacts,
};
use rules::{NationalIdKind, RegisterCheckDecision, RegisterCheckFacts};

rules::wit_bridge!();

struct Component;
export!(Component);

/// A test double for the host's time bound: with `runaway-for-tests`,
/// `decide-deposit` never returns.
#[inline(always)]
fn runaway(_name: &str) {
    #[cfg(feature = "runaway-for-tests")]
    if _name == "decide_deposit" {
        loop {
            core::hint::spin_loop();
        }
    }
}

/// Each export: its facts converted to the library's types, one library
/// call, the decision converted back.
macro_rules! guest_exports {
    ([] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* }
        loaded { $( $lname:ident () -> $lret:ty = $llib:ident; )* }) => {
        impl wit::Guest for Component {
            $(
                fn $name($($arg: <<$t as ToOwned>::Owned as WitTwin>::Wit),*) -> <$ret as WitTwin>::Wit {
                    runaway(stringify!($name));
                    $(let $arg: <$t as ToOwned>::Owned = $arg.convert();)*
                    rules::$lib($(lend!($mode $arg)),*).convert()
                }
            )*
            $(
                fn $lname() -> <$lret as WitTwin>::Wit {
                    rules::$llib().convert()
                }
            )*
        }
    };
}

/// Lends an owned argument as the library takes it: `borrow` by reference, `copy` by value.
macro_rules! lend {
    (borrow $e:expr) => {
        &$e
    };
    (copy $e:expr) => {
        $e
    };
}

rules::for_each_wit_function!(guest_exports);
