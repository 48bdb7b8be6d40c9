//! Exports the `rules` library as the `cgw:rules@9.0.0` component. No logic
//! of its own: each export converts its facts, calls the library once and
//! converts the decision back, through the conversions of `rules::wit_bridge!`.
//! It is built for `wasm32-unknown-unknown` only; on other targets it is empty.
#![cfg(target_arch = "wasm32")]

wit_bindgen::generate!({ world: "rules", path: "../wit" });

use exports::cgw::rules::decisions as wit;
use rules::Convert;

rules::wit_bridge!();

struct Component;
export!(Component);

impl wit::Guest for Component {
    #[cfg_attr(feature = "runaway-for-tests", allow(unused_variables))]
    fn decide_deposit(facts: wit::DepositFacts) -> Result<wit::DepositDecision, wit::RuleError> {
        #[cfg(feature = "runaway-for-tests")]
        loop {
            core::hint::spin_loop();
        }
        #[allow(unreachable_code)]
        rules::decide_deposit(&facts.convert()).convert()
    }
    fn decide_limit_change(facts: wit::LimitChangeFacts) -> Result<wit::LimitChangeDecision, wit::RuleError> {
        rules::decide_limit_change(&facts.convert()).convert()
    }
    fn decide_limit_cancel(facts: wit::LimitCancelFacts) -> wit::LimitCancelDecision {
        rules::decide_limit_cancel(&facts.convert()).convert()
    }
    fn describe_limits(facts: wit::LimitsFacts) -> Vec<wit::LimitView> {
        rules::describe_limits(&facts.convert()).convert()
    }
    fn decide_withdrawal(facts: wit::WithdrawalFacts) -> Result<wit::WithdrawalDecision, wit::RuleError> {
        rules::decide_withdrawal(&facts.convert()).convert()
    }
    fn describe_reviews(items: Vec<wit::ReviewItem>) -> Vec<wit::ReviewState> {
        let items: Vec<rules::ReviewItem> = items.convert();
        rules::describe_reviews(&items).convert()
    }
    fn player_message(notice: wit::PlayerNotice) -> String {
        rules::player_message(&notice.convert())
    }
    fn describe_tier(facts: wit::TierFacts) -> wit::TierBounds {
        rules::describe_tier(facts.convert()).convert()
    }
    fn decide_kyc(facts: wit::KycFacts) -> wit::KycDecision {
        rules::decide_kyc(&facts.convert()).convert()
    }
    fn decide_exclusion(facts: wit::ExclusionFacts) -> Result<wit::ExclusionDecision, wit::RuleError> {
        rules::decide_exclusion(&facts.convert()).convert()
    }
    fn describe_exclusions(facts: wit::ExclusionStatusFacts) -> wit::ExclusionStatus {
        rules::describe_exclusions(&facts.convert()).convert()
    }
    fn decide_regulator_import(facts: wit::RegulatorImportFacts) -> Vec<wit::RegulatorOutcome> {
        rules::decide_regulator_import(&facts.convert()).convert()
    }
    fn decide_aml(facts: wit::AmlFacts) -> Result<wit::AmlDecision, wit::RuleError> {
        rules::decide_aml(&facts.convert()).convert()
    }
    fn decide_aml_review(facts: wit::AmlReviewFacts) -> wit::AmlReviewDecision {
        rules::decide_aml_review(&facts.convert()).convert()
    }
    fn decide_screening(facts: wit::ScreeningFacts) -> wit::ScreeningDecision {
        rules::decide_screening(&facts.convert()).convert()
    }
    fn score_names(query: wit::NameQuery, candidates: Vec<wit::ListCandidate>) -> Vec<wit::ScoredCandidate> {
        let candidates: Vec<rules::ListCandidate> = candidates.convert();
        rules::score_candidates(&query.convert(), &candidates).convert()
    }
    fn score_names_ofac(query: String, candidates: Vec<wit::ListCandidate>) -> Vec<wit::OfacScored> {
        let candidates: Vec<rules::ListCandidate> = candidates.convert();
        rules::ofac_scores(&query, &candidates).convert()
    }
    fn index_keys(names: Vec<String>) -> Vec<Vec<String>> {
        names.iter().map(|n| rules::index_keys(n)).collect()
    }
    fn describe_sanctions(status: wit::SanctionsStatus) -> wit::SanctionsView {
        rules::describe_sanctions(status.convert()).convert()
    }
    fn decide_case_review(facts: wit::CaseReviewFacts) -> wit::CaseReviewDecision {
        rules::decide_case_review(&facts.convert()).convert()
    }
    fn due_now(facts: wit::DueFacts) -> wit::DueWork {
        rules::due_now(&facts.convert()).convert()
    }
    fn jurisdictions() -> Vec<wit::JurisdictionProfile> {
        rules::jurisdictions().convert()
    }
    fn time_horizons() -> wit::Horizons {
        rules::time_horizons().convert()
    }
    fn version() -> String {
        rules::VERSION.to_string()
    }
}
