//! The vocabulary every decision shares: environments, sanctions statuses,
//! event kinds and the operations of the decision log.

use serde::{Deserialize, Serialize};

/// Declares a fieldless enum with its stable wire names.
macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        pub enum $name { $(#[serde(rename = $text)] $variant),+ }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name on the wire and in the store.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(text: &str) -> Option<$name> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }
    };
}

pub(crate) use named_enum;

named_enum!(
    /// The two environments of a tenant.
    Environment { Sandbox = "sandbox", Production = "production" }
);

named_enum!(
    /// Status of a user's sanctions screening.
    SanctionsStatus { Clear = "clear", HitReviewPending = "hit_review_pending", Cleared = "cleared", Confirmed = "confirmed" }
);

named_enum!(
    /// Every event the rules can fire.
    EventKind {
        SanctionsHit = "sanctions.hit",
        SanctionsCleared = "sanctions.cleared",
        SanctionsConfirmed = "sanctions.confirmed",
        SanctionsAccountFrozen = "sanctions.account_frozen",
        ScreeningPepMatch = "screening.pep_match",
        ScreeningAdverseMediaMatch = "screening.adverse_media_match",
        KycStarted = "kyc.started",
        KycSubmitted = "kyc.submitted",
        KycApproved = "kyc.approved",
        KycRejected = "kyc.rejected",
        KycTierUpgraded = "kyc.tier_upgraded",
        KycExpired = "kyc.expired",
        ExclusionCreated = "exclusion.created",
        ExclusionExpired = "exclusion.expired",
        ExclusionPermanent = "exclusion.permanent",
        ExclusionKgcSynced = "exclusion.kgc_synced",
        LimitCreated = "limit.created",
        LimitActivated = "limit.activated",
        LimitDecreased = "limit.decreased",
        LimitCancelled = "limit.cancelled",
        LimitBreachAttempt = "limit.breach_attempt",
        AmlAlertCreated = "aml.alert_created",
    }
);

named_enum!(
    /// The decisions the rules make, one per exported call; the decision log
    /// names each record by its operation.
    Operation {
        Deposit = "deposit",
        LimitChange = "limit_change",
        LimitCancel = "limit_cancel",
        Limits = "limits",
        Withdrawal = "withdrawal",
        Tier = "tier",
        Kyc = "kyc",
        Exclusion = "exclusion",
        ExclusionStatus = "exclusion_status",
        RegulatorImport = "regulator_import",
        Screening = "screening",
        CaseReview = "case_review",
        Sanctions = "sanctions",
        DueNow = "due_now",
        Aml = "aml",
        AmlReview = "aml_review",
        ErasurePlan = "erasure_plan",
        FilingCodes = "filing_codes",
        RegisterCheck = "register_check",
        AccessRequest = "access_request",
    }
);
