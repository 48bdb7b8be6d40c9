//! The builders and checks through their own interface. Every draft built
//! here is also written out when `CGW_FILINGS_OUT` names a directory;
//! `scripts/validate-filings.py` then validates each against FinCEN's
//! official schemas and the goAML fixture with a real XSD processor
//! (`*.xml` must pass, `*.invalid.xml`, the corrupted twins, must fail;
//! a randomised draft's `*.verdict.json` holds the Rust verdict the XSD
//! processor's must equal).

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
        classifications: rules::filings::sar_classifications(&[Typology::Structuring, Typology::MinimalPlay, Typology::CtrThreshold]),
        narrative,
    }
}

fn sar(settings: Option<&FincenSettings>, subject: &Subject, narrative: String) -> (String, Problems) {
    let mut problems = Problems::default();
    let xml = fincen::sar(&sar_draft(settings, subject, narrative), &mut problems).expect("written");
    check::fincen(&xml, &facets::SARX, &mut problems);
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
    check::fincen(&xml, &facets::CTRX, &mut problems);
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
        check::fincen(&corrupted, &facets::CTRX, &mut problems);
        fields(&problems).into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    // a trailing space: the schema's pattern and the guides' rule both name it
    let space = caught(xml.replace("<RawCityText>Las Vegas<", "<RawCityText>Las Vegas <"));
    assert!(!space.is_empty() && space.iter().all(|f| f == "xml.RawCityText"), "{space:?}");
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

// ---- issue #46: a draft is valid only when the authority's schema would take it ----

/// The committed facets table is the one the committed XSDs generate: each
/// XSD's sha256 is recorded in it (`scripts/fincen-facets.py check`, run by
/// the test command, compares the whole text). Every pattern compiles, and
/// every element and attribute names a type of the table.
#[test]
fn the_facets_table_is_generated_from_the_committed_xsds() {
    use sha2::Digest;
    let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../conformance/data/fincen-bsa-xml-1.2");
    for schema in [&facets::SARX, &facets::CTRX] {
        let bytes = std::fs::read(data.join(schema.file)).expect("the XSD is committed");
        assert_eq!(hex::encode(sha2::Sha256::digest(&bytes)), schema.sha256, "{} changed: run scripts/fincen-facets.py generate", schema.file);
        for (_, rust) in schema.types.iter().flat_map(|t| t.patterns.iter()) {
            assert!(regex::Regex::new(rust).is_ok(), "{rust}");
        }
        for (name, type_name) in schema.elements.iter().chain(schema.attributes.iter()) {
            assert!(schema.types.iter().any(|t| t.name == *type_name), "{name}: {type_name}");
        }
    }
    assert!(facets::SARX.elements.contains(&("IndividualBirthDateText", "DateYYYYMMDDOrBlankTypeDOB")));
    assert_eq!(facets::CTRX.fixed, &[("FormTypeCode", "CTRX")]);
}

fn schema_type(name: &str) -> &'static check::SimpleType {
    facets::SARX.types.iter().find(|t| t.name == name).expect("a type of the table")
}

/// Each kind of facet bites and lets through what the XSD lets through.
#[test]
fn each_facet_refuses_what_the_schema_refuses() {
    let refuses = |t: &str, v: &str| check::refusal(schema_type(t), v).is_some();
    // pattern: the birth date's years are 1900 to 2099, month and day may be 00
    assert!(refuses("DateYYYYMMDDOrBlankTypeDOB", "18991231") && refuses("DateYYYYMMDDOrBlankTypeDOB", "21000101"));
    assert!(!refuses("DateYYYYMMDDOrBlankTypeDOB", "19000101") && !refuses("DateYYYYMMDDOrBlankTypeDOB", "19800000"));
    assert!(!refuses("DateYYYYMMDDOrBlankTypeDOB", ""));
    // maxLength counts characters, not bytes
    assert!(!refuses("RestrictString35", &"é".repeat(35)) && refuses("RestrictString35", &"e".repeat(36)));
    assert!(refuses("RestrictString35", "Jane ") && refuses("RestrictString35", "Ja\tne") && !refuses("RestrictString35", "Jane Roe"));
    // \S read as Unicode's, as the XSD step's processor reads it (XSD's own would take a no-break space)
    assert!(refuses("RestrictString35", "Jane\u{A0}Roe") && refuses("RestrictString35", "Jane\u{85}"));
    // enumerations: strings exactly, xsd:int ones as numbers
    assert!(refuses("ValidatePartyNameCodeType", "l") && !refuses("ValidatePartyNameCodeType", "L"));
    assert!(!refuses("ValidateOrganizationSubtypeCodeType", "0101") && !refuses("ValidateOrganizationSubtypeCodeType", " 101 "));
    assert!(refuses("ValidateOrganizationSubtypeCodeType", "100") && refuses("ValidateOrganizationSubtypeCodeType", "1O1"));
    // xsd:long and totalDigits
    assert!(!refuses("RestrictLong14", "12345678901234") && refuses("RestrictLong14", "123456789012345") && refuses("RestrictLong14", "1.5"));
    assert!(refuses("xsd:long", "") && refuses("xsd:long", "9223372036854775808") && !refuses("xsd:long", "-9223372036854775808"));
    assert!(!refuses("xsd:decimal", "12.50") && !refuses("xsd:decimal", ".5") && refuses("xsd:decimal", "1e3"));
    // the characters XML 1.0 cannot carry
    // a fixed value
    let (sar_xml, problems) = sar(Some(&fincen_settings()), &subject(), "Short narrative.".into());
    assert!(problems.0.is_empty());
    let mut fixed = Problems::default();
    check::schema(&sar_xml.replace("<FormTypeCode>SARX<", "<FormTypeCode>CTRX<"), &facets::SARX, &mut fixed);
    assert_eq!(fields(&fixed), ["xml.FormTypeCode"]);
    for c in ['\u{0}', '\u{1}', '\u{1F}', '\u{FFFE}', '\u{FFFF}'] {
        assert!(refuses("RestrictString4000", &format!("a{c}b")), "{c:?}");
    }
    for c in ['\u{7F}', '\u{85}', '\u{D7FF}', '\u{E000}', '\u{FFFD}', '\u{10000}', '\u{10FFFF}'] {
        assert!(!refuses("RestrictString4000", &format!("a{c}b")), "{c:?}");
    }
}

/// A birth date the schema refuses (1899, 2100) makes the draft invalid,
/// named; twin: 1900-01-01 and the filing date itself draft clean. A date
/// after the filing's (which the schema takes, to 2099) is the gateway's
/// own refusal, named as the subject's field.
#[test]
fn a_birth_date_before_1900_is_invalid() {
    let settings = fincen_settings();
    let mut future = subject();
    future.date_of_birth = Some("2026-11-27".into());
    let (_, problems) = sar(Some(&settings), &future, "Short narrative.".into());
    assert_eq!(fields(&problems), ["subject.date_of_birth"]);
    assert_eq!(fields(&ctr(&future).1), ["subject.date_of_birth"]);
    for (date, valid) in [("1899-12-31", false), ("2100-01-01", false), ("1900-01-01", true), ("2026-11-26", true)] {
        let mut subject = subject();
        subject.date_of_birth = Some(date.into());
        let (_, sar_problems) = sar(Some(&settings), &subject, "Short narrative.".into());
        let (_, ctr_problems) = ctr(&subject);
        for problems in [sar_problems, ctr_problems] {
            assert_eq!(problems.0.is_empty(), valid, "{date}: {:?}", problems.0);
            if !valid {
                assert!(fields(&problems).contains(&"xml.IndividualBirthDateText"), "{date}: {:?}", problems.0);
            }
        }
    }
}

/// A character XML 1.0 cannot carry is never written: the draft is
/// invalid, the field it came from named, and the document well-formed.
/// Twin: the characters XML does carry (U+007F, U+FFFD, U+10FFFF, other
/// scripts) draft clean.
#[test]
fn a_character_xml_cannot_carry_is_refused_and_named() {
    let settings = fincen_settings();
    for c in ['\u{1}', '\u{8}', '\u{1F}', '\u{FFFE}', '\u{FFFF}'] {
        let mut subject = subject();
        subject.first_name = Some(format!("Ja{c}ne"));
        subject.id_number = Some(format!("X12{c}34"));
        let (xml, problems) = sar(Some(&settings), &subject, format!("Short {c} narrative."));
        assert_eq!(check::forbidden_char(&xml), None, "{c:?} written");
        assert!(xml.contains("<RawIndividualFirstName>Jane</RawIndividualFirstName>"), "{xml}");
        assert_eq!(fields(&problems), ["subject.first_name", "subject.id_number", "narrative"], "{c:?}");
        assert!(problems.0.iter().all(|p| p.message.contains(&format!("U+{:04X}", u32::from(c)))), "{:?}", problems.0);
        let (xml, problems) = ctr(&subject);
        assert_eq!(check::forbidden_char(&xml), None);
        assert_eq!(fields(&problems), ["subject.first_name", "subject.id_number"]);
        let (xml, problems) = goaml(true, &subject);
        assert_eq!(check::forbidden_char(&xml), None);
        assert!(fields(&problems).contains(&"subject.first_name"), "{:?}", problems.0);
    }
    let mut subject = subject();
    subject.first_name = Some("Ja\u{7F}ne\u{FFFD}\u{10FFFF}".into());
    subject.last_name = Some("山田 Иванова محمد".into());
    let (_, problems) = sar(Some(&settings), &subject, "Short narrative.".into());
    assert_eq!(problems.0, Vec::<Problem>::new());
}

/// The Rust checks read a document written by someone else too: a control
/// character in it is named, by the FinCEN check and by goAML's.
#[test]
fn a_written_control_character_is_caught_by_the_checks() {
    let (xml, problems) = ctr(&subject());
    assert!(problems.0.is_empty());
    let mut caught = Problems::default();
    check::fincen(&xml.replace("Las Vegas", "Las\u{1}Vegas"), &facets::CTRX, &mut caught);
    assert!(!caught.0.is_empty() && fields(&caught).iter().all(|f| *f == "xml.RawCityText"), "{:?}", caught.0);
    let (goaml_xml, _) = goaml(true, &subject());
    let mut caught = Problems::default();
    check::well_formed(&goaml_xml.replace("Las Vegas", "Las\u{FFFF}Vegas"), &mut caught);
    assert_eq!(fields(&caught), ["xml.city"]);
    let mut clean = Problems::default();
    check::well_formed(&goaml_xml, &mut clean);
    assert!(clean.0.is_empty());
}

/// A fixed-seed generator (splitmix64): the randomised drafts are the same on every run.
struct Seeded(u64);

impl Seeded {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Pieces of odd text: other scripts, combining marks, markup characters,
/// white space XSD and Unicode disagree on, and characters XML 1.0 refuses.
const PIECES: &[&str] = &[
    "Jane",
    "Roe",
    "O'Brien",
    "Zoë",
    "Иванова",
    "山田",
    "محمد",
    "😀",
    "e\u{301}",
    "&<>\"",
    "A B",
    "\u{A0}",
    "\u{2003}x",
    "x",
    "7",
    "-",
    "\u{0}",
    "\u{1}",
    "\u{8}",
    "\u{B}",
    "\u{C}",
    "\u{1F}",
    "\u{7F}",
    "\u{85}",
    "\u{FFFE}",
    "\u{FFFF}",
    "\u{FFFD}",
    "\u{D7FF}",
    "\u{E000}",
    "\u{10FFFF}",
    "\t",
    "\r\n",
    "\r",
    " ",
];

/// A value for a field the schema holds to `max` characters: absent,
/// empty, exactly the maximum, one past it, far past it, or odd pieces.
fn odd_text(rng: &mut Seeded, max: usize) -> Option<String> {
    match rng.below(10) {
        0 => None,
        1 => Some(String::new()),
        2 => Some("W".repeat(max)),
        3 => Some("Ω".repeat(max + 1)),
        4 => Some("z".repeat(max * 3 + 1)),
        _ => Some((0..1 + rng.below(4)).map(|_| rng.pick(PIECES)).collect()),
    }
}

fn odd_date(rng: &mut Seeded, today: &str) -> Option<String> {
    let dates = ["1899-12-31", "1900-01-01", "1980-02-29", today, "2099-12-31", "2100-01-01", "1000-06-15", "0001-01-01", "1999-12-31"];
    (!rng.chance(8)).then(|| rng.pick(&dates).to_string())
}

fn odd_subject(rng: &mut Seeded, today: &str) -> Subject {
    // the complete subject, up to four of its fields made odd
    let mut s = subject();
    for _ in 0..rng.below(5) {
        let a = &mut s.address;
        match rng.below(12) {
            0 => s.first_name = odd_text(rng, 35),
            1 => s.last_name = odd_text(rng, 150),
            2 => s.date_of_birth = odd_date(rng, today),
            3 => a.street = odd_text(rng, 100),
            4 => a.city = odd_text(rng, 50),
            5 => {
                a.state = if rng.chance(2) { Some(rng.pick(&["NV", "CA", "N", "Nevada", "\u{FFFE}V", "ÑV"]).to_string()) } else { odd_text(rng, 3) }
            }
            6 => {
                a.zip = if rng.chance(2) {
                    Some(rng.pick(&["89101", "891011234", "8910112345", "8 9101", "٨٩١٠١"]).to_string())
                } else {
                    odd_text(rng, 9)
                }
            }
            7 => a.country = rng.pick(&[Some("US".to_string()), Some("MX".to_string()), None]),
            8 => s.id_type = rng.pick(&[None, Some("passport"), Some("ssn"), Some("drivers_license"), Some("foreign_id")]).map(String::from),
            9 => {
                s.id_number =
                    if rng.chance(2) { Some(rng.pick(&["X1234567", "0", "A-1 2", "１２３", "X\u{1}1"]).to_string()) } else { odd_text(rng, 25) }
            }
            10 => s.id_country = rng.pick(&[Some("US".to_string()), Some("GB".to_string()), None]),
            _ => s.occupation = odd_text(rng, 50),
        }
    }
    // most subjects come through the request's normalising (as every draft does); some raw, for the checks' sake
    if !rng.chance(4) {
        s = s.clone().normalise().unwrap_or(s);
    }
    s
}

fn odd_amount(rng: &mut Seeded) -> i64 {
    rng.pick(&[1, 10_000, 27_450, 999_999_999_999_999, 1_000_000_000_000_000, i64::from(u32::MAX)])
}

/// Writes a randomised draft with the Rust verdict beside it, for `scripts/validate-filings.py`.
fn write_with_verdict(name: &str, xml: &str, problems: &Problems, schema_problems: &Problems) {
    write(&format!("{name}.xml"), xml);
    let verdict = json!({
        "valid": problems.0.is_empty(),
        "schema_valid": schema_problems.0.is_empty(),
        "schema_errors": schema_problems.0,
        "errors": problems.0,
    });
    write(&format!("{name}.verdict.json"), &verdict.to_string());
}

/// Randomised drafts (fixed seed): control characters, long and odd names,
/// other scripts, edge dates (1899-12-31, 1900-01-01, today, the future),
/// empty and maximal lengths, odd ids and amounts; then documents with a
/// character planted in a value behind the writer's back. Here: no
/// document written holds a character XML refuses, an input's refused
/// character always invalidates the draft, and a valid draft passes the
/// schema checks. Each is written with its verdict; the XSD step holds the
/// schema verdict to the XSD processor's, with no disagreement either way.
#[test]
fn randomised_drafts_agree_with_the_schema() {
    // seed 46 unless `CGW_FILINGS_SEED` names another (to explore; the test command keeps 46)
    let mut rng = Seeded(std::env::var("CGW_FILINGS_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(46));
    let today =
        time::format(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0))[..10].to_string();
    let (mut valid, mut schema_refused, mut written) = (0, 0, Vec::new());
    for i in 0..400 {
        let subject = odd_subject(&mut rng, &today);
        let mut settings = fincen_settings();
        if rng.chance(8) {
            settings.legal_name = odd_text(&mut rng, 150).unwrap_or_default();
        }
        if rng.chance(8) {
            settings.contact_name = odd_text(&mut rng, 150).unwrap_or_default();
        }
        let sar_form = i % 2 == 0;
        let mut problems = Problems::default();
        let (xml, form, name, inputs) = if sar_form {
            let mut narrative = long_narrative();
            if rng.chance(2) {
                // never of white space alone: a SAR without a narrative breaks the schema's content model, not a facet
                narrative = (0..1 + rng.below(12)).map(|_| rng.pick(PIECES)).collect::<String>() + " Narrative.";
            }
            let mut draft = sar_draft(Some(&settings), &subject, narrative.clone());
            let amount = odd_amount(&mut rng);
            draft.amount_dollars = rng.pick(&[None, Some(amount)]);
            let xml = fincen::sar(&draft, &mut problems).expect("written");
            // the narrative is written trimmed; one of white space alone is none
            let written_narrative = !narrative.trim().is_empty();
            (xml, &facets::SARX, format!("sar-random-{i:03}"), if written_narrative { vec![narrative.trim().to_string()] } else { Vec::new() })
        } else {
            let account = rng.pick(&["player-1".to_string(), "p".repeat(40), "p".repeat(41), "pl\u{1}ayer".into(), "игрок".into(), "a b".into()]);
            let draft = CtrDraft {
                filing_date: "20261126".into(),
                settings: Some(&settings),
                subject: &subject,
                account: &account,
                gaming_day: "20261125".into(),
                // at least one: a CTR without one breaks the schema's content model, not a facet
                details: (0..1 + rng.below(4))
                    .map(|k| CtrDetail {
                        code: [55, 21, 56, 46][k],
                        side: if k == 2 { codes::CashSide::Out } else { codes::CashSide::In },
                        dollars: odd_amount(&mut rng),
                    })
                    .collect(),
            };
            let xml = fincen::ctr(&draft, &mut problems).expect("written");
            // the account is written only for a day that moved cash, and only when it fits
            let written_account = !draft.details.is_empty() && account.chars().count() <= 40;
            (xml, &facets::CTRX, format!("ctr-random-{i:03}"), if written_account { vec![account.clone()] } else { Vec::new() })
        };
        check::fincen(&xml, form, &mut problems);
        let mut schema_problems = Problems::default();
        check::schema(&xml, form, &mut schema_problems);
        assert_eq!(check::forbidden_char(&xml), None, "{name}: a character XML refuses was written");
        assert!(!problems.0.is_empty() || schema_problems.0.is_empty(), "{name}: valid, yet the schema check refuses it");
        let s = &subject;
        let a = &s.address;
        // the fields written (the document's number only with its type)
        let number = s.id_number.clone().filter(|_| s.id_type.is_some());
        let given = [&s.first_name, &s.last_name, &a.street, &a.city, &a.state, &a.zip, &number, &s.occupation];
        let refused_input = given
            .iter()
            .filter_map(|v| v.as_deref())
            .chain(inputs.iter().map(String::as_str))
            .chain([settings.legal_name.as_str(), settings.contact_name.as_str()])
            .any(|v| check::forbidden_char(v).is_some());
        if refused_input {
            assert!(
                problems.0.iter().any(|p| !p.field.starts_with("xml") && p.message.contains("XML 1.0 cannot carry")),
                "{name}: {:?} {subject:?} {settings:?} {inputs:?}",
                problems.0
            );
        }
        valid += usize::from(problems.0.is_empty());
        schema_refused += usize::from(!schema_problems.0.is_empty());
        write_with_verdict(&name, &xml, &problems, &schema_problems);
        written.push((xml, form));
    }
    // both verdicts are well represented
    assert!(valid >= 40 && schema_refused >= 100, "{valid} valid, {schema_refused} refused by the schema checks");
    // a character planted in a value of a written document, refused or carried by XML
    let planted = ['\u{0}', '\u{1}', '\u{1F}', '\u{FFFE}', '\u{FFFF}', '\u{7F}', '\u{85}', '\u{FFFD}', '\u{10FFFF}', '\u{E000}'];
    for i in 0..100 {
        let (xml, form) = &written[rng.below(written.len())];
        let values: Vec<usize> =
            xml.match_indices('>').map(|(p, _)| p + 1).filter(|p| xml[*p..].chars().next().is_some_and(|c| c != '<' && c != '\n')).collect();
        let at = values[rng.below(values.len())];
        let c = rng.pick(&planted);
        let corrupted = format!("{}{c}{}", &xml[..at], &xml[at..]);
        let mut schema_problems = Problems::default();
        check::schema(&corrupted, form, &mut schema_problems);
        if !check::is_xml_char(c) {
            assert!(!schema_problems.0.is_empty(), "U+{:04X} planted, not caught", u32::from(c));
        }
        let prefix = if std::ptr::eq(*form, &facets::SARX) { "sar" } else { "ctr" };
        write_with_verdict(&format!("{prefix}-planted-{i:03}"), &corrupted, &schema_problems, &schema_problems);
    }
}
