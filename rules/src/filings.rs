//! Regulatory code lists for the drafts of regulator filings (issue #31):
//! how the AML typologies map onto FinCEN's SAR classification, how a
//! gaming day's cash events map onto FinCEN's CTR detail codes, and the
//! FinCEN codes of a casino filer and of an identity document. The values
//! are those of FinCEN's BSA E-Filing XML schemas, version 1.2
//! (`EFL_SARXBatchSchema.xsd`, `EFL_CTRXBatchSchema.xsd`); sources and
//! choices are in `docs/decisions.md`. The gateway builds the XML;
//! the codes live here.

use crate::aml::{AmlEventType, PaymentMethod, Typology};

/// A FinCEN SAR classification: the suspicious activity type (item 29–40 of
/// the form), its subtype, and the text an "Other" subtype needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SarClassification {
    pub type_id: u32,
    pub subtype_id: u32,
    /// required by FinCEN with an "Other" subtype (`x999`)
    pub other_text: Option<&'static str>,
}

const fn class(type_id: u32, subtype_id: u32) -> SarClassification {
    SarClassification { type_id, subtype_id, other_text: None }
}

/// The SAR classification a typology maps to; `None` for the typologies
/// that are not suspicious activity in themselves (a CTR's threshold, due
/// diligence owed, money no rate converted).
pub fn sar_classification(typology: Typology) -> Option<SarClassification> {
    match typology {
        // 1 Structuring / 114 transaction(s) below the CTR threshold
        Typology::Structuring => Some(class(1, 114)),
        // 12 Gaming activities / 1202 minimal gaming with large transactions
        Typology::MinimalPlay => Some(class(12, 1202)),
        // 8 Money laundering / 807 suspicious use of multiple accounts (payment instruments)
        Typology::MultipleInstruments => Some(class(8, 807)),
        // 8 Money laundering / 812 transaction out of pattern for the customer
        Typology::Velocity | Typology::DormantReactivation => Some(class(8, 812)),
        // 9 Other suspicious activities / 911 two or more individuals working together (chip dumping)
        Typology::P2pDumping => Some(class(9, 911)),
        Typology::CtrThreshold | Typology::CddThreshold | Typology::UnconvertibleCurrency => None,
    }
}

/// The classification of a case none of whose typologies maps: 12 Gaming
/// activities / 12999 Other, with its text; the narrative says the rest.
pub const SAR_OTHER_GAMING: SarClassification =
    SarClassification { type_id: 12, subtype_id: 12999, other_text: Some("Gaming account activity, see narrative") };

/// The distinct classifications of a case's typologies, in the typologies'
/// order; [`SAR_OTHER_GAMING`] when none maps. A subtype appears once (the
/// schema's `Unique-SuspiciousActivitySubtypeID`).
pub fn sar_classifications(typologies: &[Typology]) -> alloc::vec::Vec<SarClassification> {
    let mut out: alloc::vec::Vec<SarClassification> = alloc::vec::Vec::new();
    for c in typologies.iter().filter_map(|t| sar_classification(*t)) {
        if !out.iter().any(|o| o.subtype_id == c.subtype_id) {
            out.push(c);
        }
    }
    if out.is_empty() {
        out.push(SAR_OTHER_GAMING);
    }
    out
}

/// The side of a CTR an amount is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CashSide {
    In,
    Out,
}

/// The CTR detail code (item 21/22 of the casino CTR) of a cash event, and
/// its side; `None` for an event that moves no currency at the casino.
pub fn ctr_detail(event_type: AmlEventType, method: PaymentMethod) -> Option<(u32, CashSide)> {
    if method != PaymentMethod::Cash {
        return None;
    }
    match event_type {
        // 55 Deposit(s): front money or safekeeping deposits into the player's account
        AmlEventType::Deposit => Some((55, CashSide::In)),
        // 21 Currency wager(s), including money plays
        AmlEventType::Wager => Some((21, CashSide::In)),
        // 56 Withdrawal(s) of front money or safekeeping
        AmlEventType::Withdrawal => Some((56, CashSide::Out)),
        // 31 Payment(s) on wager(s)/bet(s)
        AmlEventType::Win => Some((31, CashSide::Out)),
        // 33 Travel and complimentary expenses and gaming incentives
        AmlEventType::Bonus => Some((33, CashSide::Out)),
        AmlEventType::P2pTransfer | AmlEventType::InstrumentAdded => None,
    }
}

/// Party type codes of a FinCEN batch (`ActivityPartyTypeCode`).
pub mod party {
    pub const TRANSMITTER: &str = "35";
    pub const TRANSMITTER_CONTACT: &str = "37";
    pub const FILING_INSTITUTION: &str = "30";
    pub const CONTACT_OFFICE: &str = "8";
    pub const TRANSACTION_LOCATION: &str = "34";
    /// SAR: the subject
    pub const SUBJECT: &str = "33";
    /// CTR: the person conducting the transaction on their own behalf
    pub const CONDUCTOR_OWN_BEHALF: &str = "50";
}

/// FinCEN's amounts are whole US dollars.
pub const FINCEN_CURRENCY: &str = "USD";
/// Organisation type 1, Casino/Card club.
pub const CASINO_ORGANIZATION_TYPE: &str = "1";
/// The primary federal regulator of a casino: 7, the IRS.
pub const CASINO_PRIMARY_REGULATOR: &str = "7";
/// Identification type codes: EIN, TIN, the transmitter control code.
pub const ID_EIN: &str = "2";
pub const ID_TIN: &str = "4";
pub const ID_TCC: &str = "28";
/// `PartyAccountAssociationTypeCode` of a CTR account: cash in, cash out.
pub const CTR_ACCOUNT_CASH_IN: &str = "8";
pub const CTR_ACCOUNT_CASH_OUT: &str = "9";
/// A SAR's narrative: at most five blocks of 4,000 characters.
pub const SAR_NARRATIVE_BLOCKS: usize = 5;
pub const SAR_NARRATIVE_BLOCK_CHARS: usize = 4_000;

/// The casino subtype (101, 102, 103) of a casino type as the filing
/// settings name it.
pub fn casino_subtype(casino_type: &str) -> Option<&'static str> {
    match casino_type {
        "state_licensed" => Some("101"),
        "tribal" => Some("102"),
        "card_club" => Some("103"),
        _ => None,
    }
}

/// The casino types the filing settings accept.
pub const CASINO_TYPES: [&str; 3] = ["state_licensed", "tribal", "card_club"];

/// The FinCEN identification type code of an identity document as the
/// officer names it; `(code, other_text)`, "Other" (999) carrying its text.
pub fn fincen_id_type(id_type: &str) -> Option<(&'static str, Option<&'static str>)> {
    match id_type {
        "ssn" | "itin" => Some(("1", None)),
        "drivers_license" | "state_id" => Some(("5", None)),
        "passport" => Some(("6", None)),
        "alien_registration" => Some(("7", None)),
        "foreign_id" => Some(("9", None)),
        "national_id" => Some(("999", Some("National identity card"))),
        _ => None,
    }
}

/// The identity document types a filing's subject may name.
pub const ID_TYPES: [&str; 8] = ["ssn", "itin", "drivers_license", "state_id", "passport", "alien_registration", "foreign_id", "national_id"];

/// The goAML identifier type of an identity document (goAML's
/// `identifier_type` list as UNODC's base schema spells it).
pub fn goaml_id_type(id_type: &str) -> &'static str {
    match id_type {
        "passport" => "PPT",
        "drivers_license" => "DL",
        "national_id" | "state_id" => "NIC",
        "ssn" | "itin" => "TID",
        _ => "OTH",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_examples_map_and_a_case_never_lacks_a_classification() {
        assert_eq!(sar_classification(Typology::Structuring).map(|c| c.type_id), Some(1));
        assert_eq!(sar_classification(Typology::MinimalPlay).map(|c| (c.type_id, c.subtype_id)), Some((12, 1202)));
        assert_eq!(sar_classifications(&[Typology::CtrThreshold]), [SAR_OTHER_GAMING]);
        // one subtype once, even when two typologies share it
        assert_eq!(sar_classifications(&[Typology::Velocity, Typology::DormantReactivation]).len(), 1);
        assert_eq!(ctr_detail(AmlEventType::Deposit, PaymentMethod::Card), None);
        assert_eq!(ctr_detail(AmlEventType::Deposit, PaymentMethod::Cash), Some((55, CashSide::In)));
        assert!(CASINO_TYPES.iter().all(|t| casino_subtype(t).is_some()) && casino_subtype("riverboat").is_none());
        assert!(ID_TYPES.iter().all(|t| fincen_id_type(t).is_some()));
    }
}
