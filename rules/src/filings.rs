//! Regulatory code lists for the drafts of regulator filings (issue #31):
//! how the AML typologies map onto FinCEN's SAR classification, how a
//! gaming day's cash events map onto FinCEN's CTR detail codes, and the
//! FinCEN codes of a casino filer and of an identity document. The values
//! are those of FinCEN's BSA E-Filing XML schemas, version 1.2
//! (`EFL_SARXBatchSchema.xsd`, `EFL_CTRXBatchSchema.xsd`); sources and
//! choices are in `docs/decisions.md`. The gateway builds the XML;
//! the codes live here; the authority's format tables are in `rules-model`.

use alloc::vec::Vec;

use crate::aml::{AmlEventType, PaymentMethod, Typology};

pub use rules_model::filings::*;

fn class(type_id: u32, subtype_id: u32) -> SarClassification {
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
pub fn sar_other_gaming() -> SarClassification {
    SarClassification { type_id: 12, subtype_id: 12999, other_text: Some("Gaming account activity, see narrative".into()) }
}

/// The distinct classifications of a case's typologies, in the typologies'
/// order; [`sar_other_gaming`] when none maps. A subtype appears once (the
/// schema's `Unique-SuspiciousActivitySubtypeID`).
pub fn sar_classifications(typologies: &[Typology]) -> Vec<SarClassification> {
    let mut out: Vec<SarClassification> = alloc::vec::Vec::new();
    for c in typologies.iter().filter_map(|t| sar_classification(*t)) {
        if !out.iter().any(|o| o.subtype_id == c.subtype_id) {
            out.push(c);
        }
    }
    if out.is_empty() {
        out.push(sar_other_gaming());
    }
    out
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

/// A filing's codes: the SAR classifications of the case's typologies, and
/// the CTR detail code of each event (`None`: it moves no currency at the casino).
pub fn classify_filing(facts: &FilingFacts) -> FilingCodes {
    FilingCodes {
        sar: sar_classifications(&facts.typologies),
        ctr: facts.events.iter().map(|e| ctr_detail(e.event_type, e.method).map(|(code, side)| CtrCode { code, side })).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issue_examples_map_and_a_case_never_lacks_a_classification() {
        assert_eq!(sar_classification(Typology::Structuring).map(|c| c.type_id), Some(1));
        assert_eq!(sar_classification(Typology::MinimalPlay).map(|c| (c.type_id, c.subtype_id)), Some((12, 1202)));
        assert_eq!(sar_classifications(&[Typology::CtrThreshold]), [sar_other_gaming()]);
        // one subtype once, even when two typologies share it
        assert_eq!(sar_classifications(&[Typology::Velocity, Typology::DormantReactivation]).len(), 1);
        assert_eq!(ctr_detail(AmlEventType::Deposit, PaymentMethod::Card), None);
        assert_eq!(ctr_detail(AmlEventType::Deposit, PaymentMethod::Cash), Some((55, CashSide::In)));
        assert!(CASINO_TYPES.iter().all(|t| casino_subtype(t).is_some()) && casino_subtype("riverboat").is_none());
        assert!(ID_TYPES.iter().all(|t| fincen_id_type(t).is_some()));
    }
}
