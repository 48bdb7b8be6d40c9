//! Webhook signing secrets at rest: sealed under the host key, opened to
//! sign, and resealed after a key rotation.

use crate::{sealing, webhooks, Gateway};

impl Gateway {
    /// A webhook signing secret as it is stored: sealed under the host key.
    pub(crate) fn seal_secret(&self, secret: &str, webhook_id: &str) -> String {
        match &self.config.secret_keys {
            Some(keys) => keys.seal(secret, webhook_id, &self.ids.random_bytes(12)),
            None => secret.to_string(),
        }
    }

    /// A stored webhook signing secret, opened.
    pub(crate) fn open_secret(&self, stored: &str, webhook_id: &str) -> Result<String, sealing::SealError> {
        match &self.config.secret_keys {
            Some(keys) => keys.open(stored, webhook_id),
            None if stored.starts_with("sealed:") => Err(sealing::SealError::UnknownKey("none configured".into())),
            None => Ok(stored.to_string()),
        }
    }

    /// Seals every stored webhook secret under the current host key (after a
    /// key rotation, with the old key still listed); answers how many changed.
    pub async fn reseal_secrets(&self) -> Result<usize, String> {
        let Some(keys) = &self.config.secret_keys else { return Err("no secret key is configured".into()) };
        let stored_secrets = webhooks::store::all_secrets(self.store.as_ref()).await.map_err(|e| e.to_string())?;
        let mut changed = 0;
        for webhook in stored_secrets {
            let mut statements = Vec::new();
            for (previous, stored) in [(false, Some(webhook.secret)), (true, webhook.previous_secret)] {
                let Some(stored) = stored else { continue };
                if keys.is_current(&stored) {
                    continue;
                }
                let plain = keys.open(&stored, &webhook.webhook_id).map_err(|e| format!("webhook {}: {e}", webhook.webhook_id))?;
                let sealed = keys.seal(&plain, &webhook.webhook_id, &self.ids.random_bytes(12));
                statements.push(webhooks::store::reseal(&webhook.webhook_id, previous, stored, sealed));
            }
            if !statements.is_empty() {
                self.store.batch(statements).await.map_err(|e| e.to_string())?;
                changed += 1;
            }
        }
        Ok(changed)
    }
}
