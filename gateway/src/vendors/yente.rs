//! The screening adapter for a yente-compatible `/match` API (OpenSanctions'
//! open-source API, which operators self-host). yente proposes candidates;
//! the rules component scores them, so the audited rules still decide.

use rules_model::{EntryKind, ListCandidate, ScreeningScope};
use serde_json::{json, Value as Json};

use crate::ports::{VendorRequest, VendorResponse};

/// How many candidates one match asks for.
const CANDIDATES: usize = 10;
/// The query's key in yente's batch body.
const QUERY_KEY: &str = "q";

/// yente's collection of sanctions lists only: the default, as the spec
/// launches with sanctions screening alone.
pub const SANCTIONS_DATASET: &str = "sanctions";
/// yente's collection of every topic (sanctions, PEPs, crime), for tenants
/// that switch on PEP or adverse-media screening.
pub const ALL_TOPICS_DATASET: &str = "default";

/// Where the yente API is and which dataset to match against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YenteConfig {
    /// for example `https://yente.internal:8000`
    pub base_url: String,
    /// the dataset of sanctions-only screening: `sanctions` unless set
    pub dataset: String,
    /// the dataset of a tenant that also screens for PEPs or adverse media:
    /// `default` unless set; its results are sorted by their topics, and the
    /// rules ignore the topics the tenant does not screen for
    pub extended_dataset: String,
    /// sent as `Authorization: ApiKey …` when set
    pub api_key: Option<String>,
}

/// Who is looked for, as the signup gave them.
pub struct Person<'a> {
    pub name: &'a str,
    /// `YYYY-MM-DD`, or empty
    pub date_of_birth: &'a str,
    /// two letters, or empty
    pub nationality: &'a str,
}

impl YenteConfig {
    /// The dataset a screening of this scope matches against.
    pub fn dataset(&self, scope: ScreeningScope) -> &str {
        if scope.pep || scope.adverse_media {
            &self.extended_dataset
        } else {
            &self.dataset
        }
    }

    /// The source name the candidates carry, shown to the compliance team.
    pub fn source(&self, scope: ScreeningScope) -> String {
        format!("yente-{}", self.dataset(scope))
    }

    pub fn match_request(&self, person: &Person<'_>, scope: ScreeningScope) -> VendorRequest {
        let mut properties = json!({ "name": [person.name] });
        if !person.date_of_birth.is_empty() {
            properties["birthDate"] = json!([person.date_of_birth]);
        }
        if !person.nationality.is_empty() {
            properties["nationality"] = json!([person.nationality.to_ascii_lowercase()]);
        }
        let body = json!({ "queries": { QUERY_KEY: { "schema": "Person", "properties": properties } } });
        let mut headers = vec![("content-type".to_string(), "application/json".to_string())];
        if let Some(key) = &self.api_key {
            headers.push(("authorization".to_string(), format!("ApiKey {key}")));
        }
        VendorRequest {
            method: "POST",
            url: format!("{}/match/{}?limit={CANDIDATES}", self.base_url.trim_end_matches('/'), self.dataset(scope)),
            headers,
            body: body.to_string().into_bytes(),
            client_identity: None,
        }
    }

    /// The candidates of a `/match` answer; `Err` for anything but a readable 200.
    pub fn candidates(&self, response: &VendorResponse, scope: ScreeningScope) -> Result<Vec<ListCandidate>, String> {
        if response.status != 200 {
            return Err(format!("yente answered {}", response.status));
        }
        let body: Json = serde_json::from_slice(&response.body).map_err(|e| format!("yente's answer is not JSON: {e}"))?;
        let answer = &body["responses"][QUERY_KEY];
        if answer["status"].as_u64().is_some_and(|s| s != 200) {
            return Err(format!("yente answered the query with {}", answer["status"]));
        }
        let results = answer["results"].as_array().ok_or("yente's answer has no results")?;
        let source = self.source(scope);
        Ok(results.iter().filter_map(|r| candidate(r, &source)).collect())
    }
}

fn strings(value: &Json) -> Vec<String> {
    value.as_array().map(|a| a.iter().filter_map(|v| v.as_str()).map(str::to_string).collect()).unwrap_or_default()
}

fn candidate(result: &Json, source: &str) -> Option<ListCandidate> {
    let entity_id = result["id"].as_str()?.to_string();
    let properties = &result["properties"];
    let mut names = strings(&properties["name"]);
    if names.is_empty() {
        names.extend(result["caption"].as_str().map(str::to_string));
    }
    names.extend(strings(&properties["alias"]));
    names.dedup();
    if names.is_empty() {
        return None;
    }
    let mut nationalities: Vec<String> = strings(&properties["nationality"])
        .into_iter()
        .chain(strings(&properties["citizenship"]))
        .filter(|c| c.len() == 2 && c.bytes().all(|b| b.is_ascii_alphabetic()))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    nationalities.sort();
    nationalities.dedup();
    let kind = match result["schema"].as_str() {
        Some("Person") => EntryKind::Individual,
        Some("Organization" | "Company" | "LegalEntity") => EntryKind::Entity,
        Some("Vessel") => EntryKind::Vessel,
        Some("Airplane") => EntryKind::Aircraft,
        _ => EntryKind::Unknown,
    };
    let topics = strings(&properties["topics"]);
    let topic = crate::lists::parse::topic_of(&topics.iter().map(String::as_str).collect::<Vec<_>>());
    let dates_of_birth = strings(&properties["birthDate"]);
    // the record as the rules see it: a dismissed match returns when it changes
    let record = json!([entity_id, kind.as_str(), names, dates_of_birth, nationalities, topic.as_str()]);
    let fingerprint = hex::encode(<sha2::Sha256 as sha2::Digest>::digest(record.to_string().as_bytes()));
    Some(ListCandidate { source: source.to_string(), entity_id, kind, names, dates_of_birth, nationalities, topic, fingerprint })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> YenteConfig {
        YenteConfig {
            base_url: "http://127.0.0.1:9/".into(),
            dataset: "sanctions".into(),
            extended_dataset: "default".into(),
            api_key: Some("k1".into()),
        }
    }

    #[test]
    fn the_request_is_a_person_query_with_the_qualifiers_given() {
        let request = config()
            .match_request(&Person { name: "Nicolas Maduro Moros", date_of_birth: "1962-11-23", nationality: "VE" }, ScreeningScope::default());
        assert_eq!(request.url, "http://127.0.0.1:9/match/sanctions?limit=10");
        assert!(request.headers.contains(&("authorization".into(), "ApiKey k1".into())));
        let body: Json = serde_json::from_slice(&request.body).unwrap();
        assert_eq!(body["queries"]["q"]["schema"], "Person");
        assert_eq!(body["queries"]["q"]["properties"]["birthDate"], json!(["1962-11-23"]));
        assert_eq!(body["queries"]["q"]["properties"]["nationality"], json!(["ve"]));
        let bare = config().match_request(&Person { name: "Ann Lee", date_of_birth: "", nationality: "" }, ScreeningScope::default());
        let body: Json = serde_json::from_slice(&bare.body).unwrap();
        assert!(body["queries"]["q"]["properties"].get("birthDate").is_none());
    }

    #[test]
    fn results_become_candidates_with_aliases_and_qualifiers() {
        let answer = json!({ "responses": { "q": { "status": 200, "results": [
            { "id": "NK-1", "schema": "Person", "caption": "Nicolás Maduro", "score": 0.97,
              "properties": { "name": ["Nicolás Maduro Moros"], "alias": ["Nicolas Maduro"], "birthDate": ["1962-11-23"],
                              "nationality": ["ve"], "citizenship": ["ve", "suhh"] } },
            { "id": "NK-2", "schema": "Company", "caption": "Maduro Holdings", "properties": {} },
            { "schema": "Person", "properties": { "name": ["no id"] } }
        ] } } });
        let response = VendorResponse { status: 200, headers: vec![], body: answer.to_string().into_bytes() };
        let found = config().candidates(&response, ScreeningScope::default()).unwrap();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].names, vec!["Nicolás Maduro Moros", "Nicolas Maduro"]);
        assert_eq!(found[0].nationalities, vec!["VE"]);
        assert_eq!(found[0].kind, EntryKind::Individual);
        assert_eq!(found[0].source, "yente-sanctions");
        assert_eq!((found[1].kind, found[1].names.clone()), (EntryKind::Entity, vec!["Maduro Holdings".to_string()]));
    }

    #[test]
    fn sanctions_only_asks_the_sanctions_dataset_and_peps_are_sorted_by_topic() {
        let person = Person { name: "Ann Lee", date_of_birth: "", nationality: "" };
        assert_eq!(config().match_request(&person, ScreeningScope::default()).url, "http://127.0.0.1:9/match/sanctions?limit=10");
        let peps = ScreeningScope { pep: true, adverse_media: false };
        assert_eq!(config().match_request(&person, peps).url, "http://127.0.0.1:9/match/default?limit=10");
        let answer = json!({ "responses": { "q": { "status": 200, "results": [
            { "id": "A", "schema": "Person", "properties": { "name": ["Ann Lee"], "topics": ["role.pep"] } },
            { "id": "B", "schema": "Person", "properties": { "name": ["Ann Lee"], "topics": ["role.pep", "sanction"] } },
            { "id": "C", "schema": "Person", "properties": { "name": ["Ann Lee"], "topics": ["crime.fin"] } },
            { "id": "D", "schema": "Person", "properties": { "name": ["Ann Lee"] } }
        ] } } });
        let response = VendorResponse { status: 200, headers: vec![], body: answer.to_string().into_bytes() };
        let found = config().candidates(&response, peps).unwrap();
        let topics: Vec<rules_model::EntryTopic> = found.iter().map(|c| c.topic).collect();
        use rules_model::EntryTopic::*;
        assert_eq!(topics, vec![Pep, Sanction, AdverseMedia, Sanction]);
        assert_eq!(found[0].source, "yente-default");
    }

    #[test]
    fn errors_and_unreadable_answers_are_errors() {
        for response in [
            VendorResponse { status: 500, headers: vec![], body: b"{}".to_vec() },
            VendorResponse { status: 200, headers: vec![], body: b"<html>".to_vec() },
            VendorResponse { status: 200, headers: vec![], body: br#"{"responses":{"q":{"status":400}}}"#.to_vec() },
            VendorResponse { status: 200, headers: vec![], body: br#"{"responses":{}}"#.to_vec() },
        ] {
            assert!(config().candidates(&response, ScreeningScope::default()).is_err(), "{response:?}");
        }
    }
}
