//! The builders and checks through their own interface. Every draft built
//! here is also written out when `CGW_FILINGS_OUT` names a directory;
//! `scripts/validate-filings.py` then validates each against FinCEN's
//! official schemas and the goAML fixture with a real XSD processor
//! (`*.xml` must pass, `*.invalid.xml`, the corrupted twins, must fail).

use super::fincen::{CtrDetail, CtrDraft, SarDraft};
use super::goaml::{GoamlDraft, GoamlTransaction};
use super::*;

fn address() -> Address {
    Address {
        street: Some("1 Main Street".into()),
        city: Some("Las Vegas".into()),
        state: Some("NV".into()),
        zip: Some("89101".into()),
        country: Some("US".into()),
    }
}

fn fincen_settings() -> FincenSettings {
    FincenSettings {
        legal_name: "Silver Sands Casino LLC".into(),
        ein: "123456789".into(),
        tcc: "PCASINO1".into(),
        casino_type: "state_licensed".into(),
        address: address(),
        contact_name: "Compliance Office".into(),
        contact_phone: "7025550100".into(),
    }
}

fn subject() -> Subject {
    Subject {
        first_name: Some("Jane".into()),
        last_name: Some("Roe".into()),
        date_of_birth: Some("1980-02-29".into()),
        address: address(),
        id_type: Some("passport".into()),
        id_number: Some("X1234567".into()),
        id_country: Some("US".into()),
        occupation: Some("Engineer".into()),
    }
}

fn goaml_settings() -> GoamlSettings {
    GoamlSettings {
        rentity_id: 42,
        currency_code_local: "EUR".into(),
        report_codes: [("str".to_string(), "STR".to_string()), ("sar".to_string(), "STR".to_string())].into(),
        indicators: [
            ("structuring".to_string(), vec!["SB01".to_string()]),
            ("minimal_play".to_string(), vec!["SB02".to_string(), "SB01".to_string()]),
        ]
        .into(),
        funds_codes: [("cash".to_string(), "CASH".to_string()), ("card".to_string(), "CRDT".to_string())].into(),
        transmode_code: Some("INTR".into()),
        required_fields: vec!["address.zip".into(), "id_number".into()],
    }
}

/// A narrative long enough to need three blocks.
fn long_narrative() -> String {
    (0..500).map(|i| format!("Line {i} of the activity.")).collect::<Vec<_>>().join(" ")
}

fn sar_draft<'a>(settings: Option<&'a FincenSettings>, subject: &'a Subject, narrative: String) -> SarDraft<'a> {
    SarDraft {
        filing_date: "20261126".into(),
        settings,
        subject,
        from_date: "20261101".into(),
        to_date: "20261120".into(),
        amount_dollars: Some(27_450),
        classifications: codes::sar_classifications(&[Typology::Structuring, Typology::MinimalPlay, Typology::CtrThreshold]),
        narrative,
    }
}

fn sar(settings: Option<&FincenSettings>, subject: &Subject, narrative: String) -> (String, Problems) {
    let mut problems = Problems::default();
    let xml = fincen::sar(&sar_draft(settings, subject, narrative), &mut problems).expect("written");
    check::fincen(&xml, &mut problems);
    (xml, problems)
}

fn ctr(subject: &Subject) -> (String, Problems) {
    let settings = fincen_settings();
    let draft = CtrDraft {
        filing_date: "20261126".into(),
        settings: Some(&settings),
        subject,
        account: "player-1",
        gaming_day: "20261125".into(),
        details: vec![
            CtrDetail { code: 55, side: codes::CashSide::In, dollars: 9_000 },
            CtrDetail { code: 21, side: codes::CashSide::In, dollars: 2_500 },
            CtrDetail { code: 56, side: codes::CashSide::Out, dollars: 1_200 },
        ],
    };
    let mut problems = Problems::default();
    let xml = fincen::ctr(&draft, &mut problems).expect("written");
    check::fincen(&xml, &mut problems);
    (xml, problems)
}

fn goaml(with_transactions: bool, subject: &Subject) -> (String, Problems) {
    let settings = goaml_settings();
    let transactions = if with_transactions {
        vec![
            GoamlTransaction {
                number: "tx-1".into(),
                description: "deposit by cash".into(),
                date: "2026-11-20T10:00:00".into(),
                amount: "9500.00".into(),
                from_player: true,
                method: "cash".into(),
            },
            GoamlTransaction {
                number: "tx-2".into(),
                description: "withdrawal by card".into(),
                date: "2026-11-20T12:00:00".into(),
                amount: "9400.00".into(),
                from_player: false,
                method: "card".into(),
            },
        ]
    } else {
        Vec::new()
    };
    let draft = GoamlDraft {
        settings: Some(&settings),
        subject,
        operator_name: "Silver Sands Casino",
        case_id: "amlcase_1",
        submission_date: "2026-11-26T09:00:00".into(),
        reason: "Deposits just under the threshold, then withdrawn with minimal play. Café".into(),
        transactions,
        typologies: vec!["structuring".into(), "minimal_play".into()],
    };
    let mut problems = Problems::default();
    let xml = goaml::report(&draft, &mut problems).expect("written");
    (xml, problems)
}

fn fields(problems: &Problems) -> Vec<&str> {
    problems.0.iter().map(|p| p.field.as_str()).collect()
}

/// Writes a sample for the XSD validation step of the test command.
fn write(name: &str, xml: &str) {
    if let Ok(dir) = std::env::var("CGW_FILINGS_OUT") {
        std::fs::create_dir_all(&dir).expect("the samples' directory");
        std::fs::write(std::path::Path::new(&dir).join(name), xml).expect("a sample written");
    }
}

#[test]
fn a_complete_sar_is_valid_and_its_narrative_is_cut_into_blocks() {
    let (settings, subject) = (fincen_settings(), subject());
    let (xml, problems) = sar(Some(&settings), &subject, long_narrative());
    assert_eq!(problems.0, Vec::<Problem>::new());
    let blocks = xml.matches("<ActivityNarrativeText>").count();
    assert!((2..=5).contains(&blocks), "{blocks} blocks");
    assert!(xml.contains("<FormTypeCode>SARX</FormTypeCode>") && xml.contains("xmlns=\"www.fincen.gov/base\""));
    // structuring is type 1, minimal play 12/1202, the CTR threshold no classification of its own
    assert!(xml.contains("<SuspiciousActivitySubtypeID>114</SuspiciousActivitySubtypeID>\n"));
    assert!(xml.contains("<SuspiciousActivitySubtypeID>1202</SuspiciousActivitySubtypeID>"));
    assert_eq!(xml.matches("<SuspiciousActivityClassification ").count(), 2);
    assert!(xml.contains("<OrganizationSubtypeID>101</OrganizationSubtypeID>"));
    assert!(xml.contains("TotalAmount=\"27450\"") && xml.contains("PartyCount=\"6\""));
    write("sar.xml", &xml);
}

#[test]
fn a_narrative_past_five_blocks_is_cut_and_named() {
    let mut problems = Problems::default();
    let blocks = fincen::narrative_blocks(&"word ".repeat(5_000), &mut problems);
    assert_eq!(blocks.len(), codes::SAR_NARRATIVE_BLOCKS);
    assert!(blocks.iter().all(|b| b.chars().count() <= codes::SAR_NARRATIVE_BLOCK_CHARS && b.trim() == b));
    assert_eq!(fields(&problems), ["narrative"]);
    // twin: one that fits is cut with no problem
    let mut fits = Problems::default();
    assert_eq!(fincen::narrative_blocks("short", &mut fits), ["short"]);
    assert!(fits.0.is_empty());
}

/// An invalid draft is answered all the same, each missing field named;
/// the XML still keeps the schema (FinCEN's unknown indicators).
#[test]
fn a_sar_lacking_identity_and_settings_names_each_missing_field() {
    let mut subject = subject();
    subject.date_of_birth = None;
    subject.address.zip = None;
    let (xml, problems) = sar(None, &subject, "Short narrative.".into());
    let named = fields(&problems);
    for field in ["settings.fincen", "subject.date_of_birth", "subject.address.zip"] {
        assert!(named.contains(&field), "{field} in {named:?}");
    }
    assert!(xml.contains("<BirthDateUnknownIndicator>Y</BirthDateUnknownIndicator>"));
    write("sar-incomplete.xml", &xml);
    // twin: with settings and the full subject, nothing is named
    let (settings, full) = (fincen_settings(), super::tests::subject());
    assert!(sar(Some(&settings), &full, "Short narrative.".into()).1 .0.is_empty());
}

#[test]
fn a_ctr_totals_its_details_per_side() {
    let (xml, problems) = ctr(&subject());
    assert_eq!(problems.0, Vec::<Problem>::new());
    assert!(xml.contains("<TotalCashInReceiveAmountText>11500</TotalCashInReceiveAmountText>"));
    assert!(xml.contains("<TotalCashOutAmountText>1200</TotalCashOutAmountText>"));
    assert!(xml.contains("TotalAmount=\"12700\""));
    assert!(xml.contains("<ActivityPartyTypeCode>50</ActivityPartyTypeCode>"));
    write("ctr.xml", &xml);
}

#[test]
fn goaml_reports_with_and_without_transactions() {
    let subject = subject();
    let (str_xml, problems) = goaml(true, &subject);
    assert_eq!(problems.0, Vec::<Problem>::new());
    assert!(str_xml.contains("<t_from_my_client>") && str_xml.contains("<t_to_my_client>") && !str_xml.contains("<activity>"));
    // indicators once each, in the typologies' order
    assert_eq!(str_xml.matches("<indicator>").count(), 2);
    // goAML's text is ASCII
    assert!(str_xml.contains("Caf?"));
    write("goaml-str.xml", &str_xml);
    let (activity_xml, problems) = goaml(false, &subject);
    assert_eq!(problems.0, Vec::<Problem>::new());
    assert!(activity_xml.contains("<activity>") && !activity_xml.contains("<transaction>"));
    write("goaml-activity.xml", &activity_xml);
}

/// goAML's document number is letters and digits only (the fixture's
/// pattern, which the XSD step reads as anchored): a number with a hyphen,
/// a space or a non-ASCII letter, or shorter than 3, makes the draft
/// invalid and names the field once. Twin: the plain number drafts clean.
#[test]
fn a_goaml_document_number_is_letters_and_digits() {
    for bad in ["X-1234567", "X 1234567", "XÉ1234567", "X1", "X1234567\u{AD}"] {
        let mut subject = subject();
        subject.id_number = Some(bad.into());
        let (_, problems) = goaml(true, &subject);
        assert_eq!(fields(&problems), ["subject.id_number"], "{bad:?}");
    }
    let (xml, problems) = goaml(true, &subject());
    assert_eq!(problems.0, Vec::<Problem>::new());
    assert!(xml.contains("<number>X1234567</number>"), "{xml}");
}

#[test]
fn a_goaml_profile_names_what_it_requires() {
    let mut subject = subject();
    subject.address.zip = None;
    subject.occupation = None;
    let (_, problems) = goaml(true, &subject);
    assert_eq!(fields(&problems), ["subject.address.zip", "subject.occupation"]);
}

/// The user guides' rules, checked on the written document. Negative
/// twins: a value with a space around it, a wrong count, a total that is
/// not the content's, a `SeqNum` used twice, each is caught; the
/// untouched batch passes.
#[test]
fn the_rust_checks_catch_what_the_schema_cannot() {
    let (xml, problems) = ctr(&subject());
    assert!(problems.0.is_empty());
    let caught = |corrupted: String| {
        let mut problems = Problems::default();
        check::fincen(&corrupted, &mut problems);
        fields(&problems).into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    assert_eq!(caught(xml.replace("<RawCityText>Las Vegas<", "<RawCityText>Las Vegas <")), ["xml.RawCityText"]);
    assert_eq!(caught(xml.replace("PartyCount=\"6\"", "PartyCount=\"7\"")), ["xml.EFilingBatchXML.PartyCount"]);
    assert_eq!(caught(xml.replace("TotalAmount=\"12700\"", "TotalAmount=\"12000\"")), ["xml.EFilingBatchXML.TotalAmount"]);
    assert_eq!(caught(xml.replace("SeqNum=\"3\"", "SeqNum=\"2\"")).len(), 1);
    let tab = caught(xml.replace("<FormTypeCode>", "<FormTypeCode>\t"));
    assert!(!tab.is_empty() && tab.iter().all(|f| f == "xml.FormTypeCode"), "{tab:?}");
    assert_eq!(caught(xml.clone()), Vec::<String>::new());
}

/// The corrupted twins the XSD step must reject: a misspelt element, a
/// code outside the schema's list, a value past its length.
#[test]
fn corrupted_twins_for_the_schema_step() {
    let subject = subject();
    let settings = fincen_settings();
    let (sar_xml, _) = sar(Some(&settings), &subject, "Short narrative.".into());
    let bad = sar_xml.replace("<SuspiciousActivityTypeID>1</SuspiciousActivityTypeID>", "<SuspiciousActivityTypeID>99</SuspiciousActivityTypeID>");
    assert_ne!(bad, sar_xml);
    write("sar-activity-type.invalid.xml", &bad);
    let bad = sar_xml.replace("<FormTypeCode>SARX</FormTypeCode>", "");
    assert_ne!(bad, sar_xml);
    write("sar-no-form-type.invalid.xml", &bad);
    let (ctr_xml, _) = ctr(&subject);
    let bad = ctr_xml.replace("<RawStateCodeText>NV</RawStateCodeText>", "<RawStateCodeText>Nevada</RawStateCodeText>");
    assert_ne!(bad, ctr_xml);
    write("ctr-state.invalid.xml", &bad);
    let bad = ctr_xml.replace("xmlns=\"www.fincen.gov/base\"", "xmlns=\"http://www.fincen.gov/base\"");
    assert_ne!(bad, ctr_xml);
    write("ctr-namespace.invalid.xml", &bad);
    let (goaml_xml, _) = goaml(true, &subject);
    let bad = goaml_xml.replacen("<transactionnumber>", "<transaction_number>", 1).replacen("</transactionnumber>", "</transaction_number>", 1);
    assert_ne!(bad, goaml_xml);
    write("goaml-misspelt.invalid.xml", &bad);
    let bad = goaml_xml.replace("<birthdate>1980-02-29T00:00:00</birthdate>", "<birthdate>29/02/1980</birthdate>");
    assert_ne!(bad, goaml_xml);
    write("goaml-birthdate.invalid.xml", &bad);
    let bad = goaml_xml.replace("<number>X1234567</number>", "<number>X-1234567</number>");
    assert_ne!(bad, goaml_xml);
    write("goaml-id-number.invalid.xml", &bad);
}

#[test]
fn settings_are_checked_and_indicators_take_one_code_or_a_list() {
    let body = json!({
        "fincen": {
            "legal_name": "Silver Sands Casino LLC", "ein": "123456789", "tcc": "PCASINO1", "casino_type": "tribal",
            "address": {"street": "1 Main Street", "city": "Las Vegas", "state": "NV", "zip": "89101", "country": "US"},
            "contact_name": "Compliance Office", "contact_phone": "(702) 555-0100"
        },
        "goaml": {"rentity_id": 42, "currency_code_local": "EUR", "report_codes": {"str": "STR"}, "indicators": {"structuring": "SB01"}}
    });
    let parsed = parse_settings(body.to_string().as_bytes()).expect("valid settings");
    assert_eq!(parsed.fincen.as_ref().map(|f| f.contact_phone.as_str()), Some("7025550100"));
    assert_eq!(parsed.goaml.as_ref().map(|g| g.indicators["structuring"].clone()), Some(vec!["SB01".to_string()]));
    let with = |path: &str, value: Json| {
        let mut b = body.clone();
        let mut at = &mut b;
        let parts: Vec<&str> = path.split('.').collect();
        for p in &parts[..parts.len() - 1] {
            at = &mut at[*p];
        }
        at[parts[parts.len() - 1]] = value;
        parse_settings(b.to_string().as_bytes()).map_err(|e| (e.status, e.code))
    };
    assert_eq!(with("fincen.casino_type", json!("riverboat")), Err((422, "invalid_field")));
    assert_eq!(with("fincen.ein", json!("12-3456789")), Err((422, "invalid_field")));
    assert_eq!(with("goaml.indicators", json!({"no_such_typology": "X"})), Err((422, "invalid_field")));
    assert_eq!(with("fincen.legal_name", Json::Null), Err((422, "invalid_field")));
    let mut without = body.clone();
    without["fincen"].as_object_mut().map(|f| f.remove("legal_name"));
    assert_eq!(parse_settings(without.to_string().as_bytes()).map_err(|e| e.code), Err("missing_fields"));
    assert_eq!(parse_settings(b"{}").map_err(|e| e.code), Err("missing_fields"));
}

#[test]
fn a_request_names_its_format_and_a_malformed_subject_is_422() {
    let allowed = [Format::FincenSar, Format::Goaml];
    let parse = |body: Json| parse_request(body.to_string().as_bytes(), &allowed).map(|p| p.format).map_err(|e| (e.status, e.code));
    assert_eq!(parse(json!({"format": "fincen-sar"})), Ok(Format::FincenSar));
    assert_eq!(parse(json!({"subject": {}})), Err((400, "missing_fields")));
    assert_eq!(parse(json!({"format": "fincen-ctr"})), Err((422, "invalid_field")));
    assert_eq!(parse(json!({"format": "goaml", "subject": {"date_of_birth": "29/02/1980"}})), Err((422, "invalid_field")));
    assert_eq!(parse(json!({"format": "goaml", "subject": {"id_type": "library_card"}})), Err((422, "invalid_field")));
    assert_eq!(parse(json!({"format": "goaml", "subject": {"shoe_size": "9"}})), Err((422, "invalid_field")));
    // a missing identity field is no error of the request: the draft names it
    assert_eq!(parse(json!({"format": "goaml", "subject": {"first_name": "  Jane  "}})), Ok(Format::Goaml));
}
