//! The webhook events as types: one payload struct per kind of event (some
//! kinds share one), the envelope every delivery carries, and the OpenAPI
//! 3.1 `webhooks` section that documents each kind.
//!
//! An outbox row is written only from a payload ([`Gateway::event`] takes
//! an [`EventData`]), and each payload names the kinds it is the data of.
//! [`PAYLOADS`] is the one list the document is made from: a new kind of
//! event adds its struct here and a line there (a test fails until every
//! kind has exactly one payload).
//!
//! [`Gateway::event`]: crate::Gateway::event

use serde::Serialize;
use serde_json::{json, Map, Value as Json};
use utoipa::openapi::{RefOr, Schema};
use utoipa::ToSchema;

use crate::auth::Environment;
use crate::openapi::shared::Timestamp;
use crate::ports::Stmt;
use rules_model::EventKind;

/// The data of one or more kinds of event.
pub(crate) trait EventData: Serialize + ToSchema {
    /// The names of the kinds whose `data` this is, such as `limit.created`.
    fn names() -> Vec<&'static str>;
}

/// What every delivery's body is: the event's name and id, when it
/// happened, and its kind's data.
#[derive(Serialize)]
pub(crate) struct Envelope<'a, P: EventData> {
    pub event: &'static str,
    pub event_id: &'a str,
    pub timestamp: String,
    pub data: &'a P,
}

/// The webhook event a finished job fires, with `{erasure_id, user_id}`.
pub const ERASURE_COMPLETED: &str = "user.erasure_completed";

/// Every event name a webhook delivers: the kinds the rules decide, and the
/// gateway's own.
pub(crate) fn delivered_names() -> impl Iterator<Item = &'static str> {
    EventKind::ALL.iter().map(|k| k.as_str()).chain([ERASURE_COMPLETED])
}

crate::openapi::shared::shared_schema!(
    /// The name of an event a webhook delivers.
    EventName => crate::openapi::shared::from_json(
        json!({ "type": "string", "enum": delivered_names().collect::<Vec<_>>(), "description": "the name of an event" })
    )
);

/// An event's name as a query gives it: one a webhook delivers (400
/// `invalid_field` for any other).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DeliveredEvent(&'static str);

impl DeliveredEvent {
    pub(crate) fn as_str(self) -> &'static str {
        self.0
    }
}

impl<'de> serde::Deserialize<'de> for DeliveredEvent {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = std::borrow::Cow::<'de, str>::deserialize(deserializer)?;
        delivered_names()
            .find(|known| *known == name)
            .map(DeliveredEvent)
            .ok_or_else(|| serde::de::Error::custom(format!("must be one of {}", delivered_names().collect::<Vec<_>>().join(", "))))
    }
}

macro_rules! payload {
    ($(#[$doc:meta])* $name:ident [$($kind:ident),+] { $($body:tt)* }) => {
        payload!($(#[$doc])* $name names [$(EventKind::$kind.as_str()),+] { $($body)* });
    };
    ($(#[$doc:meta])* $name:ident names [$($kind:expr),+] { $($body:tt)* }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Serialize, ToSchema)]
        #[serde(deny_unknown_fields)]
        pub(crate) struct $name { $($body)* }
        impl EventData for $name {
            fn names() -> Vec<&'static str> {
                vec![$($kind),+]
            }
        }
    };
}

payload!(
    /// `sanctions.hit`: a screening matched a sanctions list; the case waits for review.
    /// Nothing of the entry matched is carried.
    SanctionsHitData [SanctionsHit] {
        pub screen_id: String,
        pub case_id: String,
        pub user_id: String,
        /// the user's sanctions status
        pub status: String,
        pub transactions_held: bool,
    }
);

payload!(
    /// `screening.pep_match`, `screening.adverse_media_match`: enhanced due
    /// diligence is required; nothing of the entry matched is carried.
    DueDiligenceData [ScreeningPepMatch, ScreeningAdverseMediaMatch] {
        pub screen_id: String,
        pub user_id: String,
        pub due_diligence_required: bool,
        pub transactions_held: bool,
    }
);

payload!(
    /// `sanctions.cleared`: the compliance team dismissed the case.
    SanctionsClearedData [SanctionsCleared] {
        pub case_id: String,
        pub user_id: String,
        pub reviewer: String,
        pub transactions_held: bool,
    }
);

payload!(
    /// `sanctions.confirmed`: the compliance team confirmed the match.
    SanctionsConfirmedData [SanctionsConfirmed] {
        pub case_id: String,
        pub user_id: String,
        pub reviewer: String,
        pub transactions_held: bool,
        pub account_terminated: bool,
    }
);

payload!(
    /// `sanctions.account_frozen`: the user's funds are frozen after a confirmed match.
    AccountFrozenData [SanctionsAccountFrozen] {
        pub case_id: String,
        pub user_id: String,
        pub funds_frozen: bool,
    }
);

payload!(
    /// `kyc.started`, `kyc.submitted`: a verification began, or its documents were sent.
    KycCheckData [KycStarted, KycSubmitted] {
        pub kyc_check_id: String,
        pub user_id: String,
        pub required_tier: String,
    }
);

payload!(
    /// `kyc.approved`: the user is verified to a tier, and the check's held
    /// withdrawal is released (`release_withdrawal_id` names it), unless
    /// another hold still stands (the reason is not said): then
    /// `release_withdrawal_id` is null and the withdrawal is cancelled (its
    /// `withdrawal_status` is `cancelled`, it counts toward no total); the
    /// operator asks again with `POST /v1/kyc/start` and is answered under the
    /// holds then.
    KycApprovedData [KycApproved] {
        pub kyc_check_id: String,
        pub user_id: String,
        pub verified_tier: String,
        /// the withdrawal the operator may now pay out; null when another hold cancelled it
        #[schema(required)]
        pub release_withdrawal_id: Option<String>,
    }
);

payload!(
    /// `kyc.tier_upgraded`: the user's verified tier went up.
    KycTierUpgradedData [KycTierUpgraded] {
        pub user_id: String,
        pub previous_tier: String,
        pub verified_tier: String,
    }
);

payload!(
    /// `kyc.rejected`: the verification failed; the withdrawal stays held.
    KycRejectedData [KycRejected] {
        pub kyc_check_id: String,
        pub user_id: String,
        pub required_tier: String,
        pub withdrawal_id: String,
        pub withdrawal_held: bool,
    }
);

payload!(
    /// `kyc.expired`: the verification was abandoned; its withdrawal is cancelled.
    KycExpiredData [KycExpired] {
        pub kyc_check_id: String,
        pub user_id: String,
        pub withdrawal_id: String,
        pub withdrawal_cancelled: bool,
    }
);

payload!(
    /// `exclusion.created`, `exclusion.permanent`, `exclusion.kgc_synced`: a
    /// self-exclusion every operator of the environment must honour; or
    /// (`exclusion.created` with a national register as its `source`) one of
    /// the operator's own players whom a national register newly found
    /// excluded, sent to that operator alone.
    ExclusionData [ExclusionCreated, ExclusionPermanent, ExclusionKgcSynced] {
        /// the shared register's exclusion; for a national register, the check that found the player excluded
        /// (`GET /v1/registers/checks`)
        pub exclusion_id: String,
        /// only for a national register's finding: the operator's player it found
        #[serde(skip_serializing_if = "Option::is_none")]
        pub user_id: Option<String>,
        /// the excluded e-mail address; sent after the player's erasure, the address as the list compares it (its
        /// mailbox: no `+tag`), or null once the exclusion ended
        #[schema(required)]
        pub user_email: Option<String>,
        /// the excluded phone (E.164 digits); null once an erased player's exclusion ended
        #[schema(required)]
        pub user_phone: Option<String>,
        /// how long it lasts; null for a national register's finding (the register does not say)
        #[schema(value_type = Option<crate::openapi::shared::Duration>, required)]
        pub duration: Option<String>,
        pub is_permanent: bool,
        /// none for a permanent exclusion, or a national register's finding
        #[schema(value_type = Option<Timestamp>, required)]
        pub expires_at: Option<String>,
        /// where it is registered: `operator` or `regulator_comprehensive` (the shared register), or the national
        /// register that found the player excluded: `spelpaus`, `gamstop`, `rofus`, `cruks`
        pub source: String,
    }
);

payload!(
    /// `exclusion.expired`: a timed exclusion ran out.
    ExclusionExpiredData [ExclusionExpired] {
        pub exclusion_id: String,
        /// the e-mail address; null when the player was erased before it was sent (the `exclusion_id` names it)
        #[schema(required)]
        pub user_email: Option<String>,
        /// the phone; null when the player was erased before it was sent
        #[schema(required)]
        pub user_phone: Option<String>,
        #[schema(value_type = crate::openapi::shared::Duration)]
        pub duration: String,
        #[schema(value_type = Timestamp)]
        pub expired_at: String,
        pub source: String,
    }
);

/// A shared exclusion event's envelope as it is still sent after its
/// player's erasure (issue #46): `user_email` and `user_phone` replaced by
/// the given contacts, everything else as it was. `None` for an envelope
/// that is not an exclusion event's.
pub(crate) fn with_exclusion_contacts(envelope: &str, email: Option<String>, phone: Option<String>) -> Option<String> {
    let mut value: Json = serde_json::from_str(envelope).ok()?;
    let kind = value.get("event").and_then(Json::as_str)?;
    if !ExclusionData::names().contains(&kind) && !ExclusionExpiredData::names().contains(&kind) {
        return None;
    }
    let data = value.get_mut("data")?.as_object_mut()?;
    data.insert("user_email".into(), email.map_or(Json::Null, Json::String));
    data.insert("user_phone".into(), phone.map_or(Json::Null, Json::String));
    serde_json::to_string(&value).ok()
}

payload!(
    /// `limit.created`, `limit.decreased`: a deposit limit set or lowered
    /// (an increase waits out its cooling-off period, then `limit.activated`).
    LimitChangedData [LimitCreated, LimitDecreased] {
        pub limit_id: String,
        pub user_id: String,
        #[schema(value_type = crate::openapi::shared::LimitType)]
        pub limit_type: String,
        pub amount_cents: i64,
        pub currency: String,
        /// the limit it replaces, if any
        #[schema(required)]
        pub previous_limit_cents: Option<i64>,
        #[schema(value_type = Timestamp)]
        pub effective_from: String,
    }
);

payload!(
    /// `limit.activated`: a raised limit went live after its cooling-off period.
    LimitActivatedData [LimitActivated] {
        pub limit_id: String,
        pub user_id: String,
        #[schema(value_type = crate::openapi::shared::LimitType)]
        pub limit_type: String,
        pub amount_cents: i64,
        pub currency: String,
        #[schema(value_type = Timestamp)]
        pub effective_from: String,
    }
);

payload!(
    /// `limit.cancelled`: a pending increase was cancelled.
    LimitCancelledData [LimitCancelled] {
        pub limit_id: String,
        pub user_id: String,
        #[schema(value_type = crate::openapi::shared::LimitType)]
        pub limit_type: String,
        pub amount_cents: i64,
        pub currency: String,
    }
);

payload!(
    /// `limit.breach_attempt`: a deposit was refused for going over a limit.
    LimitBreachData [LimitBreachAttempt] {
        pub user_id: String,
        #[schema(value_type = crate::openapi::shared::LimitType)]
        pub limit_type: String,
        pub amount_cents: i64,
        pub currency: String,
        pub limit_amount_cents: i64,
        pub already_spent_cents: i64,
    }
);

payload!(
    /// `aml.alert_created`: the transaction monitor raised an alert.
    AmlAlertData [AmlAlertCreated] {
        pub alert_id: String,
        pub user_id: String,
        pub typologies: Vec<String>,
        pub outcome: String,
        pub actions: Vec<String>,
    }
);

payload!(
    /// `user.erasure_completed`: every class of the user's data that the law let go is erased.
    ErasureCompletedData names [ERASURE_COMPLETED] {
        pub erasure_id: String,
        pub user_id: String,
    }
);

// A new kind of event: its payload above, then a line in `payloads()` below.

impl crate::Gateway {
    /// An outbox row for an event, written in the same batch as the change
    /// that fires it: the envelope of `data`, a payload of `event`'s kind.
    /// `tenant_id` `None` fans out to every tenant of the environment.
    pub(crate) fn event<P: EventData>(&self, environment: Environment, tenant_id: Option<&str>, event: EventKind, now: i64, data: &P) -> Stmt {
        self.outbox_event(environment, tenant_id, event.as_str(), now, data)
    }

    /// [`Gateway::event`] for an event the rules do not name (such as
    /// `user.erasure_completed`): its name is one of its payload's names.
    pub(crate) fn outbox_event<P: EventData>(
        &self,
        environment: Environment,
        tenant_id: Option<&str>,
        name: &'static str,
        now: i64,
        data: &P,
    ) -> Stmt {
        debug_assert!(P::names().contains(&name), "{} is not the data of {name}", P::name());
        let event_id = self.new_id("evt");
        let envelope = Envelope { event: name, event_id: &event_id, timestamp: crate::time::format(now), data };
        // a payload is plain fields: serialising it cannot fail
        let envelope = serde_json::to_string(&envelope).unwrap_or_default();
        let traceparent = self.trace_context.as_ref().and_then(|t| t.traceparent()).filter(|t| super::valid_traceparent(t));
        super::store::insert_event(&event_id, environment, tenant_id, name, envelope, now, traceparent.as_deref())
    }
}

/// One payload type: its kinds, its schema's name and its named schemas.
struct Payload {
    names: Vec<&'static str>,
    name: String,
    schemas: Vec<(String, RefOr<Schema>)>,
}

fn payload<P: EventData>() -> Payload {
    let mut schemas = vec![(P::name().into_owned(), P::schema())];
    P::schemas(&mut schemas);
    Payload { names: P::names(), name: P::name().into_owned(), schemas }
}

/// Every payload type: the one list the `webhooks` section is made from.
fn payloads() -> Vec<Payload> {
    vec![
        payload::<SanctionsHitData>(),
        payload::<DueDiligenceData>(),
        payload::<SanctionsClearedData>(),
        payload::<SanctionsConfirmedData>(),
        payload::<AccountFrozenData>(),
        payload::<KycCheckData>(),
        payload::<KycApprovedData>(),
        payload::<KycTierUpgradedData>(),
        payload::<KycRejectedData>(),
        payload::<KycExpiredData>(),
        payload::<ExclusionData>(),
        payload::<ExclusionExpiredData>(),
        payload::<LimitChangedData>(),
        payload::<LimitActivatedData>(),
        payload::<LimitCancelledData>(),
        payload::<LimitBreachData>(),
        payload::<AmlAlertData>(),
        payload::<ErasureCompletedData>(),
    ]
}

/// The schema name of a kind's envelope, such as `LimitBreachAttemptEvent`.
fn envelope_name(kind: &str) -> String {
    kind.split(['.', '_'])
        .map(|w| {
            let mut c = w.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect::<String>()).unwrap_or_default()
        })
        .collect::<String>()
        + "Event"
}

/// The document's `webhooks` section and the schemas it names: for each
/// kind, a POST whose body is the kind's envelope.
pub(crate) fn document() -> Result<(Json, Vec<(String, Json)>), String> {
    let payloads = payloads();
    let mut webhooks = Map::new();
    let mut schemas = Vec::new();
    for p in &payloads {
        for (name, schema) in &p.schemas {
            schemas.push((name.clone(), serde_json::to_value(schema).map_err(|e| e.to_string())?));
        }
    }
    // every kind the rules name, then those only a payload names
    let mut kinds: Vec<&'static str> = EventKind::ALL.iter().map(|k| k.as_str()).collect();
    for extra in payloads.iter().flat_map(|p| p.names.iter()) {
        if !kinds.contains(extra) {
            kinds.push(extra);
        }
    }
    for kind in &kinds {
        let owners: Vec<&Payload> = payloads.iter().filter(|p| p.names.contains(kind)).collect();
        let [owner] = owners.as_slice() else {
            return Err(format!("event {kind} has {} payload types; it needs exactly one", owners.len()));
        };
        let name = envelope_name(kind);
        schemas.push((
            name.clone(),
            json!({
                "type": "object",
                "description": format!("the body of a `{}` delivery", kind),
                "required": ["event", "event_id", "timestamp", "data"],
                "additionalProperties": false,
                "properties": {
                    "event": { "type": "string", "const": kind },
                    "event_id": { "type": "string", "description": "the event's id, also its `webhook-id` header: the same on every retry" },
                    "timestamp": { "$ref": "#/components/schemas/Timestamp" },
                    "data": { "$ref": format!("#/components/schemas/{}", owner.name) },
                },
            }),
        ));
        webhooks.insert(
            kind.to_string(),
            json!({ "post": {
                "operationId": format!("on{}", name.trim_end_matches("Event")),
                "summary": format!("`{}`", kind),
                "description": "Sent signed in the Standard Webhooks scheme (`webhook-id`, `webhook-timestamp`, `webhook-signature`, `whsec_` secrets) to every endpoint that should hear it, at least once, retried for about three days; answer 2xx to acknowledge.",
                "tags": ["webhooks"],
                "requestBody": { "required": true, "content": { "application/json": { "schema": { "$ref": format!("#/components/schemas/{name}") } } } },
                "responses": { "200": { "description": "any 2xx acknowledges the delivery" } },
            } }),
        );
    }
    Ok((Json::Object(webhooks), schemas))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_exactly_one_payload_and_an_envelope() {
        let (webhooks, schemas) = document().expect("documents every kind");
        for kind in EventKind::ALL {
            assert!(webhooks.get(kind.as_str()).is_some(), "{} undocumented", kind.as_str());
            assert!(schemas.iter().any(|(n, _)| *n == envelope_name(kind.as_str())), "{} has no envelope", kind.as_str());
        }
        assert_eq!(envelope_name(EventKind::LimitBreachAttempt.as_str()), "LimitBreachAttemptEvent");
        // an event the rules do not name is documented from its payload
        assert!(webhooks.get(ERASURE_COMPLETED).is_some());
        assert!(schemas.iter().any(|(n, _)| n == "UserErasureCompletedEvent"));
    }

    #[test]
    fn the_envelope_carries_the_payload_as_its_data() {
        let data = LimitCancelledData {
            limit_id: "lim_1".into(),
            user_id: "u".into(),
            limit_type: "daily".into(),
            amount_cents: 100,
            currency: "USD".into(),
        };
        let envelope =
            Envelope { event: EventKind::LimitCancelled.as_str(), event_id: "evt_1", timestamp: "2026-01-01T00:00:00Z".into(), data: &data };
        let json = serde_json::to_value(&envelope).expect("serialises");
        assert_eq!(json["data"]["limit_id"], "lim_1");
        assert_eq!(json["event"], "limit.cancelled");
        assert_eq!(json.as_object().map(Map::len), Some(4));
    }
}
