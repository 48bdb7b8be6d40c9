//! goAML `report`s (UNODC goAML 4.x): an STR whose transactions are
//! bi-party, the player as `my_client` and the operator as the other side,
//! or, for a case with no transactions to list, a report with one
//! `activity` naming the player. Each FIU issues its own schema variant and
//! code lists: the report codes, indicators, funds and conduction codes are
//! the tenant's FIU profile (its filing settings); `rules_model::filings` holds
//! only goAML's own identifier types.

use super::xml::Xml;
use super::{GoamlSettings, Problems, Subject};
use crate::error::ApiResult;

/// One transaction of a report.
pub(crate) struct GoamlTransaction {
    /// the operator's transaction id (at most 50 characters)
    pub number: String,
    pub description: String,
    /// `YYYY-MM-DDTHH:MM:SS`
    pub date: String,
    /// major units, as a decimal
    pub amount: String,
    /// true when the money went from the player to the operator
    pub from_player: bool,
    /// the payment method, looked up in the profile's funds codes
    pub method: String,
}

/// What a goAML report is drafted from.
pub(crate) struct GoamlDraft<'a> {
    pub settings: Option<&'a GoamlSettings>,
    pub subject: &'a Subject,
    /// the operator: the other party of each transaction
    pub operator_name: &'a str,
    pub case_id: &'a str,
    /// `YYYY-MM-DDTHH:MM:SS`
    pub submission_date: String,
    pub reason: String,
    pub transactions: Vec<GoamlTransaction>,
    /// the case's typologies, looked up in the profile's indicators
    pub typologies: Vec<String>,
}

/// goAML text fields take printable ASCII and whitespace only.
fn ascii(text: &str) -> String {
    text.chars().map(|c| if c.is_ascii_graphic() || c.is_ascii_whitespace() { c } else { '?' }).collect()
}

fn cut(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

fn address(xml: &mut Xml, s: &Subject, problems: &mut Problems) {
    let a = &s.address;
    let street = problems.need("subject.address.street", a.street.as_deref());
    let city = problems.need("subject.address.city", a.city.as_deref());
    let country = problems.need("subject.address.country", a.country.as_deref());
    xml.open("addresses", &[]);
    xml.open("address", &[]);
    xml.leaf("address_type", "PRVT");
    xml.leaf_of("subject.address.street", "address", street.unwrap_or(""));
    xml.leaf_of("subject.address.city", "city", city.unwrap_or(""));
    xml.opt_leaf_of("subject.address.zip", "zip", a.zip.as_deref());
    xml.leaf_of("subject.address.country", "country_code", country.unwrap_or(""));
    xml.opt_leaf_of("subject.address.state", "state", a.state.as_deref());
    xml.close("address");
    xml.close("addresses");
}

/// The player as a person (`t_person_my_client` when `my_client`).
fn person(xml: &mut Xml, element: &str, s: &Subject, with_document: bool, problems: &mut Problems) {
    xml.open(element, &[]);
    xml.leaf_of("subject.first_name", "first_name", problems.need("subject.first_name", s.first_name.as_deref()).unwrap_or(""));
    xml.leaf_of("subject.last_name", "last_name", problems.need("subject.last_name", s.last_name.as_deref()).unwrap_or(""));
    let birth = problems.need("subject.date_of_birth", s.date_of_birth.as_deref());
    xml.leaf("birthdate", &birth.map(|d| format!("{d}T00:00:00")).unwrap_or_default());
    // the document's country stands for the nationality, the address's for the residence
    let nationality = problems.need("subject.id_country", s.id_country.as_deref());
    xml.leaf("nationality1", nationality.unwrap_or(""));
    xml.leaf("residence", s.address.country.as_deref().unwrap_or(""));
    address(xml, s, problems);
    xml.leaf_of("subject.occupation", "occupation", problems.need("subject.occupation", s.occupation.as_deref()).unwrap_or(""));
    // the identity document only where the FIU's profile asks for it (its `required_fields`)
    if !with_document {
        xml.close(element);
        return;
    }
    let id_type = problems.need("subject.id_type", s.id_type.as_deref());
    let number = problems.need("subject.id_number", s.id_number.as_deref());
    if number.is_some_and(|n| !goaml_document_number(n)) {
        problems.add("subject.id_number", "goAML takes 3 to 255 letters A-Z, a-z and digits, without spaces or punctuation");
    }
    if let (Some(id_type), Some(number), Some(country)) = (id_type, number, nationality) {
        xml.open("identification", &[]);
        xml.leaf("type", rules_model::filings::goaml_id_type(id_type));
        xml.leaf_of("subject.id_number", "number", number);
        xml.leaf("issue_country", country);
        xml.close("identification");
    }
    xml.close(element);
}

/// goAML's `t_person_identification/number`: 3 to 255 ASCII letters and digits.
fn goaml_document_number(number: &str) -> bool {
    (3..=255).contains(&number.len()) && number.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn operator(xml: &mut Xml, element: &str, name: &str) {
    xml.open(element, &[]);
    xml.leaf_of("operator_name", "name", name);
    xml.close(element);
}

/// A goAML report and the problems found while drafting it.
pub(crate) fn report(d: &GoamlDraft<'_>, problems: &mut Problems) -> ApiResult<String> {
    if d.settings.is_none() {
        problems.add("settings.goaml", "the tenant has no goAML filing settings (PUT /v1/admin/tenants/{tenant_id}/filing-settings)");
    }
    let s = d.settings;
    let kind = if d.transactions.is_empty() { "sar" } else { "str" };
    let report_code = s.and_then(|s| s.report_codes.get(kind)).map(String::as_str);
    if s.is_some() && report_code.is_none() {
        problems.add(&format!("settings.goaml.report_codes.{kind}"), "missing: the FIU's report code for this kind of report");
    }
    let indicators: Vec<&str> = match s {
        Some(s) => {
            let mut found: Vec<&str> = Vec::new();
            for code in d.typologies.iter().filter_map(|t| s.indicators.get(t)).flatten() {
                if !found.contains(&code.as_str()) {
                    found.push(code);
                }
            }
            if found.is_empty() {
                problems.add("settings.goaml.indicators", format!("no indicator for the case's typologies ({})", d.typologies.join(", ")));
            }
            found
        }
        None => Vec::new(),
    };
    for field in s.map(|s| s.required_fields.as_slice()).unwrap_or_default() {
        if !d.subject.has(field) {
            problems.add(&format!("subject.{field}"), "missing: the FIU's profile requires it");
        }
    }
    let with_document = s.is_some_and(|s| s.required_fields.iter().any(|f| f == "id_number"));
    let currency = s.map(|s| s.currency_code_local.as_str()).unwrap_or("");
    let mut xml = Xml::new();
    xml.open("report", &[]);
    xml.leaf("rentity_id", &s.map(|s| s.rentity_id.to_string()).unwrap_or_default());
    xml.leaf("submission_code", "E");
    xml.leaf("report_code", report_code.unwrap_or(""));
    xml.leaf("entity_reference", d.case_id);
    xml.leaf("submission_date", &d.submission_date);
    xml.leaf("currency_code_local", currency);
    xml.leaf("reason", &cut(&ascii(&d.reason), 4_000));
    if d.transactions.is_empty() {
        xml.open("activity", &[]);
        xml.open("report_parties", &[]);
        xml.open("report_party", &[]);
        person(&mut xml, "person", d.subject, with_document, problems);
        xml.leaf("reason", "the subject of the case");
        xml.close("report_party");
        xml.close("report_parties");
        xml.close("activity");
    }
    let transmode = s.and_then(|s| s.transmode_code.as_deref());
    if s.is_some() && transmode.is_none() && !d.transactions.is_empty() {
        problems.add("settings.goaml.transmode_code", "missing: the FIU's conduction code of an online transaction");
    }
    let country = d.subject.address.country.as_deref().unwrap_or("");
    for (i, t) in d.transactions.iter().enumerate() {
        let funds = s.and_then(|s| s.funds_codes.get(&t.method)).map(String::as_str);
        if s.is_some() && funds.is_none() {
            problems.add(&format!("settings.goaml.funds_codes.{}", t.method), "missing: the FIU's funds code of this payment method");
        }
        let funds = funds.unwrap_or("");
        xml.open("transaction", &[]);
        xml.leaf("transactionnumber", &cut(&t.number, 50));
        xml.leaf("transaction_description", &cut(&ascii(&t.description), 4_000));
        xml.leaf("date_transaction", &t.date);
        xml.leaf("transmode_code", transmode.unwrap_or(""));
        xml.leaf("amount_local", &t.amount);
        // the player's side is written once per transaction; its problems are named once
        let mut seen = Problems::default();
        let player_problems = if i == 0 { &mut *problems } else { &mut seen };
        if t.from_player {
            xml.open("t_from_my_client", &[]);
            xml.leaf("from_funds_code", funds);
            person(&mut xml, "from_person", d.subject, with_document, player_problems);
            xml.leaf("from_country", country);
            xml.close("t_from_my_client");
            xml.open("t_to", &[]);
            xml.leaf("to_funds_code", funds);
            operator(&mut xml, "to_entity", d.operator_name);
            xml.leaf("to_country", country);
            xml.close("t_to");
        } else {
            xml.open("t_from", &[]);
            xml.leaf("from_funds_code", funds);
            operator(&mut xml, "from_entity", d.operator_name);
            xml.leaf("from_country", country);
            xml.close("t_from");
            xml.open("t_to_my_client", &[]);
            xml.leaf("to_funds_code", funds);
            person(&mut xml, "to_person", d.subject, with_document, player_problems);
            xml.leaf("to_country", country);
            xml.close("t_to_my_client");
        }
        xml.close("transaction");
    }
    xml.open("report_indicators", &[]);
    for code in indicators {
        xml.leaf("indicator", code);
    }
    xml.close("report_indicators");
    xml.close("report");
    let xml = xml.finish(problems)?;
    super::check::well_formed(&xml, problems);
    Ok(xml)
}
