//! Jurisdiction profiles: the parameters a regulator sets differently, one
//! profile per value of a tenant's `jurisdiction`. Every profile lives here
//! and only here: adding one is a change to this file (and the committed
//! component), never to a host or the gateway. Sources are in
//! `docs/decisions.md` ("Jurisdictions").

use rules_model::AmlParameters;

#[allow(unused_imports)]
use crate::traits::*;
use crate::DAY;
#[allow(unused_imports)]
use crate::*;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::jurisdictions::*;

pub const COOLOFF_UP_TO_2X: i64 = DAY;

pub const COOLOFF_UP_TO_5X: i64 = 2 * DAY;

pub const COOLOFF_ABOVE_5X: i64 = 7 * DAY;

/// A profile's AML parameters from the amounts that differ by regulator.
pub(crate) const fn standard_aml(currency: &'static str, ctr: Option<i64>, cdd: i64, velocity: i64) -> StandardAml {
    StandardAml { currency, ctr, cdd, velocity, consent_working_days: None, deposits_locked_until_cdd: None }
}

/// A profile's AML parameters as `jurisdictions.rs` writes them: the
/// amounts that differ by regulator; the rest is the common standard.
#[derive(Clone, Copy)]
pub(crate) struct StandardAml {
    pub currency: &'static str,
    pub ctr: Option<i64>,
    pub cdd: i64,
    pub velocity: i64,
    pub consent_working_days: Option<u32>,
    pub deposits_locked_until_cdd: Option<&'static str>,
}

impl StandardAml {
    pub(crate) const fn with_consent(self, working_days: u32) -> StandardAml {
        StandardAml { consent_working_days: Some(working_days), ..self }
    }

    /// The regulator's text requiring a lock until due diligence to refuse deposits too.
    pub(crate) const fn locking_deposits_until_cdd(self, source: &'static str) -> StandardAml {
        StandardAml { deposits_locked_until_cdd: Some(source), ..self }
    }

    pub(crate) fn parameters(self) -> AmlParameters {
        AmlParameters {
            currency: self.currency.to_string(),
            ctr_threshold_cents: self.ctr,
            structuring_band_percent: 80,
            structuring_band_repeats: 3,
            structuring_window_seconds: 7 * DAY,
            cdd_threshold_cents: self.cdd,
            cdd_tier: KycTier::Tier2,
            minimal_play_window_seconds: 48 * HOUR,
            minimal_play_wager_percent: 10,
            instruments_count: 3,
            instruments_window_seconds: 7 * DAY,
            velocity_threshold_cents: self.velocity,
            velocity_window_seconds: DAY,
            dormant_seconds: 180 * DAY,
            dormant_percentile: 95,
            p2p_transfers: 3,
            p2p_return_percent: 10,
            sar_days: 30,
            ctr_days: 15,
            consent_working_days: self.consent_working_days,
            deposits_locked_until_cdd: self.deposits_locked_until_cdd.map(str::to_string),
        }
    }
}

struct Profile {
    name: &'static str,
    regulator: &'static str,
    increase_cooloffs: &'static [CooloffBracket],
    aml: StandardAml,
    record_keeping: RecordKeeping,
    retention: Retention,
    access: AccessRight,
}

/// How long a player's access request may take to answer.
#[derive(Clone, Copy)]
pub(crate) enum AnswerWithin {
    /// calendar months from receipt (31 January + 1 month is the last day of February)
    Months(u32),
    Days(i64),
}

/// A profile's right of access: the period to answer, and the law on which
/// records that would reveal a suspicion are withheld from the answer.
#[derive(Clone, Copy)]
pub(crate) struct AccessRight {
    pub(crate) within: AnswerWithin,
    pub(crate) within_source: &'static str,
    pub(crate) withhold_basis: &'static str,
    pub(crate) withhold_source: &'static str,
}

const GDPR_MONTH: &str = "GDPR art. 12(3): without undue delay and within one month of receipt";

const EU_TIPPING_OFF: &str = "GDPR art. 23(1)(d) with AMLD4 (EU) 2015/849 art. 39 and 41(4) (no disclosure that a report is made or an analysis \
     is under way), AMLR (EU) 2024/1624 art. 73 from 10 July 2027";

const fn gdpr_access(withhold_basis: &'static str, withhold_source: &'static str) -> AccessRight {
    AccessRight { within: AnswerWithin::Months(1), within_source: GDPR_MONTH, withhold_basis, withhold_source }
}

/// A record-keeping period and the law that sets it.
#[derive(Clone, Copy)]
struct RecordKeeping {
    seconds: i64,
    source: &'static str,
}

/// Five years, with the leap days they can hold.
const FIVE_YEARS: i64 = (5 * 365 + 2) * DAY;

const fn five_years(source: &'static str) -> RecordKeeping {
    RecordKeeping { seconds: FIVE_YEARS, source }
}

const fn bracket(up_to_multiple: Option<u32>, cooloff_seconds: i64) -> CooloffBracket {
    CooloffBracket { up_to_multiple, cooloff_seconds }
}

/// The default profile's CTR threshold and CDD amount, in cents.
#[cfg(not(feature = "candidate-for-tests"))]
const DEFAULT_CTR_AND_CDD: (i64, i64) = (1_000_000, 200_000);

/// A backtest candidate's: the CTR threshold halved, the CDD amount raised.
#[cfg(feature = "candidate-for-tests")]
const DEFAULT_CTR_AND_CDD: (i64, i64) = (500_000, 300_000);

/// A retention row as the profiles declare it.
#[derive(Clone, Copy)]
struct Keep {
    class: RecordClass,
    required: bool,
    keep_seconds: i64,
    from: RetentionStart,
    record_cap_seconds: Option<i64>,
    extendable_seconds: Option<i64>,
    then_delete: bool,
    basis: &'static str,
    source: &'static str,
}

/// A profile's table as declared.
#[derive(Clone, Copy)]
struct Retention {
    inactivity_seconds: i64,
    inactivity_source: &'static str,
    rules: &'static [Keep],
}

/// Ten years, with the leap days they can hold.
const TEN_YEARS: i64 = (10 * 365 + 3) * DAY;

/// Six years, with the leap days they can hold.
const SIX_YEARS: i64 = (6 * 365 + 2) * DAY;

/// Two years, with the leap day they can hold: the inactivity fallback.
const TWO_YEARS: i64 = (2 * 365 + 1) * DAY;

const INACTIVITY_CHOICE: &str = "no law sets it: the project's choice (docs/decisions.md), two years without activity";

/// Kept `keep_seconds` after the relationship ends because a law says so.
const fn required(class: RecordClass, keep_seconds: i64, then_delete: bool, basis: &'static str, source: &'static str) -> Keep {
    Keep {
        class,
        required: true,
        keep_seconds,
        from: RetentionStart::RelationshipEnd,
        record_cap_seconds: None,
        extendable_seconds: None,
        then_delete,
        basis,
        source,
    }
}

/// No law requires it: erased at once on request, and kept no longer than
/// the relationship otherwise (GDPR Art. 5(1)(e), 17(1)(a)).
const fn not_required(class: RecordClass) -> Keep {
    Keep {
        class,
        required: false,
        keep_seconds: 0,
        from: RetentionStart::RelationshipEnd,
        record_cap_seconds: None,
        extendable_seconds: None,
        then_delete: true,
        basis: "gdpr_17_1",
        source: "GDPR Art. 17(1)(a) and 5(1)(e): no longer needed, no law requires it",
    }
}

/// Kept `keep_seconds` from each record's own time.
const fn from_each_record(mut keep: Keep) -> Keep {
    keep.from = RetentionStart::Record;
    keep
}

const fn capped(mut keep: Keep, cap: i64) -> Keep {
    keep.record_cap_seconds = Some(cap);
    keep
}

const fn extendable(mut keep: Keep, by: i64) -> Keep {
    keep.extendable_seconds = Some(by);
    keep
}

/// An exclusion kept `keep_seconds` after it ends.
const fn exclusions_after_end(keep_seconds: i64, basis: &'static str, source: &'static str) -> Keep {
    Keep {
        class: RecordClass::Exclusions,
        required: true,
        keep_seconds,
        from: RetentionStart::RecordEnd,
        record_cap_seconds: None,
        extendable_seconds: None,
        then_delete: true,
        basis,
        source,
    }
}

use RecordClass::{AmlRecords, AuditLog, DecisionLog, IdentityScreening, KycChecks, LimitChanges, WebhookPayloads};

const GB_MLR: &str = "MLR 2017 reg 40(3)(a) and (4): five years from the end of the business relationship; reg 40(5): then deleted";

const GB_MLR_TRANSACTIONS: &str =
    "MLR 2017 reg 40(3)(b) and (4): transaction records five years from the end of the relationship, never beyond ten years from the transaction; reg 40(5): then deleted";

const GB_RETENTION: Retention = Retention {
    inactivity_seconds: TWO_YEARS,
    inactivity_source: INACTIVITY_CHOICE,
    rules: &[
        required(IdentityScreening, FIVE_YEARS, true, "uk_mlr_2017_r40", GB_MLR),
        required(KycChecks, FIVE_YEARS, true, "uk_mlr_2017_r40", GB_MLR),
        capped(required(AmlRecords, FIVE_YEARS, true, "uk_mlr_2017_r40", GB_MLR_TRANSACTIONS), TEN_YEARS),
        exclusions_after_end(
            FIVE_YEARS,
            "ukgc_lccp_3_5_3",
            "UKGC LCCP SR code 3.5.3 (a self-excluder is refused while excluded; an erasure request cannot remove them); after the end, the relationship's five years (MLR 2017 reg 40)",
        ),
        not_required(LimitChanges),
        required(DecisionLog, FIVE_YEARS, true, "uk_mlr_2017_r40", GB_MLR),
        required(AuditLog, FIVE_YEARS, true, "uk_mlr_2017_r40", GB_MLR),
        not_required(WebhookPayloads),
    ],
};

const EU_AMLD4: &str =
    "AMLD4 (EU) 2015/849 art. 40(1): five years after the end of the business relationship, extendable by up to five more; then deleted";

const SE_AML: &str = "lag (2017:630) 5 kap. 3 § (AMLD4 art. 40): five years from the end of the relationship, then deleted";

const SE_RETENTION: Retention = Retention {
    inactivity_seconds: TWO_YEARS,
    inactivity_source: INACTIVITY_CHOICE,
    rules: &[
        extendable(required(IdentityScreening, FIVE_YEARS, true, "eu_amld4_a40", SE_AML), FIVE_YEARS),
        extendable(required(KycChecks, FIVE_YEARS, true, "eu_amld4_a40", SE_AML), FIVE_YEARS),
        extendable(required(AmlRecords, FIVE_YEARS, true, "eu_amld4_a40", SE_AML), FIVE_YEARS),
        exclusions_after_end(FIVE_YEARS, "eu_amld4_a40", EU_AMLD4),
        not_required(LimitChanges),
        extendable(required(DecisionLog, FIVE_YEARS, true, "eu_amld4_a40", SE_AML), FIVE_YEARS),
        extendable(required(AuditLog, FIVE_YEARS, true, "eu_amld4_a40", SE_AML), FIVE_YEARS),
        not_required(WebhookPayloads),
    ],
};

const DE_GWG: &str = "GwG § 8 Abs. 4 (AMLD4 art. 40): five years from the end of the business relationship, then deleted";

const DE_RETENTION: Retention = Retention {
    inactivity_seconds: TWO_YEARS,
    inactivity_source: INACTIVITY_CHOICE,
    rules: &[
        extendable(required(IdentityScreening, FIVE_YEARS, true, "de_gwg_8_4", DE_GWG), FIVE_YEARS),
        extendable(required(KycChecks, FIVE_YEARS, true, "de_gwg_8_4", DE_GWG), FIVE_YEARS),
        extendable(required(AmlRecords, FIVE_YEARS, true, "de_gwg_8_4", DE_GWG), FIVE_YEARS),
        exclusions_after_end(SIX_YEARS, "de_gluestv_23", "GlüStV 2021 § 23: the data of an exclusion are deleted six years after it ends"),
        not_required(LimitChanges),
        extendable(required(DecisionLog, FIVE_YEARS, true, "de_gwg_8_4", DE_GWG), FIVE_YEARS),
        extendable(required(AuditLog, FIVE_YEARS, true, "de_gwg_8_4", DE_GWG), FIVE_YEARS),
        not_required(WebhookPayloads),
    ],
};

const NL_WWFT: &str = "Wwft art. 33(3) (AMLD4 art. 40): five years after the end of the business relationship, extendable; then deleted";

const NL_RETENTION: Retention = Retention {
    inactivity_seconds: TWO_YEARS,
    inactivity_source: INACTIVITY_CHOICE,
    rules: &[
        extendable(required(IdentityScreening, FIVE_YEARS, true, "nl_wwft_33", NL_WWFT), FIVE_YEARS),
        extendable(required(KycChecks, FIVE_YEARS, true, "nl_wwft_33", NL_WWFT), FIVE_YEARS),
        extendable(required(AmlRecords, FIVE_YEARS, true, "nl_wwft_33", NL_WWFT), FIVE_YEARS),
        // kept while in force (GDPR Art. 17(3)(b)), deleted the day it ends
        exclusions_after_end(
            0,
            "nl_wok_cruks",
            "Wet op de kansspelen, Cruks (the central exclusion register): an exclusion's data are deleted at its end date",
        ),
        not_required(LimitChanges),
        extendable(required(DecisionLog, FIVE_YEARS, true, "nl_wwft_33", NL_WWFT), FIVE_YEARS),
        extendable(required(AuditLog, FIVE_YEARS, true, "nl_wwft_33", NL_WWFT), FIVE_YEARS),
        not_required(WebhookPayloads),
    ],
};

const US_BSA: &str = "31 CFR 1010.430(d) and 1021.410: five years (SARs five years from filing, 1021.320(d)); no deletion mandate";

const DEFAULT_RETENTION: Retention = Retention {
    inactivity_seconds: TWO_YEARS,
    inactivity_source: INACTIVITY_CHOICE,
    rules: &[
        required(IdentityScreening, FIVE_YEARS, false, "us_31_cfr_1010_430", US_BSA),
        required(KycChecks, FIVE_YEARS, false, "us_31_cfr_1010_430", US_BSA),
        from_each_record(required(AmlRecords, FIVE_YEARS, false, "us_31_cfr_1010_430", US_BSA)),
        exclusions_after_end(
            FIVE_YEARS,
            "us_31_cfr_1010_430",
            "no law sets it: an ended exclusion kept as the relationship's records (31 CFR 1010.430(d))",
        ),
        not_required(LimitChanges),
        required(DecisionLog, FIVE_YEARS, false, "us_31_cfr_1010_430", US_BSA),
        required(AuditLog, FIVE_YEARS, false, "us_31_cfr_1010_430", US_BSA),
        not_required(WebhookPayloads),
    ],
};

const CA_PCMLTFR: &str =
    "PCMLTFR s. 148(1): at least five years (client identification from the account's closing, other records from their creation)";

const CA_ON_RETENTION: Retention = Retention {
    inactivity_seconds: TWO_YEARS,
    inactivity_source: INACTIVITY_CHOICE,
    rules: &[
        required(IdentityScreening, FIVE_YEARS, false, "ca_pcmltfr_148", CA_PCMLTFR),
        required(KycChecks, FIVE_YEARS, false, "ca_pcmltfr_148", CA_PCMLTFR),
        from_each_record(required(AmlRecords, FIVE_YEARS, false, "ca_pcmltfr_148", CA_PCMLTFR)),
        exclusions_after_end(
            FIVE_YEARS,
            "ca_pcmltfr_148",
            "AGCO Standards 2.24 (self-exclusion) with the relationship's five years (PCMLTFR s. 148(1))",
        ),
        not_required(LimitChanges),
        required(DecisionLog, FIVE_YEARS, false, "ca_pcmltfr_148", CA_PCMLTFR),
        required(AuditLog, FIVE_YEARS, false, "ca_pcmltfr_148", CA_PCMLTFR),
        not_required(WebhookPayloads),
    ],
};

const PROFILES: &[Profile] = &[
    Profile {
        name: DEFAULT_JURISDICTION,
        regulator: "the Compliance Gateway specification",
        increase_cooloffs: &[bracket(Some(2), COOLOFF_UP_TO_2X), bracket(Some(5), COOLOFF_UP_TO_5X), bracket(None, COOLOFF_ABOVE_5X)],
        // US casino CTR (31 CFR 1021.311), EU CDD amount (AMLD4 art. 11(d)), KSA velocity, in dollars
        aml: standard_aml("USD", Some(DEFAULT_CTR_AND_CDD.0), DEFAULT_CTR_AND_CDD.1, 1_500_000),
        record_keeping: five_years("31 CFR 1010.430(d): records kept five years"),
        retention: DEFAULT_RETENTION,
        access: AccessRight {
            within: AnswerWithin::Months(1),
            within_source: "no US law sets a general right of access: the GDPR's period (art. 12(3)), the strictest common one",
            withhold_basis: "us_31_usc_5318_g_2",
            withhold_source: "31 U.S.C. 5318(g)(2) and 31 CFR 1021.320(e): a SAR, and any information that would reveal one, is not disclosed",
        },
    },
    Profile {
        name: "GB",
        regulator: "UK Gambling Commission (LCCP SR 3.12.2)",
        increase_cooloffs: &[bracket(None, DAY)],
        // MLR 2017 reg 27: EUR 2,000 or its sterling equivalent, taken low; no CTR; DAML 7 working days (POCA s.335)
        // MLR 2017 reg 31(1): a relevant person unable to apply CDD must not carry out
        // any transaction with the customer; UKGC's casino guidance reads it as locking
        // the customer's funds (deposits included) until CDD is done
        aml: standard_aml("GBP", None, 170_000, 1_300_000)
            .with_consent(7)
            .locking_deposits_until_cdd("MLR 2017 reg 31(1) (no transaction until CDD); UKGC AML guidance for casinos"),
        record_keeping: five_years("MLR 2017 reg 40(3): five years from the end of the business relationship or the transaction"),
        retention: GB_RETENTION,
        access: AccessRight {
            within: AnswerWithin::Months(1),
            within_source: "UK GDPR art. 12(3): within one month of receipt",
            withhold_basis: "uk_dpa_2018_sch2_para2",
            withhold_source: "DPA 2018 Sch. 2 para. 2 (crime and taxation), record by record, with POCA 2002 s. 333A (tipping off)",
        },
    },
    Profile {
        name: "SE",
        regulator: "Spelinspektionen (SIFS 2018:8, 6 kap. 2 §)",
        increase_cooloffs: &[bracket(None, 3 * DAY)],
        aml: standard_aml("SEK", None, 2_200_000, 17_000_000),
        record_keeping: five_years("lag (2017:630) om åtgärder mot penningtvätt 5 kap. 3 § (AMLD4 art. 40): five years"),
        retention: SE_RETENTION,
        access: gdpr_access("eu_aml_tipping_off", EU_TIPPING_OFF),
    },
    Profile {
        name: "DE",
        regulator: "GGL, GlüStV 2021 § 6c",
        increase_cooloffs: &[bracket(None, 7 * DAY)],
        aml: standard_aml("EUR", None, 200_000, 1_500_000),
        record_keeping: five_years("GwG § 8 Abs. 4: five years"),
        retention: DE_RETENTION,
        access: gdpr_access("de_gwg_47", "GwG § 47 Abs. 1 (Verbot der Informationsweitergabe) with GDPR art. 23(1)(d)"),
    },
    Profile {
        name: "NL",
        regulator: "Kansspelautoriteit (Wet Koa)",
        // no NL-specific cool-off was researched: the spec's brackets (the longest of the profiles' at each size)
        increase_cooloffs: &[bracket(Some(2), COOLOFF_UP_TO_2X), bracket(Some(5), COOLOFF_UP_TO_5X), bracket(None, COOLOFF_ABOVE_5X)],
        // EU CDD amount (AMLD4 art. 11(d)); KSA: EUR 15,000 in 24 hours reportable
        aml: standard_aml("EUR", None, 200_000, 1_500_000),
        record_keeping: five_years("Wwft art. 33(3): five years after the end of the business relationship"),
        retention: NL_RETENTION,
        access: gdpr_access("nl_wwft_23", "Wwft art. 23 (geheimhouding van een melding) with GDPR art. 23(1)(d) and UAVG art. 41"),
    },
    Profile {
        name: "CA-ON",
        regulator: "AGCO Registrar's Standards for Internet Gaming, 2.24",
        increase_cooloffs: &[bracket(None, DAY)],
        // FINTRAC large cash transaction report: CAD 10,000 or more, i.e. more than 9,999.99
        aml: standard_aml("CAD", Some(999_999), 300_000, 2_200_000),
        record_keeping: five_years("PCMLTFR s. 148(1): at least five years"),
        retention: CA_ON_RETENTION,
        access: AccessRight {
            within: AnswerWithin::Days(30),
            within_source: "PIPEDA s. 8(3): within thirty days after receipt",
            withhold_basis: "ca_pipeda_9_2_1",
            withhold_source: "PIPEDA s. 9(2.1)-(2.4) (a disclosure to FINTRAC) with PCMLTFA s. 8 (no disclosure that a report is made)",
        },
    },
];

fn find(name: &str) -> Option<&'static Profile> {
    PROFILES.iter().find(|p| p.name == name)
}

/// Every profile, with its parameters.
pub fn jurisdictions() -> Vec<JurisdictionProfile> {
    PROFILES
        .iter()
        .map(|p| JurisdictionProfile {
            name: p.name.to_string(),
            regulator: p.regulator.to_string(),
            increase_cooloffs: p.increase_cooloffs.to_vec(),
            aml: p.aml.parameters(),
            record_keeping_seconds: p.record_keeping.seconds,
            record_keeping_source: p.record_keeping.source.to_string(),
        })
        .collect()
}

/// The retention table of a profile; `None` for a name no profile has
/// (never the default table: a caller dates nothing under a profile it misread).
pub fn find_retention(jurisdiction: &str) -> Option<RetentionTable> {
    find(jurisdiction).map(|p| table_of(p.name, p.retention))
}

fn table_of(name: &str, retention: Retention) -> RetentionTable {
    RetentionTable {
        jurisdiction: name.to_string(),
        inactivity_seconds: retention.inactivity_seconds,
        inactivity_source: retention.inactivity_source.to_string(),
        rules: retention
            .rules
            .iter()
            .map(|k| RetentionRule {
                class: k.class,
                required: k.required,
                keep_seconds: k.keep_seconds,
                from: k.from,
                record_cap_seconds: k.record_cap_seconds,
                extendable_seconds: k.extendable_seconds,
                then_delete: k.then_delete,
                basis: k.basis.to_string(),
                source: k.source.to_string(),
            })
            .collect(),
    }
}

/// The right of access of a profile; `None` for a name no profile has.
pub(crate) fn find_access(jurisdiction: &str) -> Option<AccessRight> {
    find(jurisdiction).map(|p| p.access)
}

/// Whether a profile of this name exists.
pub fn is_jurisdiction(name: &str) -> bool {
    find(name).is_some()
}

/// The cool-off of an increase from `current` to `requested` (both positive)
/// under a profile. A name no profile has gets the longest cool-off any
/// profile sets: a player is never given a shorter wait by a mistake.
pub(crate) fn increase_cooloff(jurisdiction: &str, current: i64, requested: i64) -> i64 {
    let Some(profile) = find(jurisdiction) else {
        return PROFILES.iter().flat_map(|p| p.increase_cooloffs).map(|b| b.cooloff_seconds).max().unwrap_or(COOLOFF_ABOVE_5X);
    };
    let (current, requested) = (i128::from(current), i128::from(requested));
    profile
        .increase_cooloffs
        .iter()
        .find(|b| b.up_to_multiple.is_none_or(|m| requested <= i128::from(m) * current))
        .or(profile.increase_cooloffs.last())
        .map_or(COOLOFF_ABOVE_5X, |b| b.cooloff_seconds)
}

/// A profile's AML parameters; a name no profile has gets the default profile's.
pub(crate) fn aml_parameters(jurisdiction: &str) -> AmlParameters {
    find(jurisdiction).or(PROFILES.first()).map_or_else(|| standard_aml("USD", Some(1_000_000), 200_000, 1_500_000), |p| p.aml).parameters()
}

/// Whether a lock until due diligence refuses deposits under a profile: only
/// where its regulator says so (the spec's own rule: deposits are not gated
/// by KYC). A name no profile has is read as the default profile.
pub(crate) fn cdd_lock_refuses_deposits(jurisdiction: &str) -> bool {
    aml_parameters(jurisdiction).deposits_locked_until_cdd.is_some()
}

#[cfg(test)]
mod tests {
    fn table(name: &str) -> RetentionTable {
        find_retention(name).unwrap_or_else(|| RetentionTable {
            jurisdiction: String::new(),
            inactivity_seconds: 0,
            inactivity_source: String::new(),
            rules: Vec::new(),
        })
    }
    use super::*;

    #[test]
    fn each_profile_has_its_brackets_at_their_boundaries() {
        assert_eq!(increase_cooloff("default", 100, 200), DAY);
        assert_eq!(increase_cooloff("default", 100, 201), 2 * DAY);
        assert_eq!(increase_cooloff("default", 100, 500), 2 * DAY);
        assert_eq!(increase_cooloff("default", 100, 501), 7 * DAY);
        for (name, seconds) in [("GB", DAY), ("SE", 3 * DAY), ("DE", 7 * DAY), ("CA-ON", DAY)] {
            assert_eq!(increase_cooloff(name, 100, 101), seconds, "{name}");
            assert_eq!(increase_cooloff(name, 100, 100_000), seconds, "{name}");
        }
        assert_eq!(increase_cooloff("XX", 100, 101), 7 * DAY, "an unknown name waits the longest");
    }

    #[test]
    fn names_are_unique_and_brackets_end_open() {
        let all = jurisdictions();
        for (i, p) in all.iter().enumerate() {
            assert!(all.iter().skip(i + 1).all(|q| q.name != p.name), "{} twice", p.name);
            assert!(p.increase_cooloffs.last().is_some_and(|b| b.up_to_multiple.is_none()), "{} has no bracket for every increase", p.name);
        }
        assert!(is_jurisdiction("default") && is_jurisdiction("GB") && !is_jurisdiction("gb"));
    }

    #[test]
    fn each_profile_names_its_record_keeping_period_and_its_source() {
        for p in jurisdictions() {
            assert!(p.record_keeping_seconds >= FIVE_YEARS, "{}: at least five years", p.name);
            assert!(!p.record_keeping_source.is_empty(), "{}: a source", p.name);
        }
    }

    #[test]
    fn each_profile_has_a_retention_row_per_class_with_its_basis() {
        for p in jurisdictions() {
            let table = table(&p.name);
            assert_eq!(table.jurisdiction, p.name);
            assert!(table.inactivity_seconds > 0 && !table.inactivity_source.is_empty());
            for class in RecordClass::ALL {
                let rows: Vec<_> = table.rules.iter().filter(|r| r.class == *class).collect();
                assert_eq!(rows.len(), 1, "{}: one row for {}", p.name, class.as_str());
                let row = rows[0];
                assert!(!row.basis.is_empty() && !row.source.is_empty(), "{} {}", p.name, class.as_str());
                // an exclusion is required while in force, even where it goes the day it ends (NL)
                let kept = row.keep_seconds > 0 || row.class == RecordClass::Exclusions;
                assert_eq!(row.required, kept, "{} {}: a required class is kept, another is not", p.name, class.as_str());
            }
        }
        assert_eq!(find_retention("XX"), None, "an unknown name has no table");
    }

    #[test]
    fn retention_tables_carry_the_researched_values() {
        let gb = table("GB");
        let aml = gb.rule(RecordClass::AmlRecords).unwrap();
        assert_eq!((aml.keep_seconds, aml.record_cap_seconds, aml.then_delete), (FIVE_YEARS, Some(TEN_YEARS), true));
        assert_eq!(aml.from, RetentionStart::RelationshipEnd);
        let de = table("DE");
        let exclusions = de.rule(RecordClass::Exclusions).unwrap();
        assert_eq!((exclusions.keep_seconds, exclusions.from, exclusions.then_delete), (SIX_YEARS, RetentionStart::RecordEnd, true));
        assert!(exclusions.source.contains("§ 23"));
        assert_eq!(de.rule(RecordClass::IdentityScreening).unwrap().extendable_seconds, Some(FIVE_YEARS));
        let nl = table("NL");
        let nl_exclusions = nl.rule(RecordClass::Exclusions).unwrap();
        assert_eq!(
            (nl_exclusions.keep_seconds, nl_exclusions.from, nl_exclusions.then_delete),
            (0, RetentionStart::RecordEnd, true),
            "Cruks: at its end"
        );
        assert!(nl_exclusions.required && nl_exclusions.source.contains("Cruks"));
        let nl_aml = nl.rule(RecordClass::AmlRecords).unwrap();
        assert_eq!((nl_aml.keep_seconds, nl_aml.from, nl_aml.then_delete), (FIVE_YEARS, RetentionStart::RelationshipEnd, true));
        assert!(nl_aml.source.contains("Wwft"));
        let us = table("default");
        let us_aml = us.rule(RecordClass::AmlRecords).unwrap();
        assert!(!us_aml.then_delete, "the BSA keeps five years and mandates no deletion");
        assert_eq!(us_aml.from, RetentionStart::Record, "five years from each record or filing");
        // the twin: what no law requires goes at once, everywhere
        for p in jurisdictions() {
            let table = table(&p.name);
            for class in [RecordClass::LimitChanges, RecordClass::WebhookPayloads] {
                assert!(!table.rule(class).unwrap().required, "{} {}", p.name, class.as_str());
            }
            assert!(table.rule(RecordClass::AmlRecords).unwrap().required, "{}", p.name);
        }
    }

    #[test]
    fn only_a_profile_that_says_so_refuses_deposits_under_a_cdd_lock() {
        assert!(!cdd_lock_refuses_deposits("default"), "the spec: deposits are not gated by KYC");
        assert!(cdd_lock_refuses_deposits("GB"));
        assert!(!cdd_lock_refuses_deposits("DE") && !cdd_lock_refuses_deposits("XX"));
        let gb = jurisdictions().into_iter().find(|p| p.name == "GB").unwrap();
        assert!(gb.aml.deposits_locked_until_cdd.is_some_and(|source| source.contains("reg 31")));
    }
}
