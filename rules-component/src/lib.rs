//! Exports the `rules` library as the `cgw:rules` component. Conversions only:
//! every decision is made by the `rules` crate.

wit_bindgen::generate!({ world: "rules", path: "../wit" });

use exports::cgw::rules::decisions as wit;

struct Component;
export!(Component);

fn tier_in(t: wit::KycTier) -> rules::KycTier {
    match t {
        wit::KycTier::Tier0 => rules::KycTier::Tier0,
        wit::KycTier::Tier1 => rules::KycTier::Tier1,
        wit::KycTier::Tier2 => rules::KycTier::Tier2,
        wit::KycTier::Tier3 => rules::KycTier::Tier3,
        wit::KycTier::Tier4 => rules::KycTier::Tier4,
    }
}

fn tier_out(t: rules::KycTier) -> wit::KycTier {
    match t {
        rules::KycTier::Tier0 => wit::KycTier::Tier0,
        rules::KycTier::Tier1 => wit::KycTier::Tier1,
        rules::KycTier::Tier2 => wit::KycTier::Tier2,
        rules::KycTier::Tier3 => wit::KycTier::Tier3,
        rules::KycTier::Tier4 => wit::KycTier::Tier4,
    }
}

fn error_out(e: rules::RuleError) -> wit::RuleError {
    match e {
        rules::RuleError::NonPositiveAmount => wit::RuleError::NonPositiveAmount,
        rules::RuleError::AmountTooLarge => wit::RuleError::AmountTooLarge,
    }
}

fn window_in(w: wit::LimitWindow) -> rules::LimitWindow {
    match w {
        wit::LimitWindow::Daily => rules::LimitWindow::Daily,
        wit::LimitWindow::Weekly => rules::LimitWindow::Weekly,
        wit::LimitWindow::Monthly => rules::LimitWindow::Monthly,
    }
}

fn window_out(w: rules::LimitWindow) -> wit::LimitWindow {
    match w {
        rules::LimitWindow::Daily => wit::LimitWindow::Daily,
        rules::LimitWindow::Weekly => wit::LimitWindow::Weekly,
        rules::LimitWindow::Monthly => wit::LimitWindow::Monthly,
    }
}

fn duration_in(d: wit::ExclusionDuration) -> rules::ExclusionDuration {
    match d {
        wit::ExclusionDuration::Hours24 => rules::ExclusionDuration::Hours24,
        wit::ExclusionDuration::Days7 => rules::ExclusionDuration::Days7,
        wit::ExclusionDuration::Days30 => rules::ExclusionDuration::Days30,
        wit::ExclusionDuration::Months6 => rules::ExclusionDuration::Months6,
        wit::ExclusionDuration::Year1 => rules::ExclusionDuration::Year1,
        wit::ExclusionDuration::Permanent => rules::ExclusionDuration::Permanent,
    }
}

fn deposits_in(d: wit::Deposits) -> Vec<rules::Deposit> {
    d.amount_cents.into_iter().zip(d.at).map(|(amount_cents, at)| rules::Deposit { amount_cents, at }).collect()
}

fn term_in(t: wit::ExclusionTerm) -> rules::ExclusionTerm {
    rules::ExclusionTerm { expires_at: t.expires_at }
}

impl wit::Guest for Component {
    fn tier_for_cumulative(cumulative_cents: i64) -> Result<wit::KycTier, wit::RuleError> {
        rules::tier_for_cumulative(cumulative_cents).map(tier_out).map_err(error_out)
    }

    fn bounds_of_tier(tier: wit::KycTier) -> wit::TierBounds {
        let b = rules::bounds_of_tier(tier_in(tier));
        wit::TierBounds { tier: tier_out(b.tier), ceiling_cents: b.ceiling_cents, next_tier_at_cents: b.next_tier_at_cents }
    }

    fn assess_withdrawal(verified: wit::KycTier, cumulative_cents: i64, amount_cents: i64) -> Result<wit::WithdrawalAssessment, wit::RuleError> {
        rules::assess_withdrawal(tier_in(verified), cumulative_cents, amount_cents)
            .map(|a| wit::WithdrawalAssessment {
                required_tier: tier_out(a.required_tier),
                verification_required: a.verification_required,
                ceiling_cents: a.ceiling_cents,
                remaining_cents: a.remaining_cents,
            })
            .map_err(error_out)
    }

    fn limit_cooloff(current_cents: Option<i64>, requested_cents: i64) -> Result<wit::Cooloff, wit::RuleError> {
        rules::limit_cooloff(current_cents, requested_cents)
            .map(|c| wit::Cooloff { is_increase: c.is_increase, cooloff_seconds: c.cooloff_seconds })
            .map_err(error_out)
    }

    fn window_seconds(window: wit::LimitWindow) -> i64 {
        rules::window_seconds(window_in(window))
    }

    fn window_usage_at(now: i64, window: wit::LimitWindow, deposits: wit::Deposits) -> wit::WindowUsage {
        let deposits = deposits_in(deposits);
        let u = rules::window_usage_at(now, window_in(window), &deposits);
        wit::WindowUsage { spent_cents: u.spent_cents, next_reset_at: u.next_reset_at }
    }

    fn check_deposit(
        now: i64,
        limits: Vec<wit::DepositLimit>,
        deposits: wit::Deposits,
        amount_cents: i64,
    ) -> Result<wit::DepositDecision, wit::RuleError> {
        let limits: Vec<_> = limits.into_iter().map(|l| rules::DepositLimit { window: window_in(l.window), amount_cents: l.amount_cents }).collect();
        let deposits = deposits_in(deposits);
        rules::check_deposit(now, &limits, &deposits, amount_cents)
            .map(|d| match d {
                rules::DepositDecision::Allowed { would_remain_cents } => wit::DepositDecision::Allowed(wit::DepositAllowed { would_remain_cents }),
                rules::DepositDecision::Rejected(b) => wit::DepositDecision::Rejected(wit::DepositBreach {
                    window: window_out(b.window),
                    limit_cents: b.limit_cents,
                    already_spent_cents: b.already_spent_cents,
                    max_allowed_now_cents: b.max_allowed_now_cents,
                    next_reset_at: b.next_reset_at,
                }),
            })
            .map_err(error_out)
    }

    fn exclusion_expiry(duration: wit::ExclusionDuration, effective_from: i64) -> Result<Option<i64>, wit::RuleError> {
        rules::exclusion_expiry(duration_in(duration), effective_from).map_err(error_out)
    }

    fn most_restrictive_exclusion(now: i64, exclusions: Vec<wit::ExclusionTerm>) -> Option<u32> {
        let terms: Vec<_> = exclusions.into_iter().map(term_in).collect();
        rules::most_restrictive_exclusion(now, &terms)
    }

    fn exclusion_lengthens(current: wit::ExclusionTerm, proposed: wit::ExclusionTerm) -> bool {
        rules::exclusion_lengthens(term_in(current), term_in(proposed))
    }

    fn stub_screen(who: wit::Identity) -> wit::ScreeningOutcome {
        let o = rules::stub_screen(&who.first_name, &who.last_name);
        wit::ScreeningOutcome { hit: o.hit, match_count: o.match_count, highest_score: o.highest_score }
    }

    fn stub_kyc(external_user_id: String) -> wit::StubKycOutcome {
        match rules::stub_kyc(&external_user_id) {
            rules::StubKycOutcome::Approve => wit::StubKycOutcome::Approve,
            rules::StubKycOutcome::Reject => wit::StubKycOutcome::Reject,
            rules::StubKycOutcome::ManualReview => wit::StubKycOutcome::ManualReview,
        }
    }

    fn version() -> String {
        rules::VERSION.to_string()
    }
}
