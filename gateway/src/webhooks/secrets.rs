//! Secrets at rest: sealed under the host key, opened to use, and every
//! sealed kind (webhook signing secrets, console TOTP secrets, register
//! credentials) resealed
//! after a key rotation.

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

    /// Seals every value sealed at rest anew under the current host key
    /// (after a key rotation, with the old key still listed): each kind of
    /// [`sealing::SealedKind`], with how many values of it changed.
    pub async fn reseal_secrets(&self) -> Result<sealing::Resealed, String> {
        let Some(keys) = &self.config.secret_keys else { return Err("no secret key is configured".into()) };
        let mut resealed = Vec::new();
        for kind in sealing::SealedKind::ALL {
            // one arm per kind: a new sealed kind does not compile until it is resealed too
            let changed = match kind {
                sealing::SealedKind::WebhookSecrets => self.reseal_webhook_secrets(keys).await?,
                sealing::SealedKind::TotpSecrets => self.reseal_totp_secrets(keys).await?,
                sealing::SealedKind::RegisterCredentials => self.reseal_register_credentials(keys).await?,
                sealing::SealedKind::RegisterIdentities => self.reseal_register_identities(keys).await?,
            };
            resealed.push((kind, changed));
        }
        Ok(sealing::Resealed(resealed))
    }

    /// Webhook signing secrets, current and previous: how many changed.
    async fn reseal_webhook_secrets(&self, keys: &sealing::SecretKeys) -> Result<usize, String> {
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
                changed += statements.len();
                self.store.batch(statements).await.map_err(|e| e.to_string())?;
            }
        }
        Ok(changed)
    }

    /// The console accounts' TOTP secrets (`people`), sealed with the person's id: how many changed.
    async fn reseal_totp_secrets(&self, keys: &sealing::SecretKeys) -> Result<usize, String> {
        let stored_secrets = crate::people::store::all_totp_secrets(self.store.as_ref()).await.map_err(|e| e.message)?;
        let mut changed = 0;
        for (person_id, stored) in stored_secrets {
            if keys.is_current(&stored) {
                continue;
            }
            let plain = keys.open(&stored, &person_id).map_err(|e| format!("console account {person_id}: {e}"))?;
            let sealed = keys.seal(&plain, &person_id, &self.ids.random_bytes(12));
            self.store.batch(vec![crate::people::store::reseal_totp_secret(&person_id, &stored, &sealed)]).await.map_err(|e| e.to_string())?;
            changed += 1;
        }
        Ok(changed)
    }

    /// The national registers' credentials, sealed with their tenant and register: how many changed.
    async fn reseal_register_credentials(&self, keys: &sealing::SecretKeys) -> Result<usize, String> {
        let stored = crate::registers::store::all_credentials(self.store.as_ref()).await.map_err(|e| e.message)?;
        let mut changed = 0;
        for (tenant_id, register, credentials) in stored {
            if keys.is_current(&credentials) {
                continue;
            }
            let aad = crate::registers::credentials_aad(&tenant_id, &register);
            let plain = keys.open(&credentials, &aad).map_err(|e| format!("the {register} credentials of {tenant_id}: {e}"))?;
            let sealed = keys.seal(&plain, &aad, &self.ids.random_bytes(12));
            self.store.batch(vec![crate::registers::store::reseal(&tenant_id, &register, &credentials, &sealed)]).await.map_err(|e| e.to_string())?;
            changed += 1;
        }
        Ok(changed)
    }

    /// The identities the registers' nightly batch asks with, sealed with their tenant, register and player.
    async fn reseal_register_identities(&self, keys: &sealing::SecretKeys) -> Result<usize, String> {
        let stored = crate::registers::store::all_batch_identities(self.store.as_ref()).await.map_err(|e| e.message)?;
        let mut changed = 0;
        for (tenant_id, user_id, register, identity) in stored {
            if keys.is_current(&identity) {
                continue;
            }
            let Some(national) = rules_model::NationalRegister::parse(&register) else { continue };
            let aad = crate::registers::batch::identity_aad(&tenant_id, &user_id, national);
            let plain = keys.open(&identity, &aad).map_err(|e| format!("a {register} identity kept by {tenant_id}: {e}"))?;
            let sealed = keys.seal(&plain, &aad, &self.ids.random_bytes(12));
            let statement = crate::registers::store::reseal_batch_identity(&tenant_id, &user_id, &register, &identity, &sealed);
            self.store.batch(vec![statement]).await.map_err(|e| e.to_string())?;
            changed += 1;
        }
        Ok(changed)
    }
}
