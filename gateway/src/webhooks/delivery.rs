//! Webhook delivery: every committed outbox event is fanned out to the
//! endpoints that should hear it, then sent signed, at least once, with
//! retries over about three days. All state lives in the store, so a host
//! that stops mid-delivery loses nothing: a claimed attempt whose host died
//! is retried when its lease runs out.

use futures_util::StreamExt;

use super::store::{self, DeliveryStatus, DueRow};
use crate::auth::Environment;
use crate::ports::{SendOutcome, StoreError};
use crate::{signing, Gateway};

/// Delay before each retry, in seconds; with jitter the whole schedule spans about three days.
pub const RETRY_SCHEDULE_SECONDS: [i64; 14] = [5, 30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 43_200, 43_200, 43_200, 43_200, 43_200];
/// After this long since the event, a delivery that still fails is given up.
pub const RETRY_WINDOW_SECONDS: i64 = 3 * 86_400 + 12 * 3_600;
/// A claimed attempt is retried after this long if its host never reported back.
const LEASE_SECONDS: i64 = 60;
/// How often recording an attempt is retried after a lost lock race.
const RECORD_ATTEMPTS: usize = 3;
/// `Retry-After` is honoured up to this long.
const MAX_RETRY_AFTER_SECONDS: i64 = 86_400;
/// Events one round fans out.
const FAN_OUT_BATCH: i64 = 500;

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DeliveryReport {
    pub fanned_out: usize,
    pub attempted: usize,
}

/// A delivery claimed for one attempt.
pub struct ClaimedDelivery(Due);

struct Due {
    delivery_id: String,
    event_id: String,
    attempts: i64,
    created_at: i64,
    webhook_id: String,
    url: String,
    /// the signing secrets, opened; why not when they cannot be
    secrets: Result<Vec<String>, String>,
    envelope: String,
    production: bool,
    traceparent: Option<String>,
}

fn due_of(gateway: &Gateway, row: DueRow, now: i64) -> Due {
    let mut stored = vec![row.secret];
    if let (Some(previous), Some(until)) = (row.previous_secret, row.previous_secret_expires_at) {
        if now < until {
            stored.push(previous);
        }
    }
    let secrets = stored
        .iter()
        .map(|s| gateway.open_secret(s, &row.webhook_id))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("the signing secret cannot be opened: {e}"));
    Due {
        delivery_id: row.delivery_id,
        event_id: row.event_id,
        attempts: row.attempts,
        created_at: row.created_at,
        webhook_id: row.webhook_id,
        url: row.url,
        secrets,
        envelope: row.envelope,
        production: row.environment == Some(Environment::Production),
        traceparent: row.traceparent,
    }
}

/// `Retry-After` as seconds from now: delta-seconds or an HTTP date.
pub fn parse_retry_after(value: &str, now: i64) -> Option<i64> {
    let value = value.trim();
    let seconds = match value.parse::<i64>() {
        Ok(s) => s,
        Err(_) => chrono::DateTime::parse_from_rfc2822(value).ok()?.timestamp() - now,
    };
    Some(seconds.clamp(1, MAX_RETRY_AFTER_SECONDS))
}

/// The wait before the next attempt: the endpoint's `Retry-After` when it
/// gave one, otherwise the schedule's step with ±20% jitter.
pub fn retry_delay(attempts_made: i64, retry_after: Option<i64>, jitter_byte: u8) -> Option<i64> {
    let step = RETRY_SCHEDULE_SECONDS.get(usize::try_from(attempts_made.max(1) - 1).ok()?)?;
    if let Some(seconds) = retry_after {
        return Some(seconds);
    }
    let jitter = 0.8 + 0.4 * f64::from(jitter_byte) / 255.0;
    Some(((*step as f64) * jitter).round().max(1.0) as i64)
}

impl Gateway {
    /// One round of delivery: fan out new events, then send what is due and
    /// wait for every answer. Hosts that can run tasks in the background use
    /// [`Gateway::claim_due_deliveries`] and [`Gateway::attempt_delivery`]
    /// instead, so that one slow endpoint never holds up the others.
    pub async fn deliver_webhooks(&self) -> Result<DeliveryReport, StoreError> {
        let (fanned_out, claimed) = self.claim_due_deliveries().await?;
        let attempted = claimed.len();
        // At most `delivery_concurrency` sends in flight: a platform that
        // queues further connections (Workers open six) would otherwise
        // spend a queued send's time limit before it is sent.
        let results: Vec<Result<(), StoreError>> = futures_util::stream::iter(claimed.into_iter().map(|c| self.attempt_delivery(c)))
            .buffer_unordered(self.config.work.delivery_concurrency.max(1))
            .collect()
            .await;
        results.into_iter().collect::<Result<Vec<()>, StoreError>>()?;
        Ok(DeliveryReport { fanned_out, attempted })
    }

    /// Fans out new events, then claims the deliveries that are due: a claim
    /// is a lease, so a delivery whose host dies is retried after it.
    pub async fn claim_due_deliveries(&self) -> Result<(usize, Vec<ClaimedDelivery>), StoreError> {
        if self.sender.is_none() {
            return Ok((0, Vec::new()));
        }
        let now = self.clock.now();
        let fanned_out = self.fan_out(now).await?;
        // A host claims only deliveries it can sign: one sealed under a key
        // it lacks is left, untouched, to a host that has the key.
        let key_ids = self.config.secret_keys.as_ref().map(|k| k.ids()).unwrap_or_default();
        let due = store::due(self.store.as_ref(), now, self.config.work.delivery_batch, &key_ids).await?;
        let mut claimed = Vec::new();
        for row in due {
            let due = due_of(self, row, now);
            match self.store.batch(vec![store::claim(&due.delivery_id, due.attempts, now + LEASE_SECONDS)]).await {
                Ok(()) => claimed.push(ClaimedDelivery(due)),
                Err(StoreError::Conflict { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        Ok((fanned_out, claimed))
    }

    /// Sends one claimed delivery, signed at the moment of sending, and records the outcome.
    pub async fn attempt_delivery(&self, claimed: ClaimedDelivery) -> Result<(), StoreError> {
        let Some(sender) = &self.sender else { return Ok(()) };
        let due = claimed.0;
        let secrets: Vec<&str> = due.secrets.as_ref().map(|s| s.iter().map(String::as_str).collect()).unwrap_or_default();
        let mut headers = signing::headers(&secrets, &due.event_id, self.clock.now(), due.envelope.as_bytes());
        if let Some(traceparent) = &due.traceparent {
            headers.push(("traceparent".into(), traceparent.clone()));
        }
        // DNS can change after registration: production endpoints are checked again, and nothing is sent to a refused one.
        let refused = match due.production {
            true => self.check_destination(&due.url).await.err(),
            false => None,
        };
        let refused = refused.or_else(|| due.secrets.as_ref().err().cloned());
        let outcome = match refused {
            Some(why) => SendOutcome::Failed(format!("not sent: {why}")),
            None => sender.post(&due.url, &headers, due.envelope.as_bytes()).await,
        };
        let mut tries = 0;
        loop {
            match self.record_attempt(&due, outcome.clone(), self.clock.now()).await {
                Err(StoreError::Conflict { .. }) if tries < RECORD_ATTEMPTS => tries += 1,
                result => return result,
            }
        }
    }

    /// Creates one delivery per endpoint that should hear each new event:
    /// exclusion events go to every tenant of the environment, the others
    /// to the tenant they concern.
    async fn fan_out(&self, now: i64) -> Result<usize, StoreError> {
        let events = store::new_events(self.store.as_ref(), FAN_OUT_BATCH).await?;
        for event in &events {
            self.store.batch(store::fan_out(event, now)).await?;
        }
        Ok(events.len())
    }

    /// 2xx is success; 410 disables the endpoint; anything else, 3xx
    /// included, is retried until the schedule or the window runs out.
    async fn record_attempt(&self, due: &Due, outcome: SendOutcome, now: i64) -> Result<(), StoreError> {
        let attempts_made = due.attempts + 1;
        let (status_code, error, retry_after) = match &outcome {
            SendOutcome::Answered { status, retry_after } => {
                (Some(i64::from(*status)), None, retry_after.as_deref().and_then(|v| parse_retry_after(v, now)))
            }
            SendOutcome::Failed(e) => (None, Some(e.clone()), None),
        };
        let mut statements = vec![store::insert_attempt(&self.new_id("att"), &due.delivery_id, now, status_code, error.clone())];
        let error_text = error.unwrap_or_else(|| format!("endpoint answered {}", status_code.unwrap_or(0)));
        let result = match status_code {
            Some(200..=299) => "delivered",
            Some(410) => "gone",
            Some(_) => "refused",
            None => "unreachable",
        };
        metrics::counter!(crate::metric_names::WEBHOOK_DELIVERIES, "result" => result).increment(1);
        match status_code {
            Some(200..=299) => statements.push(store::finish(&due.delivery_id, DeliveryStatus::Succeeded, now, status_code, None)),
            Some(410) => {
                let (disable, abandon) = store::disable_gone(&due.webhook_id, now);
                statements.insert(0, disable);
                statements.push(store::finish(
                    &due.delivery_id,
                    DeliveryStatus::Failed,
                    now,
                    status_code,
                    Some("endpoint answered 410 Gone; endpoint disabled".into()),
                ));
                statements.push(abandon);
            }
            _ => {
                let jitter = self.ids.random_bytes(1).first().copied().unwrap_or(128);
                let next = retry_delay(attempts_made, retry_after, jitter).map(|d| now + d).filter(|at| *at <= due.created_at + RETRY_WINDOW_SECONDS);
                statements.push(match next {
                    Some(at) => store::retry_at(&due.delivery_id, at, now, status_code, error_text),
                    None => store::finish(&due.delivery_id, DeliveryStatus::Failed, now, status_code, Some(error_text)),
                });
            }
        }
        self.store.batch(statements).await
    }

    /// When the next delivery is due, for a host's timer; `None` when nothing is pending.
    pub async fn next_delivery_at(&self) -> Result<Option<i64>, StoreError> {
        store::next_due_at(self.store.as_ref()).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_seconds_and_dates() {
        assert_eq!(parse_retry_after("120", 0), Some(120));
        assert_eq!(parse_retry_after("0", 0), Some(1));
        assert_eq!(parse_retry_after("99999999", 0), Some(86_400));
        assert_eq!(parse_retry_after("Thu, 01 Jan 1970 00:01:40 GMT", 0), Some(100));
        assert_eq!(parse_retry_after("soon", 0), None);
    }

    #[test]
    fn schedule_has_jitter_and_ends() {
        assert_eq!(retry_delay(1, None, 0), Some(4));
        assert_eq!(retry_delay(1, None, 255), Some(6));
        assert_eq!(retry_delay(3, Some(7), 0), Some(7));
        assert_eq!(retry_delay(RETRY_SCHEDULE_SECONDS.len() as i64 + 1, None, 0), None);
        assert_eq!(retry_delay(RETRY_SCHEDULE_SECONDS.len() as i64 + 1, Some(5), 0), None);
        let total: i64 = RETRY_SCHEDULE_SECONDS.iter().sum();
        assert!((3 * 86_400..=RETRY_WINDOW_SECONDS).contains(&total), "the schedule spans {total} s");
    }
}
