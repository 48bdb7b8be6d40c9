//! The operational gauges' reads: each review queue's size and oldest item,
//! and the webhook backlog, for every environment at once.

use rules_model::{CaseKind, CaseStatus, KycStatus};

use crate::aml::store::AmlCaseStatus;
use crate::auth::Environment;
use crate::error::ApiResult;
use crate::ports::{Read, Row, Store};
use crate::webhooks::store::DeliveryStatus;

/// One queue of one environment: its open items, how many are past their
/// due time (AML cases carry one), and when its oldest began to wait.
pub struct QueueFigures {
    pub environment: Environment,
    pub open: i64,
    pub past_due: Option<i64>,
    pub oldest_since: Option<i64>,
}

/// The review queues (sanctions hits, due diligence, KYC reviews, AML cases)
/// and the webhook backlog (pending deliveries, the earliest due time).
pub struct Figures {
    pub queues: Vec<(&'static str, QueueFigures)>,
    pub pending_deliveries: i64,
    pub earliest_due_delivery: Option<i64>,
}

pub async fn figures(store: &dyn Store, now: i64) -> ApiResult<Figures> {
    let open_case = |kind: CaseKind| {
        Read::new(
            "SELECT environment, CAST(COUNT(*) AS BIGINT), MIN(created_at) FROM sanctions_cases WHERE status = ?1 AND kind = ?2 GROUP BY environment",
            vec![CaseStatus::Open.as_str().into(), kind.as_str().into()],
        )
    };
    let reads = vec![
        open_case(CaseKind::SanctionsHit),
        open_case(CaseKind::EnhancedDueDiligence),
        Read::new(
            "SELECT environment, CAST(COUNT(*) AS BIGINT), MIN(updated_at) FROM kyc_checks WHERE status = ?1 GROUP BY environment",
            vec![KycStatus::PendingReview.as_str().into()],
        ),
        Read::new(
            "SELECT environment, CAST(COUNT(*) AS BIGINT), MIN(opened_at), CAST(COALESCE(SUM(CASE WHEN due_at < ?2 THEN 1 ELSE 0 END), 0) AS BIGINT)
             FROM aml_cases WHERE status <> ?1 GROUP BY environment",
            vec![AmlCaseStatus::Closed.as_str().into(), now.into()],
        ),
        Read::new(
            "SELECT CAST(COUNT(*) AS BIGINT), MIN(next_attempt_at) FROM webhook_deliveries WHERE status = ?1",
            vec![DeliveryStatus::Pending.as_str().into()],
        ),
        // players' access requests awaiting release, and those past their due time on their tenant's clock
        Read::new(
            "SELECT a.environment, CAST(COUNT(*) AS BIGINT), MIN(a.received_at),
                    CAST(COALESCE(SUM(CASE WHEN a.due_at < ?2 + t.clock_offset_seconds THEN 1 ELSE 0 END), 0) AS BIGINT)
             FROM access_requests a JOIN tenants t ON t.tenant_id = a.tenant_id WHERE a.state = ?1 GROUP BY a.environment",
            vec![crate::access::AccessState::Preparing.as_str().into(), now.into()],
        ),
    ];
    let results = store.query_many(reads).await?;
    let rows = |i: usize| -> &[Row] { results.get(i).map(Vec::as_slice).unwrap_or_default() };
    let mut queues = Vec::new();
    for (i, name) in [(0, "sanctions"), (1, "due_diligence"), (2, "kyc_review"), (3, "aml"), (5, "access_request")] {
        for row in rows(i) {
            let Some(environment) = Environment::parse(&row.text(0)?) else { continue };
            let past_due = if matches!(name, "aml" | "access_request") { Some(row.int(3)?) } else { None };
            queues.push((name, QueueFigures { environment, open: row.int(1)?, past_due, oldest_since: row.opt_int(2)? }));
        }
    }
    let backlog = rows(4).first();
    Ok(Figures {
        queues,
        pending_deliveries: backlog.map(|r| r.int(0)).transpose()?.unwrap_or(0),
        earliest_due_delivery: backlog.map(|r| r.opt_int(1)).transpose()?.flatten(),
    })
}
