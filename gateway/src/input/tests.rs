use super::*;
use crate::ports::MAX_STORED_INTEGER;
use crate::time;

fn key(raw: &str, jurisdiction: &str) -> Result<String, PhoneError> {
    read_phone(raw, phone_region(jurisdiction)).map(|p| p.key().to_string())
}

#[test]
fn phones_of_before_read_as_before() {
    let want = Ok("+447700900123".to_string());
    for raw in ["+44 7700-900123", "0044 (7700) 900.123", "447700900123", "+44 (0)7700 900123", "0044 ( 0 ) 7700 900123"] {
        assert_eq!(key(raw, "default"), want, "{raw}");
        assert_eq!(key(raw, "GB"), want, "{raw} in GB");
    }
    assert_eq!(key("+44-(0)7700-900123", "SE"), want);
    assert_eq!(key("+44.(0)7700.900.123", "CA-ON"), want);
    assert_eq!(read_phone("447700900123", None).map(|p| p.digits().to_string()), Ok("447700900123".to_string()), "stored as before");
    // the twins: a bracketed zero elsewhere is a digit; another number; not phones at all
    assert_eq!(key("+44 7700 9(0)0123", "default"), want);
    assert_ne!(key("+44 7700 900124", "default"), want);
    assert_eq!(key("call me", "GB"), Err(PhoneError::NotAPhone));
    assert_eq!(key("+1 23", "GB"), Err(PhoneError::NotAPhone));
    assert_eq!(key("12", "GB"), Err(PhoneError::NotAPhone));
    assert_eq!(key("+44 7700 900123 +1", "GB"), Err(PhoneError::NotAPhone));
}

#[test]
fn a_national_number_is_read_in_the_jurisdiction() {
    // (jurisdiction, national form, international form, E.164); fictional numbers of real formats
    let cases = [
        ("GB", "07700 900123", "+44 7700 900123", "+447700900123"),
        ("SE", "070-123 45 67", "+46 70 123 45 67", "+46701234567"),
        ("DE", "0151 23456789", "0049 151 23456789", "+4915123456789"),
        ("NL", "06 12345678", "+31 6 12345678", "+31612345678"),
        ("CA-ON", "(416) 555-0123", "+1 416 555 0123", "+14165550123"),
    ];
    for (jurisdiction, national, international, e164) in cases {
        assert_eq!(key(national, jurisdiction).as_deref(), Ok(e164), "{national} in {jurisdiction}");
        assert_eq!(key(international, jurisdiction).as_deref(), Ok(e164), "{international} in {jurisdiction}");
        assert_eq!(key(international, "default").as_deref(), Ok(e164), "{international} anywhere");
        // the twin: another number of the same region is another key
        let other = national.replace('3', "4");
        assert_ne!(key(&other, jurisdiction).as_deref(), Ok(e164), "{other} in {jurisdiction}");
    }
    // the region's own country code before a national number, and Canada's international prefix
    assert_eq!(key("1 416 555 0123", "CA-ON").as_deref(), Ok("+14165550123"));
    assert_eq!(key("011 44 7700 900123", "CA-ON").as_deref(), Ok("+447700900123"));
    // a national number means another number in another region
    assert_eq!(key("07700 900123", "GB").as_deref(), Ok("+447700900123"));
    assert_ne!(key("07700 900123", "DE").as_deref(), Ok("+447700900123"));
}

#[test]
fn a_number_that_cannot_be_read_is_refused_never_kept() {
    // no region: a national number is no number anywhere
    assert_eq!(key("07700 900123", "default"), Err(PhoneError::Unreadable));
    assert_eq!(key("07700 900123", "nowhere"), Err(PhoneError::Unreadable));
    // no such country code; a length no number of the country has
    assert_eq!(key("+999 1234567", "GB"), Err(PhoneError::Unreadable));
    assert_eq!(key("+44 7700 9001234", "GB"), Err(PhoneError::Unreadable));
    assert_eq!(key("0 7700 900123 4567", "GB"), Err(PhoneError::Unreadable));
    // the twin: the same digits with the country code are read
    assert!(key("+44 7700 900123", "default").is_ok());
    let error = PhoneError::Unreadable.error("phone");
    assert_eq!((error.status, error.code), (422, UNREADABLE_PHONE));
    assert_eq!(PhoneError::NotAPhone.error("phone").code, INVALID_FIELD);
}

#[test]
fn jurisdictions_name_their_regions() {
    assert_eq!(phone_region("GB"), Some(phonenumber::country::GB));
    assert_eq!(phone_region("CA-ON"), Some(phonenumber::country::CA));
    assert_eq!(phone_region("NL"), Some(phonenumber::country::NL));
    assert_eq!(phone_region("default"), None);
    assert_eq!(phone_region("gb"), None);
    // every profile the rules know is a region but the default one
    for profile in rules::jurisdictions() {
        assert_eq!(phone_region(&profile.name).is_some(), profile.name != rules_model::DEFAULT_JURISDICTION, "{}", profile.name);
    }
}

#[test]
fn emails_normalise_case_and_space() {
    assert_eq!(normalize_email("  Ann.Lee@Example.COM "), Some("ann.lee@example.com".to_string()));
    assert_eq!(normalize_email("ann@example"), None);
    assert_eq!(normalize_email("ann lee@example.com"), None);
    assert_eq!(normalize_email("@example.com"), None);
}

fn mailbox(raw: &str) -> String {
    email_key(&normalize_email(raw).unwrap_or_default())
}

#[test]
fn a_gmail_mailbox_is_one_key() {
    let want = mailbox("ann.lee@gmail.com");
    assert_eq!(want, "annlee@gmail.com");
    for alias in ["annlee@gmail.com", "ann.lee+casino@gmail.com", "ann.lee@googlemail.com", "A.N.N.Lee+x+y@GoogleMail.com"] {
        assert_eq!(mailbox(alias), want, "{alias}");
    }
    // the twins: another mailbox of Gmail; dots and tags elsewhere count
    assert_ne!(mailbox("ann.lees@gmail.com"), want);
    assert_ne!(mailbox("a.b@example.com"), mailbox("ab@example.com"));
    assert_ne!(mailbox("ann+casino@example.com"), mailbox("ann@example.com"));
    assert_ne!(mailbox("annlee@gmail.co"), want);
}

#[test]
fn providers_that_document_tags_drop_them_and_keep_dots() {
    assert_eq!(mailbox("Ann.Lee+casino@fastmail.com"), "ann.lee@fastmail.com");
    assert_eq!(mailbox("ann+x@proton.me"), "ann@proton.me");
    assert_eq!(mailbox("ann+x@pm.me"), "ann@pm.me");
    // the twins: dots count there; their domains are not one another
    assert_ne!(mailbox("ann.lee@fastmail.com"), mailbox("annlee@fastmail.com"));
    assert_ne!(mailbox("ann@proton.me"), mailbox("ann@pm.me"));
    // not in the table: compared as delivered
    assert_eq!(mailbox("ann.lee+casino@outlook.com"), "ann.lee+casino@outlook.com");
}

#[test]
fn an_idn_domain_is_one_key_in_unicode_and_punycode() {
    assert_eq!(mailbox("user@bücher.example"), "user@xn--bcher-kva.example");
    assert_eq!(mailbox("user@xn--bcher-kva.example"), "user@xn--bcher-kva.example");
    assert_eq!(mailbox("User@BÜCHER.example"), mailbox("user@xn--bcher-kva.example"));
    // the twins: another domain; another mailbox of the same domain
    assert_ne!(mailbox("user@bucher.example"), mailbox("user@bücher.example"));
    assert_ne!(mailbox("other@bücher.example"), mailbox("user@xn--bcher-kva.example"));
}

#[test]
fn missing_fields_are_all_named_before_invalid_ones() {
    let mut f = Fields::from_body(br#"{"a": 5, "amount_cents": "12"}"#, &crate::ports::LibraryRules).unwrap();
    let _ = f.text("a");
    let _ = f.text("b");
    let _ = f.cents("amount_cents");
    let _ = f.text("c");
    let err = f.finish().unwrap_err();
    assert_eq!(err.code, "missing_fields");
    assert!(err.message.contains("b, c"), "{}", err.message);
}

#[test]
fn integers_beyond_what_every_store_keeps_are_refused() {
    let mut f = Fields::from_body(br#"{"n": 9007199254740992}"#, &crate::ports::LibraryRules).unwrap();
    let _ = f.integer("n");
    assert_eq!(f.finish().unwrap_err().code, "invalid_field");
    let mut f = Fields::from_body(br#"{"n": -9007199254740991}"#, &crate::ports::LibraryRules).unwrap();
    assert_eq!(f.opt_integer("n"), Some(-MAX_STORED_INTEGER));
    assert!(f.finish().is_ok());
}

#[test]
fn wrong_types_give_field_codes() {
    let mut f = Fields::from_body(br#"{"amount_cents": 1.5}"#, &crate::ports::LibraryRules).unwrap();
    let _ = f.cents("amount_cents");
    assert_eq!(f.finish().unwrap_err().code, "invalid_amount");
    let mut f = Fields::from_body(br#"{"amount_cents": 100}"#, &crate::ports::LibraryRules).unwrap();
    assert_eq!(f.cents("amount_cents"), 100);
    assert!(f.finish().is_ok());
}

#[test]
fn integers_written_with_a_zero_fraction_are_integers() {
    let mut f = Fields::from_body(br#"{"amount_cents": 100.0, "n": 6150.0, "m": -3.0}"#, &crate::ports::LibraryRules).unwrap();
    assert_eq!((f.cents("amount_cents"), f.integer("n"), f.opt_integer("m")), (100, 6150, Some(-3)));
    assert!(f.finish().is_ok());
    let mut f = Fields::from_body(br#"{"n": 6150.5}"#, &crate::ports::LibraryRules).unwrap();
    let _ = f.integer("n");
    assert_eq!(f.finish().unwrap_err().code, "invalid_field");
    let mut f = Fields::from_body(br#"{"n": 1e300}"#, &crate::ports::LibraryRules).unwrap();
    let _ = f.integer("n");
    assert_eq!(f.finish().unwrap_err().code, "invalid_field");
}

#[test]
fn bodies_must_be_objects() {
    assert_eq!(Fields::from_body(b"[1]", &crate::ports::LibraryRules).err().map(|e| e.code), Some("invalid_json"));
    assert_eq!(Fields::from_body(b"{", &crate::ports::LibraryRules).err().map(|e| e.code), Some("invalid_json"));
    assert_eq!(Fields::from_body(b"", &crate::ports::LibraryRules).err().map(|e| e.code), Some("invalid_json"));
}

#[test]
fn query_decodes_percent_and_keeps_plus() {
    let q = Query::parse(Some("email=a%2Bb%40x.com&phone=+44 1"), &crate::ports::LibraryRules).unwrap();
    assert_eq!(q.get("email"), Some("a+b@x.com"));
    assert_eq!(q.get("phone"), Some("+44 1"));
}

#[test]
fn nul_is_refused_in_bodies_and_queries() {
    for body in [r#"{"reviewer": "a\u0000b"}"#, r#"{"entries": [{"reference": "\u0000"}]}"#, r#"{"x": {"\u0000": 1}}"#] {
        assert_eq!(Fields::from_body(body.as_bytes(), &crate::ports::LibraryRules).err().map(|e| e.code), Some("invalid_field"), "{body}");
    }
    assert!(Fields::from_body(br#"{"reviewer": "a\u0001b"}"#, &crate::ports::LibraryRules).is_ok());
    assert_eq!(Query::parse(Some("user_id=a%00b"), &crate::ports::LibraryRules).err().map(|e| e.code), Some("invalid_query"));
    assert!(Query::parse(Some("user_id=a%01b"), &crate::ports::LibraryRules).is_ok());
}

#[test]
fn a_query_parameter_with_no_value_is_refused() {
    for raw in ["status=", "status=%20", "a=1&status", "status=open&to="] {
        assert_eq!(Query::parse(Some(raw), &crate::ports::LibraryRules).err().map(|e| e.code), Some("invalid_query"), "{raw}");
    }
    assert!(Query::parse(Some("status=open&&"), &crate::ports::LibraryRules).is_ok());
}

/// A query of every typed kind a handler reads.
#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
struct Typed {
    user_id: String,
    status: Option<rules_model::CaseStatus>,
    overdue: Option<bool>,
    limit: Option<Limit<500>>,
    cursor: Option<Cursor<(i64, String)>>,
    from: Option<Instant>,
    count: Option<i64>,
}

fn typed(raw: &str) -> Result<Typed, (u16, &'static str, String)> {
    Query::parse(Some(raw), &crate::ports::LibraryRules).and_then(|q| q.parse_into::<Typed>()).map_err(|e| (e.status, e.code, e.message))
}

#[test]
fn a_typed_query_reads_every_kind() {
    let cursor = crate::api::cursor::encode(&(7_i64, "case_1"));
    let q = typed(&format!("user_id=u%201&status=confirmed&overdue=true&limit=500&cursor={cursor}&from=2026-01-31T12:00:00Z&count=-3&other=x"))
        .expect("reads");
    assert_eq!(q.user_id, "u 1");
    assert_eq!(q.status, Some(rules_model::CaseStatus::Confirmed));
    assert_eq!(q.overdue, Some(true));
    assert_eq!(Limit::or(q.limit, 100), 500);
    assert_eq!(Cursor::after(q.cursor), Some((7, "case_1".to_string())));
    assert_eq!(q.from, time::parse("2026-01-31T12:00:00Z").map(Instant));
    assert_eq!(q.count, Some(-3));
    let q = typed("user_id=u").expect("reads");
    assert_eq!((Limit::or(q.limit, 100), q.status, q.overdue), (100, None, None));
}

#[test]
fn a_bad_value_keeps_its_code_and_names_its_parameter() {
    for (raw, code, named) in [
        ("status=open", "missing_fields", "user_id"),
        ("user_id=u&status=shut", "invalid_field", "status"),
        ("user_id=u&overdue=yes", "invalid_field", "overdue"),
        ("user_id=u&overdue=True", "invalid_field", "overdue"),
        ("user_id=u&limit=0", "invalid_limit", "limit"),
        ("user_id=u&limit=501", "invalid_limit", "limit"),
        ("user_id=u&limit=ten", "invalid_limit", "limit"),
        ("user_id=u&cursor=nope", "invalid_cursor", "cursor"),
        ("user_id=u&from=yesterday", "invalid_field", "from"),
        ("user_id=u&count=1.5", "invalid_field", "count"),
    ] {
        let (status, got, message) = typed(raw).expect_err(raw);
        assert_eq!((status, got), (400, code), "{raw}: {message}");
        assert!(message.contains(named), "{raw}: {message}");
    }
    // a missing field is named before a bad value, as in bodies; the first bad value is the answer
    assert_eq!(typed("cursor=nope&limit=0").err().map(|e| e.1), Some("missing_fields"));
    assert_eq!(typed("user_id=u&cursor=nope&limit=0").err().map(|e| e.1), Some("invalid_cursor"));
    // a cursor of another list's key shape is not this list's
    let foreign = crate::api::cursor::encode(&42);
    assert_eq!(typed(&format!("user_id=u&cursor={foreign}")).err().map(|e| e.1), Some("invalid_cursor"));
    // what Query::parse refuses stays refused before any field is read
    assert_eq!(typed("user_id=%E2%80%8B").err().map(|e| (e.0, e.1)), Some((422, "invalid_field")));
    assert_eq!(typed("user_id=u&status=").err().map(|e| (e.0, e.1)), Some((400, "invalid_query")));
}

#[test]
fn currencies_are_iso_4217_money_with_their_exponents() {
    assert_eq!(currency_exponent("USD"), Some(2));
    assert_eq!(currency_exponent("JPY"), Some(0));
    assert_eq!(currency_exponent("BHD"), Some(3));
    for refused in ["ABC", "usd", "XAU", "XXX", "US", ""] {
        assert_eq!(currency_exponent(refused), None, "{refused}");
    }
}
