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
use crate::Reply;

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
            pub fn stored(body: serde_json::Value) -> Self {
                Self::kept(Reply { status: $status, body, decision_id: None })
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
            pub fn stored_existing(body: serde_json::Value) -> Self {
                Self::kept(Reply { status: 200, body, decision_id: None })
            }
        }
    };
}

or_200!(Created);
or_200!(Accepted);
