//! A handler's typed reply: the success status and body type it answers,
//! from which the route table documents its responses
//! ([`crate::router::document`]). [`Answer`] is 200, [`Created`] 201 and
//! [`Accepted`] 202; the last two also answer 200 for an existing or repeated
//! request ([`OperationDoc::or_200`] describes it).

use std::marker::PhantomData;

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::ApiResult;
use crate::openapi::OperationDoc;
use crate::{JsonText, Reply};

/// A body kept as JSON: the text read back from the store, or a value built
/// to be stored with what it answers.
pub trait IntoJsonText {
    fn into_json_text(self) -> JsonText;
}

impl IntoJsonText for JsonText {
    fn into_json_text(self) -> JsonText {
        self
    }
}

impl IntoJsonText for serde_json::Value {
    fn into_json_text(self) -> JsonText {
        // a `Value` always serialises (its keys are strings, its numbers finite)
        serde_json::value::to_raw_value(&self).unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned())
    }
}

/// What a handler answers: its reply, and the responses it documents.
pub trait IntoReply {
    fn into_reply(self) -> Reply;
    /// `doc` with the success responses of this reply type.
    fn document(doc: OperationDoc) -> OperationDoc;
}

macro_rules! typed_answer {
    ($(#[$meta:meta])* $name:ident, $status:literal, $with_200:literal) => {
        $(#[$meta])*
        #[must_use]
        pub struct $name<T> {
            reply: Reply,
            of: PhantomData<fn() -> T>,
        }

        impl<T: Serialize + ToSchema> $name<T> {
            /// The answer with `body`.
            pub fn new(body: &T) -> ApiResult<Self> {
                Reply::typed($status, body).map(Self::kept)
            }
        }

        impl<T> $name<T> {
            /// An answer made before from a `T` (an idempotent replay, a
            /// stored answer), answered again as it was.
            pub fn kept(reply: Reply) -> Self {
                $name { reply, of: PhantomData }
            }

            /// The answer with a body made from a `T` and kept as JSON (stored
            /// with what it answers, and answered again from the store).
            pub fn stored(body: impl IntoJsonText) -> Self {
                Self::kept(Reply { status: $status, body: body.into_json_text(), decision_id: None })
            }

            /// The answer, with the rules decision behind it (`x-decision-id`).
            pub fn decided(mut self, decision_id: &str) -> Self {
                self.reply.decision_id = Some(decision_id.to_string());
                self
            }

            pub fn reply(&self) -> &Reply {
                &self.reply
            }
        }

        impl<T: ToSchema> IntoReply for $name<T> {
            fn into_reply(self) -> Reply {
                self.reply
            }

            fn document(doc: OperationDoc) -> OperationDoc {
                let success = doc.success.clone().unwrap_or_else(|| "success".into());
                let also_200 = doc.also_200.clone().filter(|_| $with_200);
                let doc = doc.responds::<T>($status, &success);
                match also_200 {
                    Some(description) => doc.responds::<T>(200, &description),
                    None => doc,
                }
            }
        }
    };
}

typed_answer!(
    /// 200 with a `T`.
    Answer, 200, false
);

typed_answer!(
    /// 201 with the `T` made; 200 ([`Created::existing`]) with one that existed.
    Created, 201, true
);

typed_answer!(
    /// 202 with a `T` accepted; 200 ([`Accepted::existing`]) for a repeat.
    Accepted, 202, true
);

/// A probe's answer: 200 with a `T` when it passes, 503 with the same `T`
/// when it does not.
#[must_use]
pub struct Probe<T> {
    reply: Reply,
    of: PhantomData<fn() -> T>,
}

impl<T: Serialize + ToSchema> Probe<T> {
    pub fn new(passed: bool, body: &T) -> ApiResult<Self> {
        Reply::typed(if passed { 200 } else { 503 }, body).map(|reply| Probe { reply, of: PhantomData })
    }
}

impl<T: ToSchema> IntoReply for Probe<T> {
    fn into_reply(self) -> Reply {
        self.reply
    }

    fn document(doc: OperationDoc) -> OperationDoc {
        let success = doc.success.clone().unwrap_or_else(|| "success".into());
        let failed = doc.unready.clone().unwrap_or_else(|| "failed".into());
        doc.responds::<T>(200, &success).responds::<T>(503, &failed)
    }
}

macro_rules! or_200 {
    ($name:ident) => {
        impl<T: Serialize + ToSchema> $name<T> {
            /// 200 with a `T` of an existing or repeated request.
            pub fn existing(body: &T) -> ApiResult<Self> {
                Reply::typed(200, body).map(Self::kept)
            }
        }

        impl<T> $name<T> {
            /// 200 with a `T` of an existing or repeated request, kept as JSON.
            pub fn stored_existing(body: impl IntoJsonText) -> Self {
                Self::kept(Reply { status: 200, body: body.into_json_text(), decision_id: None })
            }
        }
    };
}

or_200!(Created);
or_200!(Accepted);

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;

    #[derive(Serialize, ToSchema)]
    struct Thing {
        id: String,
    }

    fn thing() -> Thing {
        Thing { id: "t_1".into() }
    }

    /// Each reply type answers its status; a repeat or an existing one 200; the decision id rides along.
    #[test]
    fn each_reply_answers_its_status() {
        let answer = Answer::new(&thing()).unwrap().decided("dec_1").into_reply();
        assert_eq!((answer.status, answer.body.get(), answer.decision_id.as_deref()), (200, r#"{"id":"t_1"}"#, Some("dec_1")));
        assert_eq!(Created::new(&thing()).unwrap().into_reply().status, 201);
        assert_eq!(Created::existing(&thing()).unwrap().into_reply().status, 200);
        assert_eq!(Accepted::new(&thing()).unwrap().into_reply().status, 202);
        assert_eq!(Accepted::<Thing>::stored_existing(serde_json::json!({"id": "t_2"})).into_reply().status, 200);
        let stored = Created::<Thing>::stored(serde_json::json!({"id": "t_3"})).into_reply();
        assert_eq!((stored.status, stored.decision_id), (201, None));
    }

    /// A probe answers 200 when it passes and 503 with the same body when it fails, and documents both.
    #[test]
    fn a_probe_answers_503_when_it_fails() {
        let passed = Probe::new(true, &thing()).unwrap().into_reply();
        let failed = Probe::new(false, &thing()).unwrap().into_reply();
        assert_eq!((passed.status, failed.status), (200, 503));
        assert_eq!(failed.body.get(), passed.body.get());
        let doc = Probe::<Thing>::document(OperationDoc::new("service", "x").answers("ready").or_503("not ready"));
        let statuses: Vec<(u16, &str)> = doc.responses.iter().map(|(s, r)| (*s, r["description"].as_str().unwrap())).collect();
        assert_eq!(statuses, vec![(200, "ready"), (503, "not ready")]);
    }

    /// A 201 documents its 200 when the operation says what it means; a 200 answer has no second response (the twin).
    #[test]
    fn the_reply_type_documents_its_responses() {
        let doc = || OperationDoc::new("limits", "x").answers("made").or_200("made before");
        let created = Created::<Thing>::document(doc());
        let statuses: Vec<(u16, &str)> = created.responses.iter().map(|(s, r)| (*s, r["description"].as_str().unwrap())).collect();
        assert_eq!(statuses, [(201, "made"), (200, "made before")]);
        assert_eq!(created.responses[0].1["content"]["application/json"]["schema"], created.responses[1].1["content"]["application/json"]["schema"]);
        let answer = Answer::<Thing>::document(doc());
        assert_eq!(answer.responses.iter().map(|(s, _)| *s).collect::<Vec<_>>(), [200]);
        let plain = Accepted::<Thing>::document(OperationDoc::new("limits", "x"));
        assert_eq!(plain.responses.iter().map(|(s, r)| (*s, r["description"].clone())).collect::<Vec<_>>(), [(202, "success".into())]);
    }
}
