//! The endpoints, one file per group, and what they share.

pub(crate) mod cursor;
pub(crate) mod sandbox;

/// A review list's default page and its largest.
const REVIEW_PAGE: i64 = 100;
const MAX_REVIEW_PAGE: i64 = 500;

/// The `limit` of a review list: 1 to 500, 100 when absent.
pub(crate) type ReviewLimit = Limit<MAX_REVIEW_PAGE>;

/// The `min_age_seconds` of a review list: a whole number of seconds, 0 or
/// more (400 `invalid_field`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WaitSeconds(pub i64);

impl<'de> serde::Deserialize<'de> for WaitSeconds {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::input::parse_text(deserializer, crate::input::INVALID_FIELD, |text| {
            text.parse::<i64>()
                .ok()
                .filter(|n| (0..=crate::ports::MAX_STORED_INTEGER).contains(n))
                .map(WaitSeconds)
                .ok_or_else(|| "must be a whole number of seconds, 0 or more".to_string())
        })
    }
}

/// Which page of a review list is asked for; `K` is the list's sort key.
pub(crate) struct ReviewPage<K> {
    pub limit: i64,
    /// the sort key of the last item of the page before
    pub after: Option<K>,
    pub min_age_seconds: i64,
}

impl<K> ReviewPage<K> {
    /// How many rows to read: one past the page says whether there is more.
    pub(crate) fn read_limit(&self) -> i64 {
        self.limit + 1
    }

    /// Cuts rows read with [`ReviewPage::read_limit`] to the page: whether
    /// there is more, and the cursor after the last row kept (the last row
    /// read, so that a row a filter after the read leaves out is not read again).
    pub(crate) fn cut<T, S: serde::Serialize>(&self, rows: &mut Vec<T>, sort_key: impl Fn(&T) -> S) -> (bool, Option<String>) {
        let has_more = rows.len() as i64 > self.limit;
        rows.truncate(usize::try_from(self.limit).unwrap_or(0));
        (has_more, rows.last().filter(|_| has_more).map(|row| cursor::encode(&sort_key(row))))
    }
}

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::input::{Cursor, Limit};
use crate::openapi::answer::Answer;
use crate::openapi::shared::JurisdictionProfile;
use crate::openapi::OperationDoc;
use crate::ports::{Stmt, StoreError};
use crate::users::User;
use crate::{Ctx, Gateway};

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum HealthStatus {
    Ok,
}

#[derive(Serialize, ToSchema)]
pub(crate) struct Health {
    #[schema(inline)]
    status: HealthStatus,
}

/// The public connectivity check.
pub(crate) async fn health(_gw: &Gateway, _request: &http::Request<Vec<u8>>) -> ApiResult<Answer<Health>> {
    Answer::new(&Health { status: HealthStatus::Ok })
}

pub(crate) fn health_doc() -> OperationDoc {
    OperationDoc::new("service", "connectivity check")
}

/// Which rules decide.
#[derive(Serialize, ToSchema)]
pub(crate) struct RulesIdentity {
    version: String,
    #[schema(pattern = "^[0-9a-f]{64}$")]
    component_sha256: String,
    wit_package: &'static str,
    /// every jurisdiction profile the component holds, with its parameters
    #[schema(value_type = Vec<JurisdictionProfile>)]
    jurisdictions: Vec<rules_model::JurisdictionProfile>,
}

/// The rules component this host decides with.
pub(crate) async fn rules_identity(gw: &Gateway, _ctx: &Ctx<'_>, (): ()) -> ApiResult<crate::openapi::answer::Answer<RulesIdentity>> {
    let id = gw.rules.identity();
    let body = RulesIdentity {
        version: id.version,
        component_sha256: id.component_sha256,
        wit_package: rules_model::WIT_PACKAGE,
        jurisdictions: gw.rules.jurisdictions(),
    };
    crate::openapi::answer::Answer::new(&body)
}

pub(crate) fn rules_identity_doc() -> OperationDoc {
    OperationDoc::new("service", "the rules component that decides")
        .describe("Auditors compare `component_sha256` with the SHA-256 of the published rules component.")
}

impl Gateway {
    pub(crate) async fn find_user(&self, tenant_id: &str, external_user_id: &str) -> ApiResult<Option<User>> {
        crate::users::store::find(self.store.as_ref(), tenant_id, external_user_id).await
    }

    pub(crate) async fn require_user(&self, ctx: &Ctx<'_>, external_user_id: &str) -> ApiResult<User> {
        self.find_user(&ctx.caller.tenant_id, external_user_id).await?.ok_or_else(ApiError::user_not_found)
    }

    /// A tenant's now: real time, shifted by a sandbox tenant's test clock.
    pub(crate) async fn tenant_now_of(&self, tenant_id: &str, environment: crate::auth::Environment) -> ApiResult<i64> {
        let offset = match environment {
            crate::auth::Environment::Sandbox => {
                crate::tenants::store::operator_clock_offset(self.store.as_ref(), tenant_id, environment).await?.unwrap_or(0)
            }
            crate::auth::Environment::Production => 0,
        };
        Ok(self.clock.now().saturating_add(offset))
    }

    /// Claims the user's row for this write: the batch commits only if no
    /// other write to the user committed since it was read.
    pub(crate) fn claim_user(&self, ctx: &Ctx<'_>, user: &User) -> Stmt {
        crate::users::store::claim(&ctx.caller.tenant_id, &user.external_user_id, user.version, ctx.now)
    }

    /// The page of a review list (cases, checks): its `limit` (default 100,
    /// at most 500), `cursor`, and `min_age_seconds` (only items waiting at least that long).
    pub(crate) fn review_page<K>(&self, limit: Option<ReviewLimit>, cursor: Option<Cursor<K>>, min_age: Option<WaitSeconds>) -> ReviewPage<K> {
        ReviewPage { limit: Limit::or(limit, REVIEW_PAGE), after: Cursor::after(cursor), min_age_seconds: min_age.map_or(0, |s| s.0) }
    }

    /// What a review list needs: whether only overdue items (`overdue=true`), the review target and the service's now.
    pub(crate) fn review_filter(&self, overdue: Option<bool>) -> (bool, i64, i64) {
        (overdue.unwrap_or(false), self.rules.horizons().review_target_seconds, self.clock.now())
    }

    /// Commits a batch; [`Commit::Lost`] when it lost a race and should be recomputed.
    pub(crate) async fn commit(&self, statements: Vec<Stmt>) -> ApiResult<Commit> {
        let has_events = statements.iter().any(crate::webhooks::store::writes_event);
        match self.store.batch(statements).await {
            Ok(()) => {
                if has_events {
                    self.wake_delivery();
                }
                Ok(Commit::Done)
            }
            Err(StoreError::Conflict { .. } | StoreError::Unique) => Ok(Commit::Lost),
            Err(e @ (StoreError::Backend(_) | StoreError::Unavailable(_))) => Err(e.into()),
        }
    }
}

/// What a commit came to: done, or lost to a concurrent write (nothing of
/// the batch was written). It must be used: a lost batch is recomputed
/// (`until_committed!`) or answered for; ignoring it is a warning, and an
/// error under `-D warnings` (a refusal once named a decision whose batch had lost).
#[must_use = "a batch that lost a race wrote nothing: recompute it, or say why nothing is lost"]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Commit {
    Done,
    Lost,
}

impl Commit {
    /// Whether the batch was written.
    pub(crate) fn done(self) -> bool {
        self == Commit::Done
    }

    /// `Some(value)` when the batch was written, `None` when it lost: one attempt's answer in `until_committed!`.
    pub(crate) fn then_some<T>(self, value: T) -> Option<T> {
        self.done().then_some(value)
    }
}

pub(crate) fn busy() -> ApiError {
    ApiError::conflict("concurrent_update", "the resource changed concurrently too many times; retry the request")
}

/// Parses a stored JSON response.
pub(crate) fn stored_json(text: &str) -> ApiResult<serde_json::Value> {
    serde_json::from_str(text).map_err(|_| ApiError::internal())
}

/// A stored answer's text, answered again as it is (checked to be JSON, not parsed into a value).
pub(crate) fn stored_answer(text: &str) -> ApiResult<crate::JsonText> {
    serde_json::value::RawValue::from_string(text.to_owned()).map_err(|_| ApiError::internal())
}
