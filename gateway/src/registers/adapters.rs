//! The national registers' wire contracts: each adapter builds its
//! register's request and reads its answer; the host sends the request
//! ([`crate::ports::VendorHttp`]). Spelpaus's is public; GAMSTOP's is the
//! shape its public clients use; ROFUS's and CRUKS's follow their public
//! descriptions (`docs/decisions.md`, "National registers").
//! Whatever is not the register's answer reads as [`Reading::Unusable`],
//! never as "not excluded".

use rules_model::{CheckPurpose, NationalRegister, RegisterStatus};
use serde_json::{json, Map, Value as Json};

use crate::ports::{VendorRequest, VendorResponse};

/// The credentials of one register, as the tenant gave them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Credentials {
    Spelpaus { actor_id: String, api_key: String },
    Gamstop { api_key: String },
    Rofus { operator_id: String, api_key: String },
    Cruks { client_certificate_pem: String, client_key_pem: String },
}

/// The credential fields each register takes, in the order they are documented.
pub(crate) fn credential_fields(register: NationalRegister) -> &'static [&'static str] {
    match register {
        NationalRegister::Spelpaus => &["actor_id", "api_key"],
        NationalRegister::Gamstop => &["api_key"],
        NationalRegister::Rofus => &["operator_id", "api_key"],
        NationalRegister::Cruks => &["client_certificate_pem", "client_key_pem"],
    }
}

impl Credentials {
    /// From the credential fields, each a non-empty string (checked by the caller).
    pub(crate) fn from_fields(register: NationalRegister, fields: &Map<String, Json>) -> Option<Credentials> {
        let get = |name: &str| fields.get(name).and_then(Json::as_str).filter(|v| !v.is_empty()).map(str::to_string);
        Some(match register {
            NationalRegister::Spelpaus => Credentials::Spelpaus { actor_id: get("actor_id")?, api_key: get("api_key")? },
            NationalRegister::Gamstop => Credentials::Gamstop { api_key: get("api_key")? },
            NationalRegister::Rofus => Credentials::Rofus { operator_id: get("operator_id")?, api_key: get("api_key")? },
            NationalRegister::Cruks => {
                Credentials::Cruks { client_certificate_pem: get("client_certificate_pem")?, client_key_pem: get("client_key_pem")? }
            }
        })
    }

    pub(crate) fn to_json(&self) -> String {
        match self {
            Credentials::Spelpaus { actor_id, api_key } => json!({ "actor_id": actor_id, "api_key": api_key }),
            Credentials::Gamstop { api_key } => json!({ "api_key": api_key }),
            Credentials::Rofus { operator_id, api_key } => json!({ "operator_id": operator_id, "api_key": api_key }),
            Credentials::Cruks { client_certificate_pem, client_key_pem } => {
                json!({ "client_certificate_pem": client_certificate_pem, "client_key_pem": client_key_pem })
            }
        }
        .to_string()
    }

    pub(crate) fn from_json(register: NationalRegister, text: &str) -> Option<Credentials> {
        match serde_json::from_str::<Json>(text).ok()? {
            Json::Object(fields) => Credentials::from_fields(register, &fields),
            _ => None,
        }
    }
}

/// The identity a check gives, each field read (national ids in the form
/// their register takes, checked by the rules).
#[derive(Debug, Clone, Default)]
pub(crate) struct Identity {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub date_of_birth: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub postcode: Option<String>,
    pub personnummer: Option<String>,
    pub cpr: Option<String>,
    pub bsn: Option<String>,
    pub birth_place: Option<String>,
}

impl Identity {
    /// The fields a register needs that the identity lacks, by their body names.
    /// CRUKS needs none once it gave the player a code; for its first
    /// check, the names and date of birth, and the BSN or the birthplace.
    pub(crate) fn missing_for(&self, register: NationalRegister, has_code: bool) -> Vec<&'static str> {
        let need: &[(&'static str, &Option<String>)] = match register {
            NationalRegister::Spelpaus => &[("identity.personnummer", &self.personnummer)],
            NationalRegister::Rofus => &[("identity.cpr", &self.cpr)],
            NationalRegister::Gamstop => &[
                ("identity.first_name", &self.first_name),
                ("identity.last_name", &self.last_name),
                ("identity.date_of_birth", &self.date_of_birth),
                ("identity.email", &self.email),
                ("identity.postcode", &self.postcode),
                ("identity.phone", &self.phone),
            ],
            NationalRegister::Cruks if has_code => &[],
            NationalRegister::Cruks => {
                &[("identity.first_name", &self.first_name), ("identity.last_name", &self.last_name), ("identity.date_of_birth", &self.date_of_birth)]
            }
        };
        let mut missing: Vec<&'static str> = need.iter().filter(|(_, v)| v.is_none()).map(|(n, _)| *n).collect();
        if register == NationalRegister::Cruks && !has_code && self.bsn.is_none() && self.birth_place.is_none() {
            missing.push("identity.bsn");
        }
        missing
    }
}

/// What a register's answer says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Reading {
    /// the register's status for the player, with its own id of the answer
    Answer { status: RegisterStatus, reference: Option<String> },
    /// CRUKS's first step: the player's pseudonymous code
    Code(String),
    /// not the register's answer (an error status, a malformed body): why
    Unusable(String),
}

fn join(base: &str, path: &str) -> String {
    format!("{}{path}", base.trim_end_matches('/'))
}

fn json_request(url: String, mut headers: Vec<(String, String)>, body: &Json) -> VendorRequest {
    headers.push(("content-type".into(), "application/json".into()));
    headers.push(("accept".into(), "application/json".into()));
    VendorRequest { method: "POST", url, headers, body: body.to_string().into_bytes(), client_identity: None }
}

fn text(value: &Option<String>) -> String {
    value.clone().unwrap_or_default()
}

/// The request of a one-step register, or CRUKS's second step when `code` is
/// given (its first step is [`cruks_code_request`]).
pub(crate) fn request(
    base_url: &str,
    credentials: &Credentials,
    purpose: CheckPurpose,
    identity: &Identity,
    code: Option<&str>,
    request_id: &str,
) -> VendorRequest {
    let marketing = purpose == CheckPurpose::Marketing;
    match credentials {
        Credentials::Spelpaus { actor_id, api_key } => {
            let path = if marketing { "/api/marketing-single-subjectid/" } else { "/api/blocking-info/" };
            json_request(
                join(base_url, &format!("{path}{actor_id}")),
                vec![("authorization".into(), api_key.clone())],
                &json!({ "requestId": request_id, "subjectId": text(&identity.personnummer) }),
            )
        }
        Credentials::Gamstop { api_key } => {
            let body = url::form_urlencoded::Serializer::new(String::new())
                .append_pair("firstName", &text(&identity.first_name))
                .append_pair("lastName", &text(&identity.last_name))
                .append_pair("dateOfBirth", &text(&identity.date_of_birth))
                .append_pair("email", &text(&identity.email))
                .append_pair("postcode", &text(&identity.postcode))
                .append_pair("mobile", &text(&identity.phone))
                .finish();
            VendorRequest {
                method: "POST",
                url: base_url.to_string(),
                headers: vec![
                    ("content-type".into(), "application/x-www-form-urlencoded".into()),
                    ("x-api-key".into(), api_key.clone()),
                    ("x-trace-id".into(), request_id.to_string()),
                ],
                body: body.into_bytes(),
                client_identity: None,
            }
        }
        Credentials::Rofus { operator_id, api_key } => {
            let path = if marketing { "/gambler/marketing" } else { "/gambler/check" };
            json_request(
                join(base_url, path),
                vec![("authorization".into(), format!("Bearer {api_key}"))],
                &json!({ "operatorId": operator_id, "cpr": text(&identity.cpr), "requestId": request_id }),
            )
        }
        Credentials::Cruks { .. } => {
            json_request(join(base_url, "/is-registered"), Vec::new(), &json!({ "cruksCode": code.unwrap_or_default(), "requestId": request_id }))
        }
    }
}

impl Credentials {
    /// The client certificate a register's calls present (CRUKS's mutual TLS).
    pub(crate) fn client_identity(&self) -> Option<crate::ports::ClientIdentity> {
        match self {
            Credentials::Cruks { client_certificate_pem, client_key_pem } => {
                Some(crate::ports::ClientIdentity { certificate_pem: client_certificate_pem.clone(), key_pem: client_key_pem.clone() })
            }
            _ => None,
        }
    }
}

/// CRUKS's first step: the identity for the player's code.
pub(crate) fn cruks_code_request(base_url: &str, identity: &Identity, request_id: &str) -> VendorRequest {
    let mut body = json!({
        "firstName": text(&identity.first_name),
        "lastName": text(&identity.last_name),
        "dateOfBirth": text(&identity.date_of_birth),
        "requestId": request_id,
    });
    if let Some(bsn) = &identity.bsn {
        body["bsn"] = json!(bsn);
    }
    if let Some(place) = &identity.birth_place {
        body["birthPlace"] = json!(place);
    }
    json_request(join(base_url, "/cruks-code"), Vec::new(), &body)
}

/// A JSON answer of 200, or why not.
fn json_answer(response: &VendorResponse) -> Result<Map<String, Json>, String> {
    if response.status != 200 {
        return Err(format!("answered {}", response.status));
    }
    match serde_json::from_slice::<Json>(&response.body) {
        Ok(Json::Object(map)) => Ok(map),
        _ => Err("the answer is not a JSON object".into()),
    }
}

/// The register's id of its answer: a short printable string, or none.
pub(crate) fn reference(value: Option<&str>) -> Option<String> {
    value.filter(|v| !v.is_empty() && v.len() <= 200 && v.chars().all(|c| c.is_ascii_graphic())).map(str::to_string)
}

fn answered(status: RegisterStatus, reference_value: Option<&str>) -> Reading {
    Reading::Answer { status, reference: reference(reference_value) }
}

/// Reads a register's answer to [`request`].
pub(crate) fn read(register: NationalRegister, response: &VendorResponse, request_id: &str) -> Reading {
    let unusable = Reading::Unusable;
    match register {
        NationalRegister::Gamstop => {
            if response.status != 200 {
                return unusable(format!("answered {}", response.status));
            }
            // more than one answer is none
            if response.headers.iter().filter(|(n, _)| n == "x-exclusion").count() > 1 {
                return unusable("more than one X-Exclusion header".into());
            }
            let status = match response.header("x-exclusion").map(str::trim) {
                Some("Y") => RegisterStatus::Excluded,
                Some("N") => RegisterStatus::NotExcluded,
                Some("P") => RegisterStatus::PreviouslyExcluded,
                Some(other) => return unusable(format!("X-Exclusion {other:?} is none of Y, N, P")),
                None => return unusable("no X-Exclusion header".into()),
            };
            answered(status, response.header("x-unique-id"))
        }
        NationalRegister::Spelpaus | NationalRegister::Rofus | NationalRegister::Cruks => {
            let body = match json_answer(response) {
                Ok(body) => body,
                Err(why) => return unusable(why),
            };
            // an answer to another request is no answer to this one; Spelpaus's contract echoes ours, so its answer must
            let echo = body.get("requestId");
            let echoed = match echo {
                None | Some(Json::Null) => register != NationalRegister::Spelpaus,
                Some(echo) => echo.as_str() == Some(request_id),
            };
            if !echoed {
                return unusable("the answer does not name this request's requestId".into());
            }
            let status = match register {
                NationalRegister::Spelpaus => body.get("isBlocked").and_then(Json::as_bool).map(excluded_if),
                NationalRegister::Cruks => body.get("isRegistered").and_then(Json::as_bool).map(excluded_if),
                _ => match body.get("status").and_then(Json::as_str) {
                    Some("NotRegistered") => Some(RegisterStatus::NotExcluded),
                    Some("RegisteredTemporarily" | "RegisteredIndefinitely") => Some(RegisterStatus::Excluded),
                    _ => None,
                },
            };
            match status {
                Some(status) => answered(status, body.get("responseId").and_then(Json::as_str)),
                None => unusable("the answer carries no status".into()),
            }
        }
    }
}

fn excluded_if(blocked: bool) -> RegisterStatus {
    if blocked {
        RegisterStatus::Excluded
    } else {
        RegisterStatus::NotExcluded
    }
}

/// Reads CRUKS's answer to [`cruks_code_request`].
pub(crate) fn read_code(response: &VendorResponse) -> Reading {
    match json_answer(response) {
        Ok(body) => match body.get("cruksCode").and_then(Json::as_str).and_then(|c| reference(Some(c))) {
            Some(code) => Reading::Code(code),
            None => Reading::Unusable("the answer carries no cruksCode".into()),
        },
        Err(why) => Reading::Unusable(why),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn response(status: u16, headers: &[(&str, &str)], body: &str) -> VendorResponse {
        VendorResponse { status, headers: headers.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(), body: body.as_bytes().to_vec() }
    }

    #[test]
    fn gamstop_answers_in_its_headers_and_anything_else_is_unusable() {
        let read = |r: &VendorResponse| read(NationalRegister::Gamstop, r, "req_1");
        let answer = |status| Reading::Answer { status, reference: Some("u-1".into()) };
        assert_eq!(read(&response(200, &[("x-exclusion", "Y"), ("x-unique-id", "u-1")], "")), answer(RegisterStatus::Excluded));
        assert_eq!(read(&response(200, &[("x-exclusion", "N"), ("x-unique-id", "u-1")], "")), answer(RegisterStatus::NotExcluded));
        assert_eq!(read(&response(200, &[("x-exclusion", "P"), ("x-unique-id", "u-1")], "")), answer(RegisterStatus::PreviouslyExcluded));
        let twice = response(200, &[("x-exclusion", "N"), ("x-exclusion", "Y")], "");
        for bad in [response(200, &[], "{}"), response(200, &[("x-exclusion", "n")], ""), response(403, &[("x-exclusion", "N")], ""), twice] {
            assert!(matches!(read(&bad), Reading::Unusable(_)), "{bad:?}");
        }
    }

    #[test]
    fn a_json_register_needs_its_status_and_our_request_id() {
        let ok = response(200, &[], r#"{"isBlocked":true,"requestId":"req_1","responseId":"r-9"}"#);
        let unechoed = response(200, &[], r#"{"isBlocked":false,"responseId":"r-9"}"#);
        assert!(matches!(read(NationalRegister::Spelpaus, &unechoed, "req_1"), Reading::Unusable(_)), "Spelpaus echoes the requestId");
        assert_eq!(
            read(NationalRegister::Spelpaus, &ok, "req_1"),
            Reading::Answer { status: RegisterStatus::Excluded, reference: Some("r-9".into()) }
        );
        assert!(matches!(read(NationalRegister::Spelpaus, &ok, "req_2"), Reading::Unusable(_)), "another request's answer");
        for bad in [r#"{"isBlocked":"false"}"#, r#"{}"#, "<html>", r#"{"status":"Registered"}"#] {
            for register in [NationalRegister::Spelpaus, NationalRegister::Rofus, NationalRegister::Cruks] {
                assert!(matches!(read(register, &response(200, &[], bad), "req_1"), Reading::Unusable(_)), "{register:?} {bad}");
            }
        }
        let rofus = |s: &str| read(NationalRegister::Rofus, &response(200, &[], &format!(r#"{{"status":"{s}"}}"#)), "req_1");
        assert!(matches!(rofus("RegisteredTemporarily"), Reading::Answer { status: RegisterStatus::Excluded, .. }));
        assert!(matches!(rofus("RegisteredIndefinitely"), Reading::Answer { status: RegisterStatus::Excluded, .. }));
        assert!(matches!(rofus("NotRegistered"), Reading::Answer { status: RegisterStatus::NotExcluded, .. }));
        assert!(matches!(read(NationalRegister::Spelpaus, &response(503, &[], "{}"), "req_1"), Reading::Unusable(_)));
    }

    #[test]
    fn each_purpose_goes_to_its_own_api() {
        let spelpaus = Credentials::Spelpaus { actor_id: "casino-test".into(), api_key: "k".into() };
        let identity = Identity { personnummer: Some("198112289874".into()), ..Identity::default() };
        let login = request("http://127.0.0.1:9/", &spelpaus, CheckPurpose::Login, &identity, None, "req_1");
        assert_eq!(login.url, "http://127.0.0.1:9/api/blocking-info/casino-test");
        let marketing = request("http://127.0.0.1:9", &spelpaus, CheckPurpose::Marketing, &identity, None, "req_1");
        assert_eq!(marketing.url, "http://127.0.0.1:9/api/marketing-single-subjectid/casino-test");
        assert_eq!(serde_json::from_slice::<Json>(&login.body).ok(), Some(json!({ "requestId": "req_1", "subjectId": "198112289874" })));
    }
}
