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
        impl WitTwin for $crate::$name {
            type Wit = wit::$name;
        }
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
        impl WitTwin for $crate::$name {
            type Wit = wit::$name;
        }
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
        impl WitTwin for $crate::$name {
            type Wit = wit::$name;
        }
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
///
/// It also declares `WitTwin`, which names the WIT twin of each rules type
/// (`<DepositFacts as WitTwin>::Wit` is `wit::DepositFacts`), so that code
/// generated from [`for_each_wit_function!`](crate::for_each_wit_function)
/// can spell the binding's signatures.
#[macro_export]
macro_rules! wit_bridge {
    () => {
        /// The WIT binding's twin of a rules type.
        #[allow(dead_code)]
        trait WitTwin {
            type Wit;
        }
        $crate::__bridge_twin!(i64, u32, u8, bool, f64, String);
        impl<T: WitTwin> WitTwin for Vec<T> {
            type Wit = Vec<T::Wit>;
        }
        impl<T: WitTwin> WitTwin for Option<T> {
            type Wit = Option<T::Wit>;
        }
        impl<T: WitTwin, E: WitTwin> WitTwin for Result<T, E> {
            type Wit = Result<T::Wit, E::Wit>;
        }
        $crate::for_each_wit_type!($crate::__bridge_enum, $crate::__bridge_record, $crate::__bridge_variant);
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __bridge_twin {
    ($($t:ty),*) => { $(impl WitTwin for $t { type Wit = $t; })* };
}

/// Calls `$enum!`, `$record!` and `$variant!` once for every type of
/// `wit/rules.wit`, with its cases or fields: the one list of the WIT types,
/// from which each binding (wit-bindgen, wasmtime, jco at the edge) derives
/// its conversions.
#[macro_export]
macro_rules! for_each_wit_type {
    ($enum:path, $record:path, $variant:path) => {
        $enum!(RuleError { NonPositiveAmount, AmountTooLarge, UnknownJurisdiction, NoReferenceRate });
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
        $record!(Deposits { amount_cents, at, currency });
        $record!(StoredLimit { window, amount_cents, same_currency, status, effective_from, currency });
        $record!(WindowTotal { window, spent_cents, oldest_at, newest_at, currency });
        $record!(DepositFacts { now, sanctions, exclusions, limits, totals, deposits, amount_cents, verified, aml, jurisdiction, rates, registers });
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
        $record!(LimitsFacts { now, limits, totals, deposits, rates });
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

        $record!(TierFacts { tier, currency_exponent, currency, ceiling_currency, rate });
        $record!(TierBounds { tier, ceiling_cents, next_tier_at_cents });
        $record!(OpenCheck { target_tier, status, updated_at, token_expires_at });
        $record!(WithdrawalFacts {
            now,
            sanctions,
            verified,
            cumulative_cents,
            amount_cents,
            same_currency,
            open_check,
            currency_exponent,
            aml,
            currency,
            ceiling_currency,
            rate
        });
        $record!(FastPath { required_tier, remaining_cents });
        $record!(Verification { tier, documents, estimated_clear_time, vendor_token_seconds, status, events });
        $record!(OpenCheckReplay { reissue_token, vendor_expires_in });
        $variant!(WithdrawalOutcome { unit: [CurrencyMismatch, CeilingExceeded, AlreadyInProgress], with: [Held, Approve, Verify, ReplayOpenCheck] });
        $record!(WithdrawalDecision { expire_open_check, outcome });
        $record!(KycFacts { now, status, updated_at, target_tier, verified, external_user_id, action, vendor_tier, sanctions, aml });
        $record!(KycDecision { status, changed, refused, events, verified, withdrawal, expires_at, documents, vendor_token_seconds, escalation });

        $enum!(EntryKind { Individual, Entity, Vessel, Aircraft, Unknown });
        $enum!(EntryTopic { Sanction, Pep, AdverseMedia });
        $record!(ListCandidate { source, entity_id, kind, names, dates_of_birth, nationalities, topic, fingerprint });
        $record!(DismissedMatch { source, entity_id, fingerprint });
        $record!(NameQuery { name, date_of_birth, nationality });
        $record!(OfacScored { index, name, score, whole_name, word_by_word });
        $enum!(NameReading { AsWritten, Split, LookAlike, LookAlikeSplit, Transliterated, TransliteratedSplit });
        $enum!(NameLegibility { Readable, OnlyInvisible, Unreadable });
        $enum!(Spelling { AsWritten, CyrillicEnglish, CyrillicGerman, CyrillicFrench, Korean, Arabic, Abjad });
        $record!(AlignedPart { listed, query, similarity, spelling });
        $record!(ScoredCandidate { index, name, score, name_score, date_of_birth_adjustment, nationality_adjustment, reading, aligned });
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
        $record!(ScreeningMatch {
            source,
            entity_id,
            name,
            score,
            name_score,
            date_of_birth_adjustment,
            nationality_adjustment,
            topic,
            fingerprint,
            reading,
            aligned
        });
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
        $enum!(RecordClass { IdentityScreening, KycChecks, AmlRecords, Exclusions, LimitChanges, DecisionLog, AuditLog, WebhookPayloads });
        $record!(ExclusionSpan { effective_from, expires_at });
        $record!(ErasureFacts { now, jurisdiction, ended_at, asked, last_active_at, last_record_at, exclusions });
        $record!(ClassPlan { class, until, basis, erased_at });
        $record!(ErasurePlan { relationship_end, classes, filings_before });
        $record!(CutoffFacts { now, jurisdiction });
        $record!(UnaskedCutoff { ended_before, idle_before });
        $record!(RetentionCutoffs { unasked, filings_before, records_before, ended_exclusions_before });
        $record!(AccessRequestFacts { received_at, jurisdiction });
        $record!(AccessRequestPlan { due_at, due_source, withhold_basis, withhold_source, withheld_events, withheld_standings });

        $enum!(AmlEventType { Deposit, Withdrawal, Wager, Win, Bonus, P2pTransfer, InstrumentAdded });
        $enum!(PaymentMethod { Cash, Card, BankTransfer, EWallet, Crypto, Other });
        $record!(SarClassification { type_id, subtype_id, other_text });
        $enum!(CashSide { In, Out });
        $record!(CtrCode { code, side });
        $record!(FilingEvent { event_type, method });
        $record!(FilingFacts { typologies, events });
        $record!(FilingCodes { sar, ctr });
        $enum!(NationalRegister { Spelpaus, Gamstop, Rofus, Cruks });
        $enum!(CheckPurpose { Registration, Login, Deposit, Marketing });
        $enum!(RegisterStatus { Excluded, NotExcluded, PreviouslyExcluded, Unavailable });
        $enum!(OutagePolicy { Refuse, AllowFlagged });
        $enum!(NationalIdKind { Personnummer, Bsn, Cpr });
        $record!(RegisterAnswer { register, status, on_outage, standing });
        $record!(RegisterCheckFacts { now, purpose, exclusions, answers });
        $record!(RegisterCheckDecision { shared, excluded, marketing_allowed, sets_standing, newly_excluded });
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

/// Calls `$callback!` once with every function of `wit/rules.wit`: the one
/// list of the rules interface's functions, from which the `Rules` trait, the
/// in-process `LibraryRules`, the guest's exports, the wasmtime and jco calls,
/// the test doubles and the decision log's replay are generated.
///
/// The callback receives `[$($extra)*]`, then `calls { … }`: each decision
/// made per request, as
/// `[Operation] name(arg: mode Type, …) -> Result = library_function;`
/// where `Operation` names the decision log's operation (empty when the
/// call is not logged), `mode` is `borrow` (the trait takes `&Type`) or
/// `copy` (by value), and the function is in the rules library; then
/// `loaded { … }`: the exports asked once when the rules load.
/// A WIT name is the snake name in kebab case.
#[macro_export]
macro_rules! for_each_wit_function {
    ($callback:path $(, $($extra:tt)*)?) => {
        $callback! {
            [$($($extra)*)?]
            calls {
                /// The deposit gate: sanctions hold, self-exclusion, then the limits in force.
                [Deposit] decide_deposit(facts: borrow DepositFacts) -> Result<DepositDecision, RuleError> = decide_deposit;
                /// Setting a limit: cool-off bracket, status, effective time, event.
                [LimitChange] decide_limit_change(facts: borrow LimitChangeFacts) -> Result<LimitChangeDecision, RuleError> = decide_limit_change;
                /// Cancelling a limit: only a pending increase.
                [LimitCancel] decide_limit_cancel(facts: borrow LimitCancelFacts) -> LimitCancelDecision = decide_limit_cancel;
                /// The limits in force with their spend and reset times.
                [Limits] describe_limits(facts: borrow LimitsFacts) -> Result<Vec<LimitView>, RuleError> = describe_limits;
                /// A withdrawal: released, held, or a verification for the tier it needs.
                [Withdrawal] decide_withdrawal(facts: borrow WithdrawalFacts) -> Result<WithdrawalDecision, RuleError> = decide_withdrawal;
                /// The ceiling and next-tier threshold of a verified tier.
                [Tier] describe_tier(facts: borrow TierFacts) -> Result<TierBounds, RuleError> = describe_tier;
                /// What the player is told, word for word; never why an account is held.
                [] player_message(notice: borrow PlayerNotice) -> String = player_message;
                /// A verification check's transitions: view, submission, review, expiry.
                [Kyc] decide_kyc(facts: borrow KycFacts) -> KycDecision = decide_kyc;
                /// Registering an exclusion: lengthen, never shorten.
                [Exclusion] decide_exclusion(facts: borrow ExclusionFacts) -> Result<ExclusionDecision, RuleError> = decide_exclusion;
                /// Which exclusions are active and which one answers a check.
                [ExclusionStatus] describe_exclusions(facts: borrow ExclusionStatusFacts) -> ExclusionStatus = describe_exclusions;
                /// The regulator's comprehensive list.
                [RegulatorImport] decide_regulator_import(facts: borrow RegulatorImportFacts) -> Vec<RegulatorOutcome> = decide_regulator_import;
                /// Screening an identity at signup or again.
                [Screening] decide_screening(facts: borrow ScreeningFacts) -> ScreeningDecision = decide_screening;
                /// The compliance team's search: every candidate scored, best first.
                [] score_names(query: borrow NameQuery, candidates: borrow [ListCandidate]) -> Vec<ScoredCandidate> = score_candidates;
                /// The compliance team's search as OFAC's own tool scores it, best first.
                [] score_names_ofac(query: borrow str, candidates: borrow [ListCandidate]) -> Vec<OfacScored> = ofac_scores;
                /// The keys under which the store indexes each name, and looks a query up.
                [] index_keys(names: borrow [String]) -> Vec<Vec<String>> = index_keys_of_each;
                /// The keys a screened name is looked up by: its index keys, and those of its other romanizations.
                [] query_keys(name: borrow str, whole_name: copy bool) -> Vec<String> = lookup_keys;
                /// Whether a name or an id can be read (the 422s of names no one can read).
                [] read_name(text: borrow str) -> NameLegibility = read_name;
                /// What a screening status means for transactions.
                [Sanctions] describe_sanctions(status: copy SanctionsStatus) -> SanctionsView = describe_sanctions;
                /// The compliance team's review of a case.
                [CaseReview] decide_case_review(facts: borrow CaseReviewFacts) -> CaseReviewDecision = decide_case_review;
                /// When each case or check of a review list is due, and whether it is overdue.
                [] describe_reviews(items: borrow [ReviewItem]) -> Vec<ReviewState> = describe_reviews;
                /// One reported transaction event: the typologies that fire, with their evidence.
                [Aml] decide_aml(facts: borrow AmlFacts) -> Result<AmlDecision, RuleError> = decide_aml;
                /// Closing a user's AML case: what becomes of the withdrawal hold.
                [AmlReview] decide_aml_review(facts: borrow AmlReviewFacts) -> AmlReviewDecision = decide_aml_review;
                /// What has become due among the candidates.
                [DueNow] due_now(facts: borrow DueFacts) -> DueWork = due_now;
                /// An erasure's dates: the end of the relationship and each class's date under the profile.
                [ErasurePlan] plan_erasure(facts: borrow ErasureFacts) -> Result<ErasurePlan, RuleError> = plan_erasure;
                /// A profile's retention cutoffs: whom the sweep erases unasked, what is past its period.
                [] profile_cutoffs(facts: borrow CutoffFacts) -> Result<RetentionCutoffs, RuleError> = retention_cutoffs;
                /// A player's access request: when its answer is due, and the law on which suspicion material is withheld.
                [AccessRequest] plan_access_request(facts: borrow AccessRequestFacts) -> Result<AccessRequestPlan, RuleError> = plan_access_request;
                /// A filing's codes: its SAR classifications and each event's CTR code.
                [FilingCodes] classify_filing(facts: borrow FilingFacts) -> FilingCodes = classify_filing;
                /// A national identifier as its register takes it (a personnummer's 12 digits), or none when its form or check digit is wrong.
                [] read_national_id(kind: copy NationalIdKind, text: borrow str) -> Option<String> = read_national_id;
                /// A check against the shared and the national registers: whether the player is excluded, whether marketing is allowed.
                [RegisterCheck] decide_register_check(facts: borrow RegisterCheckFacts) -> RegisterCheckDecision = decide_register_check;
            }
            loaded {
                jurisdictions() -> Vec<JurisdictionProfile> = jurisdictions;
                time_horizons() -> Horizons = time_horizons;
                version() -> String = version;
            }
        }
    };
}
