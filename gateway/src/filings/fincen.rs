//! FinCEN BSA E-Filing batches (schemas v1.2): a SAR (`SARX`) from an AML
//! case and a CTR (`CTRX`) for one gaming day. Elements are written in the
//! schema's order; a value the gateway lacks is written as FinCEN's
//! "unknown" indicator where the form has one, and always named in the
//! draft's problems. The codes come from `rules_model::filings`.

use rules_model::filings::{self as codes, party, CashSide, SarClassification};

use super::xml::Xml;
use super::{Address, FincenSettings, Problems, Subject};
use crate::error::ApiResult;

/// FinCEN's namespace for the BSA XML batches.
pub(crate) const NAMESPACE: &str = "www.fincen.gov/base";

/// What a SAR is drafted from.
pub(crate) struct SarDraft<'a> {
    /// `YYYYMMDD`
    pub filing_date: String,
    pub settings: Option<&'a FincenSettings>,
    pub subject: &'a Subject,
    /// `YYYYMMDD` of the first and last suspicious activity
    pub from_date: String,
    pub to_date: String,
    /// whole dollars; `None` when the activity carried no amount in USD
    pub amount_dollars: Option<i64>,
    pub classifications: Vec<SarClassification>,
    pub narrative: String,
}

/// One detail line of a CTR: its code, side and whole dollars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CtrDetail {
    pub code: u32,
    pub side: CashSide,
    pub dollars: i64,
}

/// What a CTR is drafted from.
pub(crate) struct CtrDraft<'a> {
    pub filing_date: String,
    pub settings: Option<&'a FincenSettings>,
    pub subject: &'a Subject,
    /// the player's account number at the casino
    pub account: &'a str,
    /// `YYYYMMDD` of the gaming day
    pub gaming_day: String,
    pub details: Vec<CtrDetail>,
}

/// Whole dollars of an amount in cents, rounded up (FinCEN: amounts in whole US dollars).
pub(crate) fn dollars(cents: i64) -> i64 {
    cents.saturating_add(99).div_euclid(100)
}

/// The narrative cut into at most five blocks of at most 4,000 characters,
/// each cut at a space where one is near and trimmed (no block begins or
/// ends with a space); a problem when it does not fit.
pub(crate) fn narrative_blocks(text: &str, problems: &mut Problems) -> Vec<String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut blocks = Vec::new();
    let mut at = 0;
    while at < chars.len() && blocks.len() < codes::SAR_NARRATIVE_BLOCKS {
        let mut end = (at + codes::SAR_NARRATIVE_BLOCK_CHARS).min(chars.len());
        if end < chars.len() {
            // cut at the last whitespace of the block's second half, if any
            if let Some(space) = (at + codes::SAR_NARRATIVE_BLOCK_CHARS / 2..end).rev().find(|i| chars[*i].is_whitespace()) {
                end = space;
            }
        }
        let block: String = chars[at..end].iter().collect::<String>().trim().to_string();
        if !block.is_empty() {
            blocks.push(block);
        }
        at = end;
        while at < chars.len() && chars[at].is_whitespace() {
            at += 1;
        }
    }
    if at < chars.len() {
        problems.add(
            "narrative",
            format!("longer than {} blocks of {} characters; the rest was left out", codes::SAR_NARRATIVE_BLOCKS, codes::SAR_NARRATIVE_BLOCK_CHARS),
        );
    }
    if blocks.is_empty() {
        problems.add("narrative", "missing");
    }
    blocks
}

/// An empty settings block, for a tenant with none: every field is then a problem.
fn settings_or_missing<'a>(settings: Option<&'a FincenSettings>, problems: &mut Problems) -> Option<&'a FincenSettings> {
    if settings.is_none() {
        problems.add("settings.fincen", "the tenant has no FinCEN filing settings (PUT /v1/admin/tenants/{tenant_id}/filing-settings)");
    }
    settings
}

fn name_party(xml: &mut Xml, field: &str, full_name: &str) {
    xml.open_seq("PartyName");
    xml.leaf("PartyNameTypeCode", "L");
    xml.leaf_of(field, "RawPartyFullName", full_name);
    xml.close("PartyName");
}

/// An address; fields absent are written as unknown and named as problems under `field`.
fn address(xml: &mut Xml, a: &Address, field: &str, problems: &mut Problems) {
    let city = problems.need(&format!("{field}.city"), a.city.as_deref());
    let country = problems.need(&format!("{field}.country"), a.country.as_deref());
    let state = problems.need(&format!("{field}.state"), a.state.as_deref());
    let street = problems.need(&format!("{field}.street"), a.street.as_deref());
    let zip = problems.need(&format!("{field}.zip"), a.zip.as_deref());
    xml.open_seq("Address");
    if city.is_none() {
        xml.leaf("CityUnknownIndicator", "Y");
    }
    if country.is_none() {
        xml.leaf("CountryCodeUnknownIndicator", "Y");
    }
    xml.opt_leaf_of(&format!("{field}.city"), "RawCityText", city);
    xml.opt_leaf_of(&format!("{field}.country"), "RawCountryCodeText", country);
    xml.opt_leaf_of(&format!("{field}.state"), "RawStateCodeText", state);
    xml.opt_leaf_of(&format!("{field}.street"), "RawStreetAddress1Text", street);
    xml.opt_leaf_of(&format!("{field}.zip"), "RawZIPCode", zip);
    if state.is_none() {
        xml.leaf("StateCodeUnknownIndicator", "Y");
    }
    if street.is_none() {
        xml.leaf("StreetAddressUnknownIndicator", "Y");
    }
    if zip.is_none() {
        xml.leaf("ZIPCodeUnknownIndicator", "Y");
    }
    xml.close("Address");
}

fn identification(xml: &mut Xml, field: &str, number: &str, code: &str) {
    xml.open_seq("PartyIdentification");
    xml.leaf_of(field, "PartyIdentificationNumberText", number);
    xml.leaf("PartyIdentificationTypeCode", code);
    xml.close("PartyIdentification");
}

fn phone(xml: &mut Xml, number: &str) {
    xml.open_seq("PhoneNumber");
    xml.leaf_of("settings.fincen.contact_phone", "PhoneNumberText", number);
    xml.close("PhoneNumber");
}

/// The filer's fields, each named when missing.
struct Filer<'a> {
    legal_name: &'a str,
    ein: &'a str,
    tcc: &'a str,
    subtype: &'a str,
    contact_name: &'a str,
    contact_phone: &'a str,
    address: Address,
}

fn filer<'a>(settings: Option<&'a FincenSettings>, problems: &mut Problems) -> Filer<'a> {
    let s = settings_or_missing(settings, problems);
    let mut field = |name: &str, value: Option<&'a str>| -> &'a str {
        if s.is_some() {
            problems.need(&format!("settings.fincen.{name}"), value).unwrap_or("")
        } else {
            value.unwrap_or("")
        }
    };
    let subtype = s.and_then(|s| codes::casino_subtype(&s.casino_type)).unwrap_or("");
    Filer {
        legal_name: field("legal_name", s.map(|s| s.legal_name.as_str())),
        ein: field("ein", s.map(|s| s.ein.as_str())),
        tcc: field("tcc", s.map(|s| s.tcc.as_str())),
        subtype: field("casino_type", Some(subtype).filter(|t| !t.is_empty())),
        contact_name: field("contact_name", s.map(|s| s.contact_name.as_str())),
        contact_phone: field("contact_phone", s.map(|s| s.contact_phone.as_str())),
        address: s.map(|s| s.address.clone()).unwrap_or_default(),
    }
}

/// The four parties of the institution: transmitter, its contact, the
/// filer, its contact office, and the transaction location.
fn institution_parties(xml: &mut Xml, f: &Filer<'_>, problems: &mut Problems, quiet: &mut Problems) {
    // 35 transmitter
    xml.open_seq("Party");
    xml.leaf("ActivityPartyTypeCode", party::TRANSMITTER);
    name_party(xml, "settings.fincen.legal_name", f.legal_name);
    address(xml, &f.address, "settings.fincen.address", problems);
    phone(xml, f.contact_phone);
    identification(xml, "settings.fincen.ein", f.ein, codes::ID_TIN);
    identification(xml, "settings.fincen.tcc", f.tcc, codes::ID_TCC);
    xml.close("Party");
    // 37 transmitter contact
    xml.open_seq("Party");
    xml.leaf("ActivityPartyTypeCode", party::TRANSMITTER_CONTACT);
    name_party(xml, "settings.fincen.contact_name", f.contact_name);
    xml.close("Party");
    // 30 filing institution; its address problems are the transmitter's, named once
    xml.open_seq("Party");
    xml.leaf("ActivityPartyTypeCode", party::FILING_INSTITUTION);
    xml.leaf("PrimaryRegulatorTypeCode", codes::CASINO_PRIMARY_REGULATOR);
    name_party(xml, "settings.fincen.legal_name", f.legal_name);
    address(xml, &f.address, "settings.fincen.address", quiet);
    identification(xml, "settings.fincen.ein", f.ein, codes::ID_EIN);
    classification(xml, f.subtype);
    xml.close("Party");
    // 8 contact office
    xml.open_seq("Party");
    xml.leaf("ActivityPartyTypeCode", party::CONTACT_OFFICE);
    name_party(xml, "settings.fincen.contact_name", f.contact_name);
    phone(xml, f.contact_phone);
    xml.close("Party");
    // 34 transaction location: the casino itself
    xml.open_seq("Party");
    xml.leaf("ActivityPartyTypeCode", party::TRANSACTION_LOCATION);
    xml.leaf("PrimaryRegulatorTypeCode", codes::CASINO_PRIMARY_REGULATOR);
    name_party(xml, "settings.fincen.legal_name", f.legal_name);
    address(xml, &f.address, "settings.fincen.address", quiet);
    identification(xml, "settings.fincen.ein", f.ein, codes::ID_EIN);
    classification(xml, f.subtype);
    xml.close("Party");
}

fn classification(xml: &mut Xml, subtype: &str) {
    xml.open_seq("OrganizationClassificationTypeSubtype");
    xml.opt_leaf("OrganizationSubtypeID", Some(subtype));
    xml.leaf("OrganizationTypeID", codes::CASINO_ORGANIZATION_TYPE);
    xml.close("OrganizationClassificationTypeSubtype");
}

/// The person's name, address, identity document and occupation (the
/// elements after the party type's own); `field` names the subject.
fn person(xml: &mut Xml, s: &Subject, problems: &mut Problems) {
    let last = problems.need("subject.last_name", s.last_name.as_deref());
    let first = problems.need("subject.first_name", s.first_name.as_deref());
    xml.open_seq("PartyName");
    if last.is_none() {
        xml.leaf("EntityLastNameUnknownIndicator", "Y");
    }
    if first.is_none() {
        xml.leaf("FirstNameUnknownIndicator", "Y");
    }
    xml.leaf("PartyNameTypeCode", "L");
    xml.opt_leaf_of("subject.last_name", "RawEntityIndividualLastName", last);
    xml.opt_leaf_of("subject.first_name", "RawIndividualFirstName", first);
    xml.close("PartyName");
    address(xml, &s.address, "subject.address", problems);
    let id_type = problems.need("subject.id_type", s.id_type.as_deref());
    let number = problems.need("subject.id_number", s.id_number.as_deref());
    let country = problems.need("subject.id_country", s.id_country.as_deref());
    let code = id_type.and_then(codes::fincen_id_type);
    let is_tin = code.is_some_and(|(c, _)| c == "1");
    match (code, number) {
        (Some((code, other)), Some(number)) => {
            xml.open_seq("PartyIdentification");
            if !is_tin {
                xml.opt_leaf_of("subject.id_country", "OtherIssuerCountryText", country);
            }
            xml.opt_leaf("OtherPartyIdentificationTypeText", other);
            xml.leaf_of("subject.id_number", "PartyIdentificationNumberText", number);
            xml.leaf("PartyIdentificationTypeCode", code);
            xml.close("PartyIdentification");
        }
        _ => {
            xml.open_seq("PartyIdentification");
            xml.leaf("IdentificationPresentUnknownIndicator", "Y");
            xml.close("PartyIdentification");
        }
    }
    if !is_tin {
        xml.open_seq("PartyIdentification");
        xml.leaf("TINUnknownIndicator", "Y");
        xml.close("PartyIdentification");
    }
    let occupation = problems.need("subject.occupation", s.occupation.as_deref());
    if let Some(occupation) = occupation {
        xml.open_seq("PartyOccupationBusiness");
        xml.leaf_of("subject.occupation", "OccupationBusinessText", occupation);
        xml.close("PartyOccupationBusiness");
    }
}

/// `YYYYMMDD` of an ISO date (`YYYY-MM-DD`).
pub(crate) fn compact_date(date: &str) -> String {
    date.replace('-', "")
}

/// A birth date after the filing's (`YYYYMMDD` both) is a problem: the
/// schema takes any date to 2099, a person cannot be born after the report.
fn after_filing(birth: &str, filing_date: &str, problems: &mut Problems) {
    if birth > filing_date {
        problems.add("subject.date_of_birth", "after the filing date");
    }
}

fn birth_date(xml: &mut Xml, s: &Subject, filing_date: &str, problems: &mut Problems) {
    match problems.need("subject.date_of_birth", s.date_of_birth.as_deref()) {
        Some(date) => {
            after_filing(&compact_date(date), filing_date, problems);
            xml.leaf_of("subject.date_of_birth", "IndividualBirthDateText", &compact_date(date))
        }
        None => xml.leaf("BirthDateUnknownIndicator", "Y"),
    }
}

fn root(xml: &mut Xml, total: i64, parties: usize, sar: bool) {
    let (total, parties) = (total.to_string(), parties.to_string());
    let mut attributes = vec![("xmlns", NAMESPACE), ("TotalAmount", total.as_str()), ("PartyCount", parties.as_str()), ("ActivityCount", "1")];
    if sar {
        attributes.extend([("ActivityAttachmentCount", "0"), ("AttachmentCount", "0")]);
    }
    xml.open("EFilingBatchXML", &attributes);
}

/// The parties every batch of ours holds: five of the institution and the person.
const PARTIES: usize = 6;

/// A SAR batch and the problems found while drafting it.
pub(crate) fn sar(d: &SarDraft<'_>, problems: &mut Problems) -> ApiResult<String> {
    let mut xml = Xml::new();
    let f = filer(d.settings, problems);
    let mut quiet = Problems::default();
    root(&mut xml, d.amount_dollars.unwrap_or(0), PARTIES, true);
    xml.leaf("FormTypeCode", "SARX");
    xml.open_seq("Activity");
    xml.leaf("FilingDateText", &d.filing_date);
    xml.open_seq("ActivityAssociation");
    xml.leaf("InitialReportIndicator", "Y");
    xml.close("ActivityAssociation");
    institution_parties(&mut xml, &f, problems, &mut quiet);
    // 33 subject
    xml.open_seq("Party");
    xml.leaf("ActivityPartyTypeCode", party::SUBJECT);
    birth_date(&mut xml, d.subject, &d.filing_date, problems);
    person(&mut xml, d.subject, problems);
    xml.close("Party");
    xml.open_seq("SuspiciousActivity");
    if d.amount_dollars.is_none() {
        xml.leaf("AmountUnknownIndicator", "Y");
    }
    xml.leaf("SuspiciousActivityFromDateText", &d.from_date);
    xml.leaf("SuspiciousActivityToDateText", &d.to_date);
    if let Some(amount) = d.amount_dollars {
        xml.leaf("TotalSuspiciousAmountText", &amount.to_string());
    }
    for c in &d.classifications {
        xml.open_seq("SuspiciousActivityClassification");
        xml.opt_leaf("OtherSuspiciousActivityTypeText", c.other_text.as_deref());
        xml.leaf("SuspiciousActivitySubtypeID", &c.subtype_id.to_string());
        xml.leaf("SuspiciousActivityTypeID", &c.type_id.to_string());
        xml.close("SuspiciousActivityClassification");
    }
    xml.close("SuspiciousActivity");
    for (i, block) in narrative_blocks(&d.narrative, problems).iter().enumerate() {
        xml.open_seq("ActivityNarrativeInformation");
        xml.leaf("ActivityNarrativeSequenceNumber", &(i + 1).to_string());
        xml.leaf_of("narrative", "ActivityNarrativeText", block);
        xml.close("ActivityNarrativeInformation");
    }
    xml.close("Activity");
    xml.close("EFilingBatchXML");
    xml.finish(problems)
}

/// A CTR batch and the problems found while drafting it.
pub(crate) fn ctr(d: &CtrDraft<'_>, problems: &mut Problems) -> ApiResult<String> {
    let side_total = |side: CashSide| d.details.iter().filter(|x| x.side == side).map(|x| x.dollars).sum::<i64>();
    let (cash_in, cash_out) = (side_total(CashSide::In), side_total(CashSide::Out));
    if d.details.is_empty() {
        problems.add("transactions", "no cash transaction of the gaming day was found");
    }
    let shown = |amount: i64| if amount > 0 { amount.to_string() } else { String::new() };
    let mut xml = Xml::new();
    let f = filer(d.settings, problems);
    let mut quiet = Problems::default();
    root(&mut xml, cash_in + cash_out, PARTIES, false);
    xml.leaf("FormTypeCode", "CTRX");
    xml.open_seq("Activity");
    xml.leaf("FilingDateText", &d.filing_date);
    xml.open_seq("ActivityAssociation");
    xml.leaf("CorrectsAmendsPriorReportIndicator", "");
    xml.leaf("FinCENDirectBackFileIndicator", "");
    xml.leaf("InitialReportIndicator", "Y");
    xml.close("ActivityAssociation");
    institution_parties(&mut xml, &f, problems, &mut quiet);
    // 50 the person conducting the transactions on their own behalf
    xml.open_seq("Party");
    xml.leaf("ActivityPartyTypeCode", party::CONDUCTOR_OWN_BEHALF);
    match d.subject.date_of_birth.as_deref() {
        Some(_) => {}
        None => xml.leaf("BirthDateUnknownIndicator", "Y"),
    }
    if let Some(date) = problems.need("subject.date_of_birth", d.subject.date_of_birth.as_deref()) {
        after_filing(&compact_date(date), &d.filing_date, problems);
        xml.leaf_of("subject.date_of_birth", "IndividualBirthDateText", &compact_date(date));
    }
    xml.opt_leaf("IndividualEntityCashInAmountText", Some(shown(cash_in).as_str()));
    xml.opt_leaf("IndividualEntityCashOutAmountText", Some(shown(cash_out).as_str()));
    person(&mut xml, d.subject, problems);
    // the player's account at the casino, once per side that moved cash
    if d.account.chars().count() <= 40 {
        for (amount, code) in [(cash_in, codes::CTR_ACCOUNT_CASH_IN), (cash_out, codes::CTR_ACCOUNT_CASH_OUT)] {
            if amount > 0 {
                xml.open_seq("Account");
                xml.leaf_of("account", "AccountNumberText", d.account);
                xml.open_seq("PartyAccountAssociation");
                xml.leaf("PartyAccountAssociationTypeCode", code);
                xml.close("PartyAccountAssociation");
                xml.close("Account");
            }
        }
    }
    xml.close("Party");
    xml.open_seq("CurrencyTransactionActivity");
    for indicator in [
        "AggregateTransactionIndicator",
        "ArmoredCarServiceIndicator",
        "ATMIndicator",
        "MailDepositShipmentIndicator",
        "NightDepositIndicator",
        "SharedBranchingIndicator",
    ] {
        xml.leaf(indicator, "");
    }
    xml.leaf("TotalCashInReceiveAmountText", &shown(cash_in));
    xml.leaf("TotalCashOutAmountText", &shown(cash_out));
    xml.leaf("TransactionDateText", &d.gaming_day);
    for detail in &d.details {
        xml.open_seq("CurrencyTransactionActivityDetail");
        xml.leaf("CurrencyTransactionActivityDetailTypeCode", &detail.code.to_string());
        xml.leaf("DetailTransactionAmountText", &detail.dollars.to_string());
        xml.leaf("OtherCurrencyTransactionActivityDetailText", "");
        xml.leaf("OtherForeignCurrencyCountryText", "");
        xml.close("CurrencyTransactionActivityDetail");
    }
    xml.close("CurrencyTransactionActivity");
    xml.close("Activity");
    xml.close("EFilingBatchXML");
    xml.finish(problems)
}
