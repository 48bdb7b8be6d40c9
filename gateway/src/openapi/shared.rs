//! Schemas the areas share by name (`#/components/schemas/...`). A field
//! names one with `#[schema(value_type = Timestamp)]`.

use serde_json::{json, Value as Json};
use utoipa::openapi::{ObjectBuilder, RefOr, Schema};

/// A schema from its JSON text; an empty object if it does not read as one
/// (a test reads every shared schema).
pub(crate) fn from_json(value: Json) -> RefOr<Schema> {
    serde_json::from_value(value).unwrap_or_else(|_| RefOr::T(Schema::Object(ObjectBuilder::new().build())))
}

/// A string schema of the names of an enum.
fn names(description: &str, names: impl Iterator<Item = &'static str>) -> RefOr<Schema> {
    from_json(json!({ "type": "string", "enum": names.collect::<Vec<_>>(), "description": description }))
}

/// Declares a named schema from an expression that builds it (see [`from_json`]).
macro_rules! shared_schema {
    ($(#[$doc:meta])* $name:ident => $schema:expr) => {
        $(#[$doc])*
        pub struct $name;
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
                $schema
            }
        }
        impl utoipa::ToSchema for $name {}
    };
}
pub(crate) use shared_schema;

shared_schema!(
    /// An instant, as the API writes it.
    Timestamp => from_json(json!({ "type": "string", "format": "date-time", "description": "ISO 8601 UTC, such as 2026-01-31T12:00:00Z" }))
);

shared_schema!(
    /// An amount in minor units, as every amount field takes it.
    Cents => from_json(json!({ "type": "integer", "minimum": 1, "maximum": crate::input::money::max_cents(), "description": "a positive amount in minor currency units" }))
);

shared_schema!(
    /// A currency code.
    Currency => from_json(json!({
        "type": "string",
        "enum": crate::input::money::currency_codes(),
        "description": "an ISO 4217 currency code such as USD; amounts are in its minor units (JPY has none, BHD three)"
    }))
);

shared_schema!(
    /// An exclusion's length.
    Duration => names("how long an exclusion lasts", rules_model::ExclusionDuration::ALL.iter().map(|d| d.as_str()))
);

shared_schema!(
    /// A deposit limit's window.
    LimitType => from_json(json!({ "type": "string", "enum": rules_model::LimitWindow::ALL.iter().map(|w| w.as_str()).collect::<Vec<_>>() }))
);

shared_schema!(
    /// An e-mail address as the API takes it (see `input::normalize_email`).
    Email => from_json(json!({ "type": "string", "maxLength": 254, "pattern": "^\\s*[^@\\s]+@[^@\\s]+\\.[^@\\s]+\\s*$", "description": "an e-mail address; compared without case, its domain in IDNA's ASCII form (Unicode and punycode alike), and folded by the providers' documented alias rules: Gmail's dots and `+tag` dropped and googlemail.com read as gmail.com, a `+tag` dropped at Fastmail and Proton; any other address compared as delivered" }))
);

shared_schema!(
    /// A phone number as the API takes it (see `input::normalize_phone`).
    Phone => from_json(json!({ "type": "string", "maxLength": 256, "pattern": "^\\s*[ +().-]*[0-9][0-9 +().-]*\\s*$", "description": "a phone number of 7 to 15 digits, with the separators space ( ) . -, read with libphonenumber's rules and compared as E.164: international after + or 00; without, in the national format of the tenant's jurisdiction (GB, SE, DE, NL, CA for CA-ON), and as international digits in the default one, where a national number (a leading 0) is 422 `unreadable_phone`; a number that cannot be read is 422 `unreadable_phone`" }))
);

shared_schema!(
    /// A jurisdiction profile of the rules component, as `rules_model::JurisdictionProfile` serialises.
    JurisdictionProfile => from_json(json!({"type": "object", "properties": {"name": {"type": "string"}, "regulator": {"type": "string"}, "increase_cooloffs": {"type": "array", "description": "a limit increase up to `up_to_multiple` times the limit in force (every increase when null) waits `cooloff_seconds`; decreases take effect at once", "items": {"type": "object", "properties": {"up_to_multiple": {"type": ["integer", "null"], "minimum": 1}, "cooloff_seconds": {"type": "integer", "minimum": 0}}, "required": ["cooloff_seconds", "up_to_multiple"]}}, "aml": {"type": "object", "description": "the AML monitoring parameters: thresholds in minor units of `currency`, windows in seconds, percentages, the CDD tier and the filing deadlines (see `decide-aml`)"}}, "required": ["aml", "increase_cooloffs", "name", "regulator"]}))
);

shared_schema!(
    /// A tenant's environment.
    Environment => names("a tenant's environment", rules_model::Environment::ALL.iter().map(|e| e.as_str()))
);

shared_schema!(
    /// The name of a rules decision.
    OperationName => names("the rules decision: one per exported call of the component", rules_model::Operation::ALL.iter().map(|o| o.as_str()))
);

shared_schema!(
    /// A user's screening status.
    SanctionsStatus => names("a user's screening status", rules_model::SanctionsStatus::ALL.iter().map(|s| s.as_str()))
);

shared_schema!(
    /// A sanctions case's status.
    CaseStatus => names("a sanctions case's status", rules_model::CaseStatus::ALL.iter().map(|s| s.as_str()))
);

shared_schema!(
    /// What a case asks of the compliance team.
    CaseKind => names(
        "a sanctions hit (transactions held until decided) or enhanced due diligence on a PEP or adverse-media match (nothing held)",
        rules_model::CaseKind::ALL.iter().map(|s| s.as_str())
    )
);

shared_schema!(
    /// Why a list entry is listed.
    EntryTopic => names("why a list entry is listed: a sanction, a PEP, or adverse media", rules_model::EntryTopic::ALL.iter().map(|s| s.as_str()))
);

shared_schema!(
    /// Which reading of a screened name scored.
    NameReading => names(
        "which reading of the screened name scored: as written; split where punctuation, an odd space or a syllable parts a word; look-alike letters read as the Latin they look like; or transliterated from a script the lists are not read in (to check against the identity document)",
        rules_model::NameReading::ALL.iter().map(|s| s.as_str())
    )
);

shared_schema!(
    /// The spelling two name parts were compared in.
    Spelling => names(
        "the spelling two name parts were compared in: as written, or through a romanization table (Cyrillic in English, German or French transcription; Korean; Arabic; consonants only, for a name read from Arabic or Hebrew script)",
        rules_model::Spelling::ALL.iter().map(|s| s.as_str())
    )
);

shared_schema!(
    /// A reviewer's decision on a case.
    ReviewAction => names("dismiss (a false positive) or confirm", rules_model::ReviewAction::ALL.iter().map(|s| s.as_str()))
);

shared_schema!(
    /// A KYC tier.
    Tier => names("a KYC tier, keyed to lifetime withdrawals", rules_model::KycTier::ALL.iter().map(|t| t.as_str()))
);

shared_schema!(
    /// A verification check's status.
    KycStatus => names("a verification check's status", rules_model::KycStatus::ALL.iter().map(|s| s.as_str()))
);

shared_schema!(
    /// Why a check awaiting review was escalated to a person.
    KycEscalation => names(
        "why a check awaiting review needs a person: the vendor asked the user to resubmit, or it is past the review target",
        rules_model::KycEscalation::ALL.iter().map(|s| s.as_str())
    )
);

shared_schema!(
    /// What a verification asks of the user.
    KycDocument => names("what a verification asks of the user", rules_model::KycDocument::ALL.iter().map(|d| d.as_str()))
);

shared_schema!(
    /// Where a withdrawal stands.
    WithdrawalStatus => names("where a withdrawal stands", rules_model::WithdrawalStatus::ALL.iter().map(|s| s.as_str()))
);

shared_schema!(
    /// An OpenAPI document.
    OpenApiDocument => from_json(json!({ "type": "object", "description": "an OpenAPI 3.1 document" }))
);

/// The query that names a user.
#[derive(serde::Deserialize, utoipa::IntoParams)]
pub struct UserQuery {
    #[param(min_length = 1, max_length = 256)]
    pub user_id: String,
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;

    use super::*;

    /// Every shared schema reads as the JSON it was written as (none fell back to an empty object).
    #[test]
    fn every_shared_schema_reads() {
        for schema in [
            Timestamp::schema(),
            Cents::schema(),
            Currency::schema(),
            Duration::schema(),
            LimitType::schema(),
            Email::schema(),
            Phone::schema(),
            OpenApiDocument::schema(),
            Tier::schema(),
            KycStatus::schema(),
            KycEscalation::schema(),
            KycDocument::schema(),
            WithdrawalStatus::schema(),
            SanctionsStatus::schema(),
            CaseStatus::schema(),
            CaseKind::schema(),
            EntryTopic::schema(),
            NameReading::schema(),
            Spelling::schema(),
            ReviewAction::schema(),
            Environment::schema(),
            OperationName::schema(),
            JurisdictionProfile::schema(),
        ] {
            let json = serde_json::to_value(&schema).expect("serialises");
            assert!(json.get("type").is_some(), "{json}");
        }
        assert_eq!(serde_json::to_value(from_json(json!({ "type": 7 }))).expect("serialises"), json!({ "type": "object" }));
    }
}
