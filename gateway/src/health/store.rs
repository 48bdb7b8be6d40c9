//! The readiness area's persistence: one read that shows the store answers.

use crate::ports::{Store, StoreError};

/// A read of the schema's version row: the store is reachable and migrated.
pub async fn ping(store: &dyn Store) -> Result<(), StoreError> {
    store.scalar("SELECT COUNT(*) FROM schema_versions", vec![]).await.map(|_| ())
}
