//! The conversions between these types and the types a WIT binding
//! generates for `cgw:rules`, written once. The guest (`rules-component`),
//! the native host and the edge host each bring their generated module into
//! scope as `wit` and expand [`wit_bridge!`](crate::wit_bridge); a type
//! added to the WIT package is added to the list below and nowhere else.

use alloc::string::String;
use alloc::vec::Vec;

/// A conversion between a rules type and its WIT twin (both ways).
pub trait Convert<T> {
    fn convert(self) -> T;
}

macro_rules! identity {
    ($($t:ty),*) => { $(impl Convert<$t> for $t { fn convert(self) -> $t { self } })* };
}
identity!(i64, u32, u8, bool, f64, String);

impl<A: Convert<B>, B> Convert<Vec<B>> for Vec<A> {
    fn convert(self) -> Vec<B> {
        self.into_iter().map(Convert::convert).collect()
    }
}

impl<A: Convert<B>, B> Convert<Option<B>> for Option<A> {
    fn convert(self) -> Option<B> {
        self.map(Convert::convert)
    }
}

impl<A: Convert<B>, B, E: Convert<F>, F> Convert<Result<B, F>> for Result<A, E> {
    fn convert(self) -> Result<B, F> {
        self.map(Convert::convert).map_err(Convert::convert)
    }
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bridge_enum {
    ($name:ident { $($v:ident),+ }) => {
        impl $crate::Convert<wit::$name> for $crate::$name {
            fn convert(self) -> wit::$name { match self { $($crate::$name::$v => wit::$name::$v),+ } }
        }
        impl $crate::Convert<$crate::$name> for wit::$name {
            fn convert(self) -> $crate::$name { match self { $(wit::$name::$v => $crate::$name::$v),+ } }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bridge_record {
    ($name:ident { $($f:ident),+ }) => {
        impl $crate::Convert<wit::$name> for $crate::$name {
            fn convert(self) -> wit::$name { wit::$name { $($f: $crate::Convert::convert(self.$f)),+ } }
        }
        impl $crate::Convert<$crate::$name> for wit::$name {
            fn convert(self) -> $crate::$name { $crate::$name { $($f: $crate::Convert::convert(self.$f)),+ } }
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bridge_variant {
    ($name:ident { unit: [$($u:ident),*], with: [$($w:ident),*] }) => {
        impl $crate::Convert<wit::$name> for $crate::$name {
            fn convert(self) -> wit::$name {
                match self {
                    $($crate::$name::$u => wit::$name::$u,)*
                    $($crate::$name::$w(x) => wit::$name::$w($crate::Convert::convert(x)),)*
                }
            }
        }
        impl $crate::Convert<$crate::$name> for wit::$name {
            fn convert(self) -> $crate::$name {
                match self {
                    $(wit::$name::$u => $crate::$name::$u,)*
                    $(wit::$name::$w(x) => $crate::$name::$w($crate::Convert::convert(x)),)*
                }
            }
        }
    };
}

/// Every conversion between the rules types and a `wit` module in scope
/// generated from `wit/rules.wit` (by wit-bindgen, wasmtime's bindgen, or
/// any generator that names types and fields as they do).
#[macro_export]
macro_rules! wit_bridge {
    () => {
        $crate::for_each_wit_type!($crate::__bridge_enum, $crate::__bridge_record, $crate::__bridge_variant);
    };
}

/// Calls `$enum!`, `$record!` and `$variant!` once for every type of
/// `wit/rules.wit`, with its cases or fields: the one list of the WIT types,
/// from which each binding (wit-bindgen, wasmtime, jco at the edge) derives
/// its conversions.
#[macro_export]
macro_rules! for_each_wit_type {
    ($enum:path, $record:path, $variant:path) => {
        $enum!(RuleError { NonPositiveAmount, AmountTooLarge });
        $enum!(Environment { Sandbox, Production });
        $enum!(SanctionsStatus { Clear, HitReviewPending, Cleared, Confirmed });
        $enum!(EventKind {
            SanctionsHit,
            SanctionsCleared,
            SanctionsConfirmed,
            SanctionsAccountFrozen,
            ScreeningPepMatch,
            ScreeningAdverseMediaMatch,
            KycStarted,
            KycSubmitted,
            KycApproved,
            KycRejected,
            KycTierUpgraded,
            KycExpired,
            ExclusionCreated,
            ExclusionExpired,
            ExclusionPermanent,
            ExclusionKgcSynced,
            LimitCreated,
            LimitActivated,
            LimitDecreased,
            LimitCancelled,
            LimitBreachAttempt,
            AmlAlertCreated
        });
        $enum!(LimitWindow { Daily, Weekly, Monthly });
        $enum!(LimitStatus { Active, Pending, Cancelled });
        $enum!(ExclusionDuration { Hours24, Days7, Days30, Months6, Year1, Permanent });
        $enum!(KycTier { Tier0, Tier1, Tier2, Tier3, Tier4 });
        $enum!(KycStatus { NotStarted, InProgress, PendingReview, Approved, Rejected, Expired });
        $enum!(KycDocument { EmailOtp, PhoneOtp, GovernmentId, Selfie, ProofOfAddress, SourceOfFunds });
        $enum!(WithdrawalStatus { Held, Released, Blocked, Cancelled });
        $enum!(KycAction { View, SandboxSubmit, Approve, Reject, Expire, VendorSubmit, VendorApprove, VendorReject, VendorRetry, IssueToken });
        $enum!(KycEscalation { VendorRetry, ReviewOverdue });
        $enum!(CaseStatus { Open, Dismissed, Confirmed });
        $enum!(ReviewAction { Dismiss, Confirm });
        $enum!(LimitCancelDecision { Cancel, AlreadyCancelled, NotPending });

        $record!(ExclusionTerm { expires_at });
        $record!(Deposits { amount_cents, at });
        $record!(StoredLimit { window, amount_cents, same_currency, status, effective_from });
        $record!(WindowTotal { window, spent_cents, oldest_at, newest_at });
        $record!(DepositFacts { now, sanctions, exclusions, limits, totals, deposits, amount_cents, verified, aml, jurisdiction });
        $record!(WindowSet { daily, weekly, monthly });
        $record!(DepositAllowed { would_remain_cents, active });
        $record!(DepositBreach { window, limit_cents, already_spent_cents, max_allowed_now_cents, next_reset_at });
        $record!(BreachNotice { breach, amount_cents, currency, currency_exponent });
        $record!(ReviewItem { now, waiting_since, due_at, awaiting });
        $record!(ReviewState { due_at, overdue });
        $variant!(PlayerNotice {
            unit: [DepositHeld, DepositExcluded, WithdrawalHeld, WithdrawalApproved, DepositVerificationRequired],
            with: [DepositBreach]
        });
        $variant!(DepositDecision { unit: [Held, Excluded, NeedsDeposits], with: [Allowed, CurrencyMismatch, Breach, VerificationRequired] });
        $record!(LimitChangeFacts { now, requested_at, window, amount_cents, limits, jurisdiction });
        $record!(LimitChange { current, is_increase, cooloff_seconds, effective_from, status, event, cancel_pending });
        $variant!(LimitChangeDecision { unit: [CurrencyMismatch, PendingChangeExists], with: [BelowMinimum, ReplayPending, Unchanged, Apply] });
        $record!(LimitCancelFacts { now, limit });
        $record!(LimitsFacts { now, limits, totals, deposits });
        $record!(LimitView { window, in_force, pending, spent_cents, remaining_cents, next_reset_at });

        $record!(UserExclusion { duration, expires_at });
        $record!(ExclusionFacts { now, duration, existing });
        $record!(ExclusionRegistration { expires_at, is_permanent, regulator_eligible, events });
        $variant!(ExclusionDecision { unit: [AlreadyExcluded], with: [Replay, Register] });
        $record!(ExclusionStatusFacts { now, exclusions });
        $record!(ExclusionStatus { active, most_restrictive });
        $record!(RegulatorEntry { existing_regulator });
        $record!(RegulatorImportFacts { now, entries });
        $record!(RegulatorOutcome { is_new, duration, is_permanent, expires_at, events });

        $record!(TierFacts { tier, currency_exponent });
        $record!(TierBounds { tier, ceiling_cents, next_tier_at_cents });
        $record!(OpenCheck { target_tier, status, updated_at, token_expires_at });
        $record!(WithdrawalFacts { now, sanctions, verified, cumulative_cents, amount_cents, same_currency, open_check, currency_exponent, aml });
        $record!(FastPath { required_tier, remaining_cents });
        $record!(Verification { tier, documents, estimated_clear_time, vendor_token_seconds, status, events });
        $record!(OpenCheckReplay { reissue_token, vendor_expires_in });
        $variant!(WithdrawalOutcome { unit: [CurrencyMismatch, CeilingExceeded, AlreadyInProgress], with: [Held, Approve, Verify, ReplayOpenCheck] });
        $record!(WithdrawalDecision { expire_open_check, outcome });
        $record!(KycFacts { now, status, updated_at, target_tier, verified, external_user_id, action, vendor_tier });
        $record!(KycDecision { status, changed, refused, events, verified, withdrawal, expires_at, documents, vendor_token_seconds, escalation });

        $enum!(EntryKind { Individual, Entity, Vessel, Aircraft, Unknown });
        $enum!(EntryTopic { Sanction, Pep, AdverseMedia });
        $record!(ListCandidate { source, entity_id, kind, names, dates_of_birth, nationalities, topic, fingerprint });
        $record!(DismissedMatch { source, entity_id, fingerprint });
        $record!(NameQuery { name, date_of_birth, nationality });
        $record!(OfacScored { index, name, score, whole_name, word_by_word });
        $record!(ScoredCandidate { index, name, score, name_score, date_of_birth_adjustment, nationality_adjustment });
        $record!(ScreenedSource { source, version });
        $record!(ScreeningScope { pep, adverse_media });
        $enum!(CaseKind { SanctionsHit, EnhancedDueDiligence });
        $record!(ScreeningFacts {
            now,
            environment,
            first_name,
            last_name,
            date_of_birth,
            nationality,
            current,
            candidates,
            hit_threshold,
            sources,
            scope,
            due_diligence_open,
            dismissed
        });
        $record!(ScreeningMatch { source, entity_id, name, score, name_score, date_of_birth_adjustment, nationality_adjustment, topic, fingerprint });
        $record!(ScreeningDecision {
            status,
            opens_case,
            case_kind,
            transactions_held,
            match_count,
            highest_score,
            matches,
            review_due_at,
            estimated_review_time,
            events,
            set_aside
        });
        $record!(SanctionsView { transactions_held });
        $record!(CaseReviewFacts { case_status, action, case_kind });
        $record!(CaseReviewOutcome { case_status, user_status, transactions_held, events, remember_matches });
        $variant!(CaseReviewDecision { unit: [], with: [Apply, Repeat, AlreadyDecided] });

        $record!(Horizons {
            longest_deposit_window_seconds,
            daily_window_seconds,
            weekly_window_seconds,
            monthly_window_seconds,
            kyc_abandon_seconds,
            rescreen_after_seconds,
            review_target_seconds,
            snapshot_second_of_day,
            decision_retention_seconds
        });
        $record!(CooloffBracket { up_to_multiple, cooloff_seconds });
        $record!(JurisdictionProfile { name, regulator, increase_cooloffs, aml, record_keeping_seconds, record_keeping_source });

        $enum!(AmlEventType { Deposit, Withdrawal, Wager, Win, Bonus, P2pTransfer, InstrumentAdded });
        $enum!(PaymentMethod { Cash, Card, BankTransfer, EWallet, Crypto, Other });
        $enum!(AmlOutcome { Approve, Review, HoldWithdrawal, Decline });
        $enum!(AmlAction { RequireKycTier, LockWithdrawalsUntilCdd, CtrCandidate, SarCandidate });
        $enum!(Typology {
            CtrThreshold,
            Structuring,
            CddThreshold,
            MinimalPlay,
            MultipleInstruments,
            Velocity,
            DormantReactivation,
            P2pDumping,
            UnconvertibleCurrency
        });
        $record!(AmlParameters {
            currency,
            ctr_threshold_cents,
            structuring_band_percent,
            structuring_band_repeats,
            structuring_window_seconds,
            cdd_threshold_cents,
            cdd_tier,
            minimal_play_window_seconds,
            minimal_play_wager_percent,
            instruments_count,
            instruments_window_seconds,
            velocity_threshold_cents,
            velocity_window_seconds,
            dormant_seconds,
            dormant_percentile,
            p2p_transfers,
            p2p_return_percent,
            sar_days,
            ctr_days,
            consent_working_days,
            deposits_locked_until_cdd
        });
        $record!(AmlEvent { event_type, amount_cents, currency, payment_method, at, instrument });
        $record!(AmlRate { version, date, currency, currency_exponent, per_unit_of, per_unit_exponent, rate_units, rate_scale });
        $record!(AmlHour { start, in_cents, in_count, out_cents, wagered_cents, near_threshold_count });
        $record!(AmlBucket {
            start,
            payment_method,
            in_cents,
            in_count,
            out_cents,
            out_count,
            wagered_cents,
            won_cents,
            largest_in_cents,
            largest_out_cents,
            near_threshold_count
        });
        $record!(AmlInstrument { instrument, last_seen_at });
        $record!(AmlPair { sent_count, sent_cents, received_count, received_cents, first_sent_at });
        $record!(AmlAlerted { typology, at });
        $record!(AmlStanding { withdrawals_held, cdd_tier });
        $record!(AmlFacts {
            now,
            jurisdiction,
            event,
            gaming_day_start,
            gaming_day_end,
            gaming_day,
            hours,
            instruments,
            pair,
            last_seen_at,
            deposit_classes,
            verified,
            standing,
            alerted,
            rate
        });
        $record!(AmlInput { name, value });
        $record!(FiredRule { rule_id, version, reason_code, inputs, window_from, window_to, threshold });
        $record!(AmlCounters { near_threshold, deposit_class, amount_cents });
        $record!(AmlDecision { outcome, actions, required_tier, fired, alert, due_at, standing, counters });
        $enum!(AmlReviewOutcome { FalsePositive, Confirmed });
        $record!(AmlReviewFacts { outcome, standing });
        $record!(AmlReviewDecision { standing, true_positive });
        $record!(DueLimit { now, status, effective_from });
        $record!(DueExclusion { now, expires_at, others });
        $record!(DueUser { now, status, last_screened_at });
        $record!(DueFacts { limits, exclusions, checks, users });
        $record!(ExclusionExpiry { index, announce });
        $record!(CheckExpiry { index, decision });
        $record!(DueWork { activate_limits, expire_exclusions, expire_checks, rescreen_users });
    };
}
