//! Third-party vendors behind ports: the core builds and reads their
//! requests, the host sends them ([`crate::ports::VendorHttp`]). The sandbox
//! keeps its deterministic stubs, which live in the rules.

pub mod sumsub;
pub mod yente;

use rules_model::{ListCandidate, ScreenedSource, ScreeningScope};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::lists::Entries;
use crate::Gateway;

/// How long a caller should wait after a vendor failed.
pub const VENDOR_RETRY_AFTER_SECONDS: u64 = 30;

/// 503 `vendor_unavailable` with `Retry-After`; the cause goes to the host's log only.
pub(crate) fn unavailable(what: &str, detail: String) -> ApiError {
    let mut error =
        ApiError::new(503, "vendor_unavailable", format!("the {what} vendor is unavailable; retry after Retry-After seconds")).with_detail(detail);
    error.retry_after_seconds = Some(VENDOR_RETRY_AFTER_SECONDS);
    error
}

impl Gateway {
    /// The candidates a screening scores: the environment's imported lists,
    /// and in production the configured yente API's matches too. A vendor
    /// that fails fails the screening (503): a screening never passes on half
    /// its sources. A re-screen against one import's changes asks the lists only.
    pub(crate) async fn screening_candidates(
        &self,
        environment: Environment,
        person: &yente::Person<'_>,
        entries: Entries<'_>,
        scope: ScreeningScope,
        read_lists: Option<Vec<crate::lists::store::ActiveList>>,
    ) -> ApiResult<(Vec<ListCandidate>, Vec<ScreenedSource>)> {
        let whole_lists = matches!(entries, Entries::All);
        let (mut candidates, mut sources) =
            crate::lists::candidates(self, environment, person.name, person.date_of_birth, entries, scope, read_lists).await?;
        if let (Environment::Production, true, Some(yente)) = (environment, whole_lists, &self.config.production_screening_vendor) {
            let http = self.vendor_http.as_ref().ok_or_else(|| unavailable("screening", "this host has no vendor client".into()))?;
            let response = http.send(yente.match_request(person, scope)).await.map_err(|e| unavailable("screening", format!("yente: {e}")))?;
            candidates.extend(yente.candidates(&response, scope).map_err(|e| unavailable("screening", e))?);
            // yente answers from its index as it is at the call
            sources.push(ScreenedSource { source: yente.source(scope), version: "live".into() });
        }
        Ok((candidates, sources))
    }
}
