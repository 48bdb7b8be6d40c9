//! The AML area's persistence: reported events and their review status.

use crate::auth::Environment;
use crate::ports::{Stmt, Store, StoreError};

/// Where an event stands with the compliance team.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewStatus {
    /// stored, not yet examined
    Queued,
}

impl ReviewStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewStatus::Queued => "queued",
        }
    }
}

/// An event as reported before: what identifies it and the answer it got.
pub struct Reported {
    pub fingerprint: String,
    pub response: String,
}

/// An event as the admin list shows it.
pub struct EventRow {
    pub aml_event_id: String,
    pub tenant_id: String,
    pub payload: String,
    pub review_status: String,
    pub received_at: i64,
}

/// A new event, as the batch that stores it writes it.
pub struct NewEvent<'a> {
    pub tenant_id: &'a str,
    pub transaction_id: &'a str,
    pub aml_event_id: &'a str,
    pub user_id: &'a str,
    pub fingerprint: &'a str,
    pub payload: String,
    pub response: String,
    pub received_at: i64,
}

pub async fn reported(store: &dyn Store, tenant_id: &str, transaction_id: &str) -> Result<Option<Reported>, StoreError> {
    let rows = store
        .query(
            "SELECT fingerprint, response FROM aml_events WHERE tenant_id = ?1 AND transaction_id = ?2",
            vec![tenant_id.into(), transaction_id.into()],
        )
        .await?;
    rows.first().map(|r| Ok(Reported { fingerprint: r.text(0)?, response: r.text(1)? })).transpose()
}

/// Stores an event for review; a second report of the transaction loses on its key.
pub fn insert(event: NewEvent<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO aml_events (tenant_id, transaction_id, aml_event_id, external_user_id, fingerprint, payload, response, review_status, received_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        vec![
            event.tenant_id.into(),
            event.transaction_id.into(),
            event.aml_event_id.into(),
            event.user_id.into(),
            event.fingerprint.into(),
            event.payload.into(),
            event.response.into(),
            ReviewStatus::Queued.as_str().into(),
            event.received_at.into(),
        ],
    )
}

/// The newest `limit` events of the environment.
pub async fn newest(store: &dyn Store, environment: Environment, limit: i64) -> Result<Vec<EventRow>, StoreError> {
    let rows = store
        .query(
            "SELECT a.aml_event_id, a.tenant_id, a.payload, a.review_status, a.received_at FROM aml_events a
             JOIN tenants t ON t.tenant_id = a.tenant_id WHERE t.environment = ?1 ORDER BY a.received_at DESC, a.aml_event_id LIMIT ?2",
            vec![environment.as_str().into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(EventRow { aml_event_id: r.text(0)?, tenant_id: r.text(1)?, payload: r.text(2)?, review_status: r.text(3)?, received_at: r.int(4)? })
        })
        .collect()
}
