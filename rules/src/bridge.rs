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
identity!(i64, u32, bool, f64, String);

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
        $crate::__bridge_enum!(RuleError { NonPositiveAmount, AmountTooLarge });
        $crate::__bridge_enum!(Environment { Sandbox, Production });
        $crate::__bridge_enum!(SanctionsStatus { Clear, HitReviewPending, Cleared, Confirmed });
        $crate::__bridge_enum!(EventKind {
            SanctionsHit,
            SanctionsCleared,
            SanctionsConfirmed,
            SanctionsAccountFrozen,
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
            LimitBreachAttempt
        });
        $crate::__bridge_enum!(LimitWindow { Daily, Weekly, Monthly });
        $crate::__bridge_enum!(LimitStatus { Active, Pending, Cancelled });
        $crate::__bridge_enum!(ExclusionDuration { Hours24, Days7, Days30, Months6, Year1, Permanent });
        $crate::__bridge_enum!(KycTier { Tier0, Tier1, Tier2, Tier3, Tier4 });
        $crate::__bridge_enum!(KycStatus { NotStarted, InProgress, PendingReview, Approved, Rejected, Expired });
        $crate::__bridge_enum!(KycDocument { EmailOtp, PhoneOtp, GovernmentId, Selfie, ProofOfAddress, SourceOfFunds });
        $crate::__bridge_enum!(WithdrawalStatus { Held, Released, Blocked, Cancelled });
        $crate::__bridge_enum!(KycAction { View, SandboxSubmit, Approve, Reject, Expire });
        $crate::__bridge_enum!(CaseStatus { Open, Dismissed, Confirmed });
        $crate::__bridge_enum!(ReviewAction { Dismiss, Confirm });
        $crate::__bridge_enum!(LimitCancelDecision { Cancel, AlreadyCancelled, NotPending });

        $crate::__bridge_record!(ExclusionTerm { expires_at });
        $crate::__bridge_record!(Deposits { amount_cents, at });
        $crate::__bridge_record!(StoredLimit { window, amount_cents, same_currency, status, effective_from });
        $crate::__bridge_record!(DepositFacts { now, sanctions, exclusions, limits, deposits, amount_cents });
        $crate::__bridge_record!(WindowSet { daily, weekly, monthly });
        $crate::__bridge_record!(DepositAllowed { would_remain_cents, active });
        $crate::__bridge_record!(DepositBreach { window, limit_cents, already_spent_cents, max_allowed_now_cents, next_reset_at });
        $crate::__bridge_variant!(DepositDecision { unit: [Held, Excluded], with: [Allowed, CurrencyMismatch, Breach] });
        $crate::__bridge_record!(LimitChangeFacts { now, requested_at, window, amount_cents, limits });
        $crate::__bridge_record!(LimitChange { current, is_increase, cooloff_seconds, effective_from, status, event, cancel_pending });
        $crate::__bridge_variant!(LimitChangeDecision {
            unit: [CurrencyMismatch, PendingChangeExists],
            with: [BelowMinimum, ReplayPending, Unchanged, Apply]
        });
        $crate::__bridge_record!(LimitCancelFacts { now, limit });
        $crate::__bridge_record!(LimitsFacts { now, limits, deposits });
        $crate::__bridge_record!(LimitView { window, in_force, pending, spent_cents, remaining_cents, next_reset_at });

        $crate::__bridge_record!(UserExclusion { duration, expires_at });
        $crate::__bridge_record!(ExclusionFacts { now, duration, existing });
        $crate::__bridge_record!(ExclusionRegistration { expires_at, is_permanent, regulator_eligible, events });
        $crate::__bridge_variant!(ExclusionDecision { unit: [AlreadyExcluded], with: [Replay, Register] });
        $crate::__bridge_record!(ExclusionStatusFacts { now, exclusions });
        $crate::__bridge_record!(ExclusionStatus { active, most_restrictive });
        $crate::__bridge_record!(RegulatorEntry { existing_regulator });
        $crate::__bridge_record!(RegulatorImportFacts { now, entries });
        $crate::__bridge_record!(RegulatorOutcome { is_new, duration, events });

        $crate::__bridge_record!(TierBounds { tier, ceiling_cents, next_tier_at_cents });
        $crate::__bridge_record!(OpenCheck { target_tier, status, updated_at });
        $crate::__bridge_record!(WithdrawalFacts { now, sanctions, verified, cumulative_cents, amount_cents, same_currency, open_check });
        $crate::__bridge_record!(FastPath { required_tier, remaining_cents });
        $crate::__bridge_record!(Verification { tier, documents, estimated_clear_time, vendor_token_seconds });
        $crate::__bridge_variant!(WithdrawalOutcome {
            unit: [CurrencyMismatch, CeilingExceeded, ReplayOpenCheck, AlreadyInProgress],
            with: [Held, Approve, Verify]
        });
        $crate::__bridge_record!(WithdrawalDecision { expire_open_check, outcome });
        $crate::__bridge_record!(KycFacts { now, status, updated_at, target_tier, verified, external_user_id, action });
        $crate::__bridge_record!(KycDecision { status, changed, refused, events, verified, withdrawal, expires_at, documents });

        $crate::__bridge_record!(ScreeningFacts { now, environment, first_name, last_name, date_of_birth, nationality, current });
        $crate::__bridge_record!(ScreeningMatch { source, entity_id, name, score });
        $crate::__bridge_record!(ScreeningDecision {
            status,
            opens_case,
            transactions_held,
            match_count,
            highest_score,
            matches,
            review_due_at,
            estimated_review_time,
            events
        });
        $crate::__bridge_record!(SanctionsView { transactions_held });
        $crate::__bridge_record!(CaseReviewFacts { case_status, action });
        $crate::__bridge_record!(CaseReviewOutcome { case_status, user_status, transactions_held, events });
        $crate::__bridge_variant!(CaseReviewDecision { unit: [], with: [Apply, Repeat, AlreadyDecided] });

        $crate::__bridge_record!(Horizons {
            longest_deposit_window_seconds,
            kyc_abandon_seconds,
            rescreen_after_seconds,
            review_target_seconds,
            snapshot_second_of_day
        });
        $crate::__bridge_record!(DueLimit { now, status, effective_from });
        $crate::__bridge_record!(DueExclusion { now, expires_at, others });
        $crate::__bridge_record!(DueUser { now, status, last_screened_at });
        $crate::__bridge_record!(DueFacts { limits, exclusions, checks, users });
        $crate::__bridge_record!(ExclusionExpiry { index, announce });
        $crate::__bridge_record!(CheckExpiry { index, decision });
        $crate::__bridge_record!(DueWork { activate_limits, expire_exclusions, expire_checks, rescreen_users });
    };
}
