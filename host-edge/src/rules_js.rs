//! Runs the rules component at the edge. Workers may not compile wasm at run
//! time, so `jco transpile --instantiation sync` turns the component into a
//! core module and JS glue; `entry.mjs` instantiates it and exposes one
//! function, `cgwRulesCall(name, json)`. The values cross as JSON in jco's
//! shapes (camelCase fields, kebab-case cases, variants as `{tag, val}`),
//! converted here from the same type list as every other binding
//! ([`rules_model::for_each_wit_type!`]).

use std::cell::OnceCell;

use gateway::ports::{Rules, RulesFault, RulesResult, RulesVersion};
use rules_model::{
    AccessRequestFacts, AccessRequestPlan, CutoffFacts, ErasureFacts, ErasurePlan, FilingCodes, FilingFacts, NameLegibility, RetentionCutoffs,
};
use rules_model::{
    AmlDecision, AmlFacts, AmlReviewDecision, AmlReviewFacts, CaseReviewDecision, CaseReviewFacts, DepositDecision, DepositFacts, DueFacts, DueWork,
    ExclusionDecision, ExclusionFacts, ExclusionStatus, ExclusionStatusFacts, Horizons, JurisdictionProfile, KycDecision, KycFacts,
    LimitCancelDecision, LimitCancelFacts, LimitChangeDecision, LimitChangeFacts, LimitView, LimitsFacts, ListCandidate, NameQuery, OfacScored,
    PlayerNotice, RegulatorImportFacts, RegulatorOutcome, ReviewItem, ReviewState, RuleError, SanctionsStatus, SanctionsView, ScoredCandidate,
    ScreeningDecision, ScreeningFacts, TierBounds, TierFacts, WithdrawalDecision, WithdrawalFacts,
};
use rules_model::{NationalIdKind, RegisterCheckDecision, RegisterCheckFacts};
use serde_json::{json, Map, Value as Json};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// Calls export `name` of the component with the JSON array `args`;
    /// answers `{"ok": …}` or `{"err": …}` (a WIT `result` error), and
    /// throws on a trap.
    #[wasm_bindgen(catch, js_name = cgwRulesCall)]
    fn rules_call(name: &str, args: &str) -> Result<String, JsValue>;
}

/// The SHA-256 of `rules/cgw_rules.wasm`, the file `scripts/edge.sh` transpiles.
pub const COMPONENT_SHA256: &str = env!("CGW_RULES_SHA256");

/// A value in jco's JS shape, as JSON.
pub trait ToJco {
    fn to_jco(&self) -> Json;
}

pub trait FromJco: Sized {
    fn from_jco(value: &Json) -> Result<Self, String>;
}

/// `LimitBreachAttempt` → `limit-breach-attempt`.
pub fn kebab(pascal: &str) -> String {
    let mut out = String::with_capacity(pascal.len() + 4);
    for (i, c) in pascal.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `amount_cents` → `amountCents`.
pub fn camel(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper = false;
    for c in snake.chars() {
        match (c, upper) {
            ('_', _) => upper = true,
            (c, true) => {
                out.push(c.to_ascii_uppercase());
                upper = false;
            }
            (c, false) => out.push(c),
        }
    }
    out
}

impl ToJco for i64 {
    fn to_jco(&self) -> Json {
        json!(self)
    }
}
impl FromJco for i64 {
    fn from_jco(value: &Json) -> Result<Self, String> {
        value.as_i64().or_else(|| value.as_f64().filter(|f| f.fract() == 0.0).map(|f| f as i64)).ok_or_else(|| format!("not an s64: {value}"))
    }
}
// Marked, because `entry.mjs` turns every other integer into a BigInt (s64).
impl ToJco for u32 {
    fn to_jco(&self) -> Json {
        json!({ "$u32": self })
    }
}
impl FromJco for u32 {
    fn from_jco(value: &Json) -> Result<Self, String> {
        i64::from_jco(value).and_then(|v| u32::try_from(v).map_err(|_| format!("not a u32: {value}")))
    }
}
// A u8 is a JS number too: marked as `entry.mjs` reads a u32.
impl ToJco for u8 {
    fn to_jco(&self) -> Json {
        json!({ "$u32": self })
    }
}
impl FromJco for u8 {
    fn from_jco(value: &Json) -> Result<Self, String> {
        i64::from_jco(value).and_then(|v| u8::try_from(v).map_err(|_| format!("not a u8: {value}")))
    }
}
impl ToJco for f64 {
    fn to_jco(&self) -> Json {
        json!({ "$f64": self })
    }
}
impl FromJco for f64 {
    fn from_jco(value: &Json) -> Result<Self, String> {
        value.as_f64().ok_or_else(|| format!("not an f64: {value}"))
    }
}
impl ToJco for bool {
    fn to_jco(&self) -> Json {
        json!(self)
    }
}
impl FromJco for bool {
    fn from_jco(value: &Json) -> Result<Self, String> {
        value.as_bool().ok_or_else(|| format!("not a bool: {value}"))
    }
}
impl ToJco for String {
    fn to_jco(&self) -> Json {
        json!(self)
    }
}
impl FromJco for String {
    fn from_jco(value: &Json) -> Result<Self, String> {
        value.as_str().map(str::to_string).ok_or_else(|| format!("not a string: {value}"))
    }
}
impl<T: ToJco> ToJco for Vec<T> {
    fn to_jco(&self) -> Json {
        Json::Array(self.iter().map(ToJco::to_jco).collect())
    }
}
impl<T: FromJco> FromJco for Vec<T> {
    fn from_jco(value: &Json) -> Result<Self, String> {
        value.as_array().ok_or_else(|| format!("not a list: {value}"))?.iter().map(T::from_jco).collect()
    }
}
impl<T: ToJco> ToJco for Option<T> {
    fn to_jco(&self) -> Json {
        self.as_ref().map_or(Json::Null, ToJco::to_jco)
    }
}
impl<T: FromJco> FromJco for Option<T> {
    fn from_jco(value: &Json) -> Result<Self, String> {
        match value {
            Json::Null => Ok(None),
            other => T::from_jco(other).map(Some),
        }
    }
}

/// A field of a record; jco leaves an absent `option` out.
fn field<'a>(value: &'a Json, name: &str) -> &'a Json {
    value.get(camel(name)).unwrap_or(&Json::Null)
}

fn tag(value: &Json) -> Result<&str, String> {
    value.get("tag").and_then(Json::as_str).ok_or_else(|| format!("not a variant: {value}"))
}

macro_rules! jco_enum {
    ($name:ident { $($v:ident),+ }) => {
        impl ToJco for rules_model::$name {
            fn to_jco(&self) -> Json {
                match self { $(rules_model::$name::$v => Json::String(kebab(stringify!($v)))),+ }
            }
        }
        impl FromJco for rules_model::$name {
            fn from_jco(value: &Json) -> Result<Self, String> {
                let text = value.as_str().ok_or_else(|| format!("not an enum case: {value}"))?;
                $(if text == kebab(stringify!($v)) { return Ok(rules_model::$name::$v); })+
                Err(format!("unknown {} case {text}", stringify!($name)))
            }
        }
    };
}

macro_rules! jco_record {
    ($name:ident { $($f:ident),+ }) => {
        impl ToJco for rules_model::$name {
            fn to_jco(&self) -> Json {
                let mut object = Map::new();
                $(object.insert(camel(stringify!($f)), self.$f.to_jco());)+
                Json::Object(object)
            }
        }
        impl FromJco for rules_model::$name {
            fn from_jco(value: &Json) -> Result<Self, String> {
                Ok(rules_model::$name { $($f: FromJco::from_jco(field(value, stringify!($f)))?),+ })
            }
        }
    };
}

macro_rules! jco_variant {
    ($name:ident { unit: [$($u:ident),*], with: [$($w:ident),*] }) => {
        impl ToJco for rules_model::$name {
            fn to_jco(&self) -> Json {
                match self {
                    $(rules_model::$name::$u => json!({ "tag": kebab(stringify!($u)) }),)*
                    $(rules_model::$name::$w(x) => json!({ "tag": kebab(stringify!($w)), "val": x.to_jco() }),)*
                }
            }
        }
        impl FromJco for rules_model::$name {
            fn from_jco(value: &Json) -> Result<Self, String> {
                let tag = tag(value)?;
                let val = value.get("val").unwrap_or(&Json::Null);
                $(if tag == kebab(stringify!($u)) { return Ok(rules_model::$name::$u); })*
                $(if tag == kebab(stringify!($w)) { return Ok(rules_model::$name::$w(FromJco::from_jco(val)?)); })*
                let _ = val;
                Err(format!("unknown {} case {tag}", stringify!($name)))
            }
        }
    };
}

rules_model::for_each_wit_type!(jco_enum, jco_record, jco_variant);

/// The rules component, called through jco's JS bindings.
pub struct JsRules;

/// What the component answered to a call whose result is `Self`: a plain
/// value, or a WIT `result` whose error is the rules refusing the facts.
trait FromAnswer: Sized {
    fn from_answer(name: &str, answer: Answer) -> RulesResult<Self>;
}

impl<T: FromJco> FromAnswer for T {
    fn from_answer(name: &str, answer: Answer) -> RulesResult<Self> {
        match answer {
            Answer::Ok(value) => T::from_jco(&value).map_err(|e| RulesFault::Engine(format!("{name}: {e}"))),
            Answer::Err(err) => Err(RulesFault::Engine(format!("{name}: unexpected error {err}"))),
        }
    }
}

impl<T: FromJco> FromAnswer for Result<T, RuleError> {
    fn from_answer(name: &str, answer: Answer) -> RulesResult<Self> {
        let fault = |e: String| RulesFault::Engine(format!("{name}: {e}"));
        match answer {
            Answer::Ok(value) => T::from_jco(&value).map(Ok).map_err(fault),
            Answer::Err(err) => RuleError::from_jco(&err).map(Err).map_err(fault),
        }
    }
}

impl<T: ToJco> ToJco for [T] {
    fn to_jco(&self) -> Json {
        Json::Array(self.iter().map(ToJco::to_jco).collect())
    }
}
impl ToJco for str {
    fn to_jco(&self) -> Json {
        json!(self)
    }
}

/// What a call answered: the value, or the WIT `result`'s error.
enum Answer {
    Ok(Json),
    Err(Json),
}

/// Calls the export whose snake name is `name` (jco names it in camel case).
fn call(name: &str, args: Json) -> RulesResult<Answer> {
    let export = camel(name);
    let text = rules_call(&export, &args.to_string()).map_err(|e| RulesFault::Engine(format!("{export}: {}", js_message(&e))))?;
    let mut answer: Json = serde_json::from_str(&text).map_err(|e| RulesFault::Engine(format!("{export}: {e}")))?;
    match (answer.get_mut("ok").map(Json::take), answer.get_mut("err").map(Json::take)) {
        (Some(ok), _) => Ok(Answer::Ok(ok)),
        (None, Some(err)) => Ok(Answer::Err(err)),
        (None, None) => Err(RulesFault::Engine(format!("{export}: no answer"))),
    }
}

fn ask<T: FromAnswer>(name: &str, args: Json) -> RulesResult<T> {
    T::from_answer(name, call(name, args)?)
}

pub(crate) fn js_message(error: &JsValue) -> String {
    error.as_string().or_else(|| error.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message()))).unwrap_or_else(|| format!("{error:?}"))
}

/// The calls of [`Rules`] and the answers asked once per isolate, from the
/// one list of the interface's functions.
macro_rules! js_calls {
    ([] calls { $( $(#[$doc:meta])* [$($op:ident)?] $name:ident ( $($arg:ident : $mode:ident $t:ty),* ) -> $ret:ty = $lib:ident; )* }
        loaded { $( $lname:ident () -> $lret:ty = $llib:ident; )* }) => {
        /// The answers asked once when the rules load.
        struct Loaded {
            $( $lname: $lret, )*
        }

        fn ask_loaded() -> RulesResult<Loaded> {
            Ok(Loaded { $( $lname: ask(stringify!($lname), json!([]))?, )* })
        }

        thread_local! {
            /// Asked once per isolate; the error stays too, and then every decision fails anyway.
            static LOADED: OnceCell<Result<Loaded, String>> = const { OnceCell::new() };
        }

        fn loaded<T>(f: impl FnOnce(&Result<Loaded, String>) -> T) -> T {
            LOADED.with(|l| f(l.get_or_init(|| ask_loaded().map_err(|e| e.to_string()))))
        }

        impl Rules for JsRules {
            fn identity(&self) -> RulesVersion {
                let version = loaded(|l| match l {
                    Ok(l) => l.version.clone(),
                    Err(e) => format!("unavailable: {e}"),
                });
                RulesVersion { version, component_sha256: COMPONENT_SHA256.to_string() }
            }
            fn horizons(&self) -> Horizons {
                // If the component cannot answer, spans under which nothing expires or is pruned stand in.
                loaded(|l| l.as_ref().map_or(Horizons::UNANSWERED, |l| l.time_horizons))
            }
            fn jurisdictions(&self) -> Vec<JurisdictionProfile> {
                // None stands in if the component cannot answer: tenants then cannot name a profile.
                loaded(|l| l.as_ref().map(|l| l.jurisdictions.clone()).unwrap_or_default())
            }
            $(
                fn $name(&self, $($arg: gateway::__rules_param!($mode $t)),*) -> RulesResult<$ret> {
                    ask(stringify!($name), json!([$($arg.to_jco()),*]))
                }
            )*
        }
    };
}

rules_model::for_each_wit_function!(js_calls);
