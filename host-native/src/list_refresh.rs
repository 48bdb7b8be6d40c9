//! The native host's turn at the list refresh: every minute it asks the
//! gateway to refresh the configured sources that are due (one host of
//! several wins each), and logs the outcomes. The scheduled rounds load and
//! switch in what a refresh staged.

use std::sync::Arc;
use std::time::Duration;

use gateway::Gateway;

/// How often the due refreshes are looked for.
const CHECK_EVERY: Duration = Duration::from_secs(60);

pub async fn refresh_loop(gateway: Arc<Gateway>) {
    loop {
        for outcome in gateway::lists::refresh::refresh_due(&gateway).await {
            match outcome {
                Ok(line) => tracing::info!(target: "lists", outcome = %line, "list refreshed"),
                Err(line) => tracing::error!(target: "lists", error = %line, "a list refresh failed; the active version stays"),
            }
        }
        tokio::time::sleep(CHECK_EVERY).await;
    }
}
