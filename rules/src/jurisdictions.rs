//! Jurisdiction profiles: the parameters a regulator sets differently, one
//! profile per value of a tenant's `jurisdiction`. Every profile lives here
//! and only here: adding one is a change to this file (and the committed
//! component), never to a host or the gateway. Sources are in
//! `docs/decisions.md` ("Jurisdictions").

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::aml::{AmlParameters, StandardAml};
use crate::limits::{COOLOFF_ABOVE_5X, COOLOFF_UP_TO_2X, COOLOFF_UP_TO_5X};
use crate::DAY;

/// The profile of tenants that name none: the spec's own tables.
pub const DEFAULT_JURISDICTION: &str = "default";

/// One step of an increase's cool-off: increases up to `up_to_multiple`
/// times the limit in force (every increase when `None`) wait `cooloff_seconds`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CooloffBracket {
    pub up_to_multiple: Option<u32>,
    pub cooloff_seconds: i64,
}

/// A profile as `GET /v1/rules` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JurisdictionProfile {
    pub name: String,
    pub regulator: String,
    /// the brackets of a deposit limit increase, smallest first; decreases take effect at once everywhere
    pub increase_cooloffs: Vec<CooloffBracket>,
    /// the AML monitoring parameters
    pub aml: AmlParameters,
    /// how long records of a user's transactions and due diligence are kept
    /// after they were made; the retention sweep deletes them after it
    pub record_keeping_seconds: i64,
    /// the law that sets `record_keeping_seconds`
    pub record_keeping_source: String,
}

struct Profile {
    name: &'static str,
    regulator: &'static str,
    increase_cooloffs: &'static [CooloffBracket],
    aml: StandardAml,
    record_keeping: RecordKeeping,
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

const PROFILES: &[Profile] = &[
    Profile {
        name: DEFAULT_JURISDICTION,
        regulator: "the Compliance Gateway specification",
        increase_cooloffs: &[bracket(Some(2), COOLOFF_UP_TO_2X), bracket(Some(5), COOLOFF_UP_TO_5X), bracket(None, COOLOFF_ABOVE_5X)],
        // US casino CTR (31 CFR 1021.311), EU CDD amount (AMLD4 art. 11(d)), KSA velocity, in dollars
        aml: AmlParameters::standard("USD", Some(DEFAULT_CTR_AND_CDD.0), DEFAULT_CTR_AND_CDD.1, 1_500_000),
        record_keeping: five_years("31 CFR 1010.430(d): records kept five years"),
    },
    Profile {
        name: "GB",
        regulator: "UK Gambling Commission (LCCP SR 3.12.2)",
        increase_cooloffs: &[bracket(None, DAY)],
        // MLR 2017 reg 27: EUR 2,000 or its sterling equivalent, taken low; no CTR; DAML 7 working days (POCA s.335)
        // MLR 2017 reg 31(1): a relevant person unable to apply CDD must not carry out
        // any transaction with the customer; UKGC's casino guidance reads it as locking
        // the customer's funds (deposits included) until CDD is done
        aml: AmlParameters::standard("GBP", None, 170_000, 1_300_000)
            .with_consent(7)
            .locking_deposits_until_cdd("MLR 2017 reg 31(1) (no transaction until CDD); UKGC AML guidance for casinos"),
        record_keeping: five_years("MLR 2017 reg 40(3): five years from the end of the business relationship or the transaction"),
    },
    Profile {
        name: "SE",
        regulator: "Spelinspektionen (SIFS 2018:8, 6 kap. 2 §)",
        increase_cooloffs: &[bracket(None, 3 * DAY)],
        aml: AmlParameters::standard("SEK", None, 2_200_000, 17_000_000),
        record_keeping: five_years("lag (2017:630) om åtgärder mot penningtvätt 5 kap. 3 § (AMLD4 art. 40): five years"),
    },
    Profile {
        name: "DE",
        regulator: "GGL, GlüStV 2021 § 6c",
        increase_cooloffs: &[bracket(None, 7 * DAY)],
        aml: AmlParameters::standard("EUR", None, 200_000, 1_500_000),
        record_keeping: five_years("GwG § 8 Abs. 4: five years"),
    },
    Profile {
        name: "CA-ON",
        regulator: "AGCO Registrar's Standards for Internet Gaming, 2.24",
        increase_cooloffs: &[bracket(None, DAY)],
        // FINTRAC large cash transaction report: CAD 10,000 or more, i.e. more than 9,999.99
        aml: AmlParameters::standard("CAD", Some(999_999), 300_000, 2_200_000),
        record_keeping: five_years("PCMLTFR s. 148(1): at least five years"),
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
    find(jurisdiction)
        .or(PROFILES.first())
        .map_or_else(|| AmlParameters::standard("USD", Some(1_000_000), 200_000, 1_500_000), |p| p.aml)
        .parameters()
}

/// Whether a lock until due diligence refuses deposits under a profile: only
/// where its regulator says so (the spec's own rule: deposits are not gated
/// by KYC). A name no profile has is read as the default profile.
pub(crate) fn cdd_lock_refuses_deposits(jurisdiction: &str) -> bool {
    aml_parameters(jurisdiction).deposits_locked_until_cdd.is_some()
}

/// Serde's default for facts logged before profiles existed.
pub(crate) fn default_jurisdiction() -> String {
    DEFAULT_JURISDICTION.to_string()
}

#[cfg(test)]
mod tests {
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
    fn only_a_profile_that_says_so_refuses_deposits_under_a_cdd_lock() {
        assert!(!cdd_lock_refuses_deposits("default"), "the spec: deposits are not gated by KYC");
        assert!(cdd_lock_refuses_deposits("GB"));
        assert!(!cdd_lock_refuses_deposits("DE") && !cdd_lock_refuses_deposits("XX"));
        let gb = jurisdictions().into_iter().find(|p| p.name == "GB").unwrap();
        assert!(gb.aml.deposits_locked_until_cdd.is_some_and(|source| source.contains("reg 31")));
    }
}
