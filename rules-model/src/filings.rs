//! The vocabulary of the regulator filings' drafts: the codes the rules
//! answer (`classify-filing`) and the authorities' own format tables (FinCEN's
//! BSA E-Filing XML schemas 1.2, goAML's base schema): party types, identity
//! document types, casino types. These tables only spell what a field means
//! in the authority's schema; which classification a case gets is decided
//! by the component.

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::aml::{AmlEventType, PaymentMethod, Typology};
use crate::types::named_enum;

/// A FinCEN SAR classification: the suspicious activity type (item 29–40 of
/// the form), its subtype, and the text an "Other" subtype needs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SarClassification {
    pub type_id: u32,
    pub subtype_id: u32,
    /// required by FinCEN with an "Other" subtype (`x999`)
    pub other_text: Option<String>,
}

named_enum!(
    /// The side of a CTR an amount is on.
    CashSide { In = "in", Out = "out" }
);

/// A CTR detail code (item 21/22 of the casino CTR) and its side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CtrCode {
    pub code: u32,
    pub side: CashSide,
}

/// An event a filing reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingEvent {
    pub event_type: AmlEventType,
    pub method: PaymentMethod,
}

/// What a filing's codes are read from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingFacts {
    pub typologies: Vec<Typology>,
    pub events: Vec<FilingEvent>,
}

/// A filing's codes: the SAR classifications, and each event's CTR code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FilingCodes {
    pub sar: Vec<SarClassification>,
    pub ctr: Vec<Option<CtrCode>>,
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
