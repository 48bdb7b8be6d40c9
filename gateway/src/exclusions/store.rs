//! The exclusions area's persistence: the shared list of the environment,
//! its sequence, the daily snapshots and the regulator's feed. Every SQL
//! statement of the area is here, behind typed operations.

use rules_model::{ExclusionDuration, ExclusionTerm};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store, StoreError, Value};

/// Where an exclusion came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// registered by a licensed operator through the API
    Operator,
    /// made through the regulator's comprehensive form
    Regulator,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Operator => "operator",
            Source::Regulator => "regulator_comprehensive",
        }
    }
}

/// A new exclusion, as its batch writes it after [`next_seq`].
pub struct NewExclusion<'a> {
    pub exclusion_id: &'a str,
    pub environment: Environment,
    /// the registering tenant, or the environment's service tenant for an import
    pub tenant_id: &'a str,
    pub user_id: Option<&'a str>,
    /// the contacts as shown ([`Contacts`]), with their keys
    pub contacts: Contacts,
    pub duration: ExclusionDuration,
    pub reason: String,
    pub source: Source,
    pub effective_from: i64,
    pub expires_at: Option<i64>,
    pub regulator_propagated: bool,
    pub regulator_eligible: bool,
    pub response: String,
}

/// Takes the next exclusion sequence number; the insert that follows in the
/// same batch reads it back.
pub fn next_seq() -> Stmt {
    Stmt::expect_one("UPDATE counters SET value = value + 1 WHERE name = 'exclusion_seq'", vec![])
}

/// An exclusion's e-mail and phone: as stored and shown (the e-mail as
/// `input::normalize_email` gives it, the phone as E.164's digits), and the
/// keys they are compared by (`input::email_key`, E.164).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contacts {
    pub email: Option<String>,
    pub phone: Option<String>,
    pub email_key: Option<String>,
    pub phone_key: Option<String>,
}

impl Contacts {
    /// The contacts of a normalised e-mail and a read phone.
    pub fn of(email: Option<&str>, phone: Option<&crate::input::Phone>) -> Contacts {
        Contacts {
            email: email.map(str::to_string),
            phone: phone.map(|p| p.digits().to_string()),
            email_key: email.map(crate::input::email_key),
            phone_key: phone.map(|p| p.key().to_string()),
        }
    }
}

pub fn insert(e: NewExclusion<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO exclusions (exclusion_id, seq, environment, tenant_id, external_user_id, email, phone, duration, reason, source,
                                 effective_from, expires_at, regulator_propagated, regulator_eligible, response, created_at,
                                 email_key, phone_key, keys_version)
         VALUES (?1, (SELECT value FROM counters WHERE name = 'exclusion_seq'), ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?10,
                 ?15, ?16, ?17)",
        vec![
            e.exclusion_id.into(),
            e.environment.as_str().into(),
            e.tenant_id.into(),
            Value::from(e.user_id),
            Value::from(e.contacts.email),
            Value::from(e.contacts.phone),
            e.duration.as_str().into(),
            e.reason.into(),
            e.source.as_str().into(),
            e.effective_from.into(),
            Value::from(e.expires_at),
            e.regulator_propagated.into(),
            e.regulator_eligible.into(),
            e.response.into(),
            Value::from(e.contacts.email_key),
            Value::from(e.contacts.phone_key),
            crate::input::CONTACT_KEYS_VERSION.into(),
        ],
    )
}

/// The regulator's exclusions of an e-mail or phone, by key or by the stored
/// form of rows not yet re-keyed, for one round trip of many.
pub fn read_regulator_terms(environment: Environment, c: &Contacts) -> Read {
    Read::new(
        "SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND source = ?2 AND email_key = ?5
         UNION SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND source = ?2 AND phone_key = ?6
         UNION SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND source = ?2 AND email = ?3
         UNION SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND source = ?2 AND phone = ?4",
        vec![
            environment.as_str().into(),
            Source::Regulator.as_str().into(),
            Value::from(c.email.clone()),
            Value::from(c.phone.clone()),
            Value::from(c.email_key.clone()),
            Value::from(c.phone_key.clone()),
        ],
    )
}

/// Claims an e-mail or a phone for the regulator's exclusion the same batch
/// inserts: an identifier has one regulator exclusion per environment
/// (`regulator_claims`' key), so of two imports that both read it as new,
/// one adds it and the other's batch loses (no row claimed) and is recomputed.
pub fn claim_regulator_identifier(environment: Environment, identifier: &RegulatorIdentifier, exclusion_id: &str) -> Stmt {
    Stmt::expect_one(
        "INSERT INTO regulator_claims (environment, identifier, exclusion_id) VALUES (?1, ?2, ?3) ON CONFLICT (environment, identifier) DO NOTHING",
        vec![environment.as_str().into(), identifier.key().into(), exclusion_id.into()],
    )
}

/// An e-mail or a phone a regulator's exclusion names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum RegulatorIdentifier {
    Email(String),
    Phone(String),
}

impl RegulatorIdentifier {
    /// The identifiers of an entry: its e-mail's and its phone's keys.
    pub fn of(c: &Contacts) -> Vec<RegulatorIdentifier> {
        let email = c.email_key.as_ref().map(|e| RegulatorIdentifier::Email(e.clone()));
        let phone = c.phone_key.as_ref().map(|p| RegulatorIdentifier::Phone(p.clone()));
        email.into_iter().chain(phone).collect()
    }

    /// As `regulator_claims` keeps it (the migration that fills the table from earlier imports writes the same).
    fn key(&self) -> String {
        match self {
            RegulatorIdentifier::Email(e) => format!("email:{e}"),
            RegulatorIdentifier::Phone(p) => format!("phone:{p}"),
        }
    }
}

/// The terms of rows whose second column is `expires_at`.
pub fn terms_at(rows: &[Row], column: usize) -> ApiResult<Vec<ExclusionTerm>> {
    rows.iter().map(|r| Ok(ExclusionTerm { expires_at: r.opt_int(column)? })).collect()
}

/// An exclusion registered for a user at a tenant.
pub struct UserExclusionRow {
    pub duration: ExclusionDuration,
    pub response: String,
    pub expires_at: Option<i64>,
    pub regulator_propagated: bool,
}

/// Every exclusion of the user at this tenant, oldest first.
pub async fn of_user(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Vec<UserExclusionRow>> {
    let rows = store
        .query(
            "SELECT duration, response, expires_at, regulator_propagated FROM exclusions
             WHERE tenant_id = ?1 AND external_user_id = ?2 ORDER BY seq",
            vec![tenant_id.into(), user_id.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(UserExclusionRow {
                duration: ExclusionDuration::parse(&r.text(0)?).ok_or_else(ApiError::internal)?,
                response: r.text(1)?,
                expires_at: r.opt_int(2)?,
                regulator_propagated: r.bool(3)?,
            })
        })
        .collect()
}

/// An exclusion on the shared list that names an e-mail or phone.
pub struct Matching {
    pub exclusion_id: String,
    pub duration: String,
    pub expires_at: Option<i64>,
    pub source: String,
}

/// Every exclusion of the environment naming the e-mail or the phone, in
/// registration order: by its key, and by the stored form (a row keyed
/// before the contact keys holds only that until the re-key reaches it);
/// one indexed look-up each (with OR, the planners walked every exclusion
/// in `seq` order). `UNION ALL`: a row found twice is one ([`matching`]),
/// without the union's temporary B-tree. Its rows go to [`matching`].
pub fn read_matching(environment: Environment, c: &Contacts) -> Read {
    let env = Value::from(environment.as_str());
    let (email, email_key) = (Value::from(c.email.clone()), Value::from(c.email_key.clone()));
    let (phone, phone_key) = (Value::from(c.phone.clone()), Value::from(c.phone_key.clone()));
    match (&c.email, &c.phone) {
        (Some(_), None) => Read::new(
            "SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND email_key = ?2
             UNION ALL SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND email = ?3 ORDER BY seq",
            vec![env, email_key, email],
        ),
        (None, Some(_)) => Read::new(
            "SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND phone_key = ?2
             UNION ALL SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND phone = ?3 ORDER BY seq",
            vec![env, phone_key, phone],
        ),
        _ => Read::new(
            "SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND email_key = ?2
             UNION ALL SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND email = ?3
             UNION ALL SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND phone_key = ?4
             UNION ALL SELECT exclusion_id, duration, expires_at, source, seq FROM exclusions WHERE environment = ?1 AND phone = ?5 ORDER BY seq",
            vec![env, email_key, email, phone_key, phone],
        ),
    }
}

/// The rows of [`read_matching`], each exclusion once.
pub fn matching(rows: &[Row]) -> ApiResult<Vec<Matching>> {
    let mut found: Vec<Matching> = Vec::with_capacity(rows.len());
    for r in rows {
        let exclusion_id = r.text(0)?;
        // the rows come in `seq` order: a row found twice comes twice in a row
        if found.last().is_some_and(|m| m.exclusion_id == exclusion_id) {
            continue;
        }
        found.push(Matching { exclusion_id, duration: r.text(1)?, expires_at: r.opt_int(2)?, source: r.text(3)? });
    }
    Ok(found)
}

/// The replication heartbeat's one row.
const HEARTBEAT_ROW: i64 = 1;

/// The latest heartbeat (unix milliseconds), read in the same batch as the
/// reads it dates; no row before the first beat.
pub fn read_heartbeat() -> Read {
    Read::new("SELECT at_ms FROM replication_heartbeat WHERE id = ?1", vec![HEARTBEAT_ROW.into()])
}

/// The heartbeat of [`read_heartbeat`]'s rows, if any.
pub fn heartbeat_at(rows: &[Row]) -> ApiResult<Option<i64>> {
    Ok(rows.first().map(|r| r.int(0)).transpose()?)
}

/// Writes a beat: the time now (unix milliseconds) on the primary. A later
/// beat never moves it back, whichever of two writers lands last.
pub fn beat(at_ms: i64) -> Stmt {
    Stmt::new(
        "INSERT INTO replication_heartbeat (id, at_ms) VALUES (?1, ?2)
         ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms WHERE replication_heartbeat.at_ms < excluded.at_ms",
        vec![HEARTBEAT_ROW.into(), at_ms.into()],
    )
}

/// The latest daily snapshot of an environment.
pub struct Snapshot {
    pub snapshot_date: String,
    pub taken_at: i64,
    pub through_seq: i64,
    pub active_count: i64,
}

pub async fn latest_snapshot(store: &dyn Store, environment: Environment) -> ApiResult<Option<Snapshot>> {
    let rows = store
        .query(
            "SELECT snapshot_date, taken_at, through_seq, active_count FROM exclusion_snapshots WHERE environment = ?1 ORDER BY snapshot_date DESC LIMIT 1",
            vec![environment.as_str().into()],
        )
        .await?;
    rows.first().map(|r| Ok(Snapshot { snapshot_date: r.text(0)?, taken_at: r.int(1)?, through_seq: r.int(2)?, active_count: r.int(3)? })).transpose()
}

/// An exclusion as the list and the regulator's feed show it.
pub struct Listed {
    pub seq: i64,
    pub exclusion_id: String,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub duration: String,
    pub effective_from: i64,
    pub expires_at: Option<i64>,
    pub source: String,
}

fn listed(r: &Row) -> Result<Listed, StoreError> {
    Ok(Listed {
        seq: r.int(0)?,
        exclusion_id: r.text(1)?,
        email: r.opt_text(2)?,
        phone: r.opt_text(3)?,
        duration: r.text(4)?,
        effective_from: r.int(5)?,
        expires_at: r.opt_int(6)?,
        source: r.text(7)?,
    })
}

/// Up to `limit` exclusions with `seq` in `(after, through_seq]` not expired
/// before `active_at`, in registration order (the rules decide which are active).
pub async fn page(store: &dyn Store, environment: Environment, after: i64, through_seq: i64, active_at: i64, limit: i64) -> ApiResult<Vec<Listed>> {
    let rows = store
        .query(
            "SELECT seq, exclusion_id, email, phone, duration, effective_from, expires_at, source FROM exclusions
             WHERE environment = ?1 AND seq > ?2 AND seq <= ?5 AND (expires_at IS NULL OR expires_at >= ?3) ORDER BY seq LIMIT ?4",
            vec![environment.as_str().into(), after.into(), active_at.into(), limit.into(), through_seq.into()],
        )
        .await?;
    Ok(rows.iter().map(listed).collect::<Result<_, _>>()?)
}

/// Operators' exclusions eligible for the regulator's register and not yet exported, oldest first.
pub async fn exportable(store: &dyn Store, environment: Environment, limit: i64) -> ApiResult<Vec<Listed>> {
    let rows = store
        .query(
            "SELECT seq, exclusion_id, email, phone, duration, effective_from, expires_at, source FROM exclusions
             WHERE environment = ?1 AND regulator_eligible = 1 AND regulator_exported_at IS NULL AND source = ?2 ORDER BY seq LIMIT ?3",
            vec![environment.as_str().into(), Source::Operator.as_str().into(), limit.into()],
        )
        .await?;
    Ok(rows.iter().map(listed).collect::<Result<_, _>>()?)
}

/// Marks an exclusion exported to the regulator, once.
pub fn mark_exported(exclusion_id: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE exclusions SET regulator_propagated = 1, regulator_exported_at = ?2 WHERE exclusion_id = ?1 AND regulator_exported_at IS NULL",
        vec![exclusion_id.into(), now.into()],
    )
}

/// Every exclusion that names the player, active or not (the rules decide):
/// registered for them at this tenant, or anywhere in the environment under
/// any e-mail or phone the service knows for them (the screening e-mail, the
/// e-mail and phone of their KYC start), by key and by stored form (rows of
/// before the contact keys, until re-keyed), regulator imports included; one
/// indexed look-up each (a join on ORs walked every exclusion). `UNION ALL`:
/// an exclusion found twice is counted once by [`player_terms`], not by a
/// sort in the store. Rows hold `exclusion_id, expires_at`.
pub fn read_player_exclusions(tenant_id: &str, user_id: &str, environment: Environment) -> Read {
    Read::new(
        "SELECT e.exclusion_id, e.expires_at FROM exclusions e WHERE e.tenant_id = ?1 AND e.external_user_id = ?2
         UNION ALL SELECT e.exclusion_id, e.expires_at FROM users u JOIN exclusions e ON e.environment = ?3 AND e.email IN (u.email, u.kyc_email)
          WHERE u.tenant_id = ?1 AND u.external_user_id = ?2
         UNION ALL SELECT e.exclusion_id, e.expires_at FROM users u JOIN exclusions e ON e.environment = ?3 AND e.phone = u.kyc_phone
          WHERE u.tenant_id = ?1 AND u.external_user_id = ?2
         UNION ALL SELECT e.exclusion_id, e.expires_at FROM users u JOIN exclusions e ON e.environment = ?3 AND e.email_key IN (u.email_key, u.kyc_email_key)
          WHERE u.tenant_id = ?1 AND u.external_user_id = ?2
         UNION ALL SELECT e.exclusion_id, e.expires_at FROM users u JOIN exclusions e ON e.environment = ?3 AND e.phone_key = u.kyc_phone_key
          WHERE u.tenant_id = ?1 AND u.external_user_id = ?2",
        vec![tenant_id.into(), user_id.into(), environment.as_str().into()],
    )
}

/// The terms of [`read_player_exclusions`]' rows: each exclusion once, in
/// the order of its id (so that the same exclusions make the same facts).
pub fn player_terms(rows: &[Row]) -> ApiResult<Vec<ExclusionTerm>> {
    let mut found = rows.iter().map(|r| Ok((r.text(0)?, r.opt_int(1)?))).collect::<ApiResult<Vec<(String, Option<i64>)>>>()?;
    found.sort_unstable();
    found.dedup_by(|a, b| a.0 == b.0);
    Ok(found.into_iter().map(|(_, expires_at)| ExclusionTerm { expires_at }).collect())
}

/// A timed exclusion that ran out on its tenant's clock and is not yet announced.
pub struct RunOut {
    pub exclusion_id: String,
    pub environment: Environment,
    pub tenant_id: String,
    pub contacts: Contacts,
    pub duration: String,
    pub expires_at: i64,
    pub source: Option<String>,
    pub clock_offset_seconds: i64,
    /// the player's erasure restricted them: their contact details are not announced
    pub restricted: bool,
}

/// At most `limit` run-out exclusions not yet announced, earliest first.
pub async fn run_out_unannounced(store: &dyn Store, now: i64, limit: i64) -> ApiResult<Vec<RunOut>> {
    let rows = store
        .query(
            "SELECT e.exclusion_id, e.environment, e.email, e.phone, e.duration, e.expires_at, e.source, t.clock_offset_seconds, e.tenant_id,
                    u.restricted_at, e.email_key, e.phone_key
             FROM exclusions e JOIN tenants t ON t.tenant_id = e.tenant_id
             LEFT JOIN users u ON u.tenant_id = e.tenant_id AND u.external_user_id = e.external_user_id
             WHERE e.expiry_announced = 0 AND e.expires_at IS NOT NULL AND e.expires_at <= ?1 + t.clock_offset_seconds
             ORDER BY e.expires_at LIMIT ?2",
            vec![now.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(RunOut {
                exclusion_id: r.text(0)?,
                environment: Environment::parse(&r.text(1)?).ok_or_else(ApiError::internal)?,
                contacts: Contacts { email: r.opt_text(2)?, phone: r.opt_text(3)?, email_key: r.opt_text(10)?, phone_key: r.opt_text(11)? },
                duration: r.text(4)?,
                expires_at: r.int(5)?,
                source: r.opt_text(6)?,
                clock_offset_seconds: r.int(7)?,
                tenant_id: r.text(8)?,
                restricted: r.opt_int(9)?.is_some(),
            })
        })
        .collect()
}

/// The terms of the same person's other exclusions in the environment, by
/// e-mail or phone: their keys, and their stored forms (rows not yet re-keyed).
pub async fn other_terms(store: &dyn Store, environment: Environment, exclusion_id: &str, c: &Contacts) -> ApiResult<Vec<ExclusionTerm>> {
    let rows = store
        .query(
            "SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND exclusion_id <> ?2 AND email = ?3
             UNION SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND exclusion_id <> ?2 AND phone = ?4
             UNION SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND exclusion_id <> ?2 AND email_key = ?5
             UNION SELECT exclusion_id, expires_at FROM exclusions WHERE environment = ?1 AND exclusion_id <> ?2 AND phone_key = ?6",
            vec![
                environment.as_str().into(),
                exclusion_id.into(),
                Value::from(c.email.clone()),
                Value::from(c.phone.clone()),
                Value::from(c.email_key.clone()),
                Value::from(c.phone_key.clone()),
            ],
        )
        .await?;
    terms_at(&rows, 1)
}

/// A row keyed under an older version of the contact keys, with what its
/// keys are made from: its stored e-mail and phone, and the jurisdiction of
/// the tenant that wrote it (the region a national-format phone was given in).
pub struct Unkeyed {
    pub id: (String, String),
    pub email: Option<String>,
    pub phone: Option<String>,
    pub kyc_email: Option<String>,
    pub jurisdiction: String,
}

/// Up to `limit` exclusions keyed under a version older than `version`, oldest first.
pub async fn unkeyed_exclusions(store: &dyn Store, version: i64, limit: i64) -> ApiResult<Vec<Unkeyed>> {
    let rows = store
        .query(
            "SELECT e.exclusion_id, e.email, e.phone, COALESCE(t.jurisdiction, '') FROM exclusions e LEFT JOIN tenants t ON t.tenant_id = e.tenant_id
             WHERE e.keys_version < ?1 ORDER BY e.keys_version, e.seq LIMIT ?2",
            vec![version.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(Unkeyed { id: (r.text(0)?, String::new()), email: r.opt_text(1)?, phone: r.opt_text(2)?, kyc_email: None, jurisdiction: r.text(3)? })
        })
        .collect()
}

/// Keys an exclusion under `version`, unless it changed since it was read
/// (a redaction) or another host keyed it first.
pub fn rekey_exclusion(row: &Unkeyed, email_key: Option<String>, phone_key: Option<String>, version: i64) -> Stmt {
    Stmt::new(
        "UPDATE exclusions SET email_key = ?2, phone_key = ?3, keys_version = ?4
         WHERE exclusion_id = ?1 AND keys_version < ?4 AND COALESCE(email, '') = ?5 AND COALESCE(phone, '') = ?6",
        vec![
            row.id.0.as_str().into(),
            Value::from(email_key),
            Value::from(phone_key),
            version.into(),
            row.email.clone().unwrap_or_default().into(),
            row.phone.clone().unwrap_or_default().into(),
        ],
    )
}

/// Up to `limit` users keyed under a version older than `version`: their
/// screening e-mail, and the e-mail and phone of their KYC start.
pub async fn unkeyed_users(store: &dyn Store, version: i64, limit: i64) -> ApiResult<Vec<Unkeyed>> {
    let rows = store
        .query(
            "SELECT u.tenant_id, u.external_user_id, u.email, u.kyc_phone, u.kyc_email, COALESCE(t.jurisdiction, '')
             FROM users u LEFT JOIN tenants t ON t.tenant_id = u.tenant_id
             WHERE u.keys_version < ?1 ORDER BY u.keys_version, u.tenant_id, u.external_user_id LIMIT ?2",
            vec![version.into(), limit.into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(Unkeyed {
                id: (r.text(0)?, r.text(1)?),
                email: r.opt_text(2)?,
                phone: r.opt_text(3)?,
                kyc_email: r.opt_text(4)?,
                jurisdiction: r.text(5)?,
            })
        })
        .collect()
}

/// Keys a user's contacts under `version`, unless they changed since they
/// were read (a KYC start writes its e-mail and phone with their keys, an
/// erasure nulls them) or another host keyed them first. The user's version
/// is not moved: the keys are made from what the row holds.
pub fn rekey_user(row: &Unkeyed, email_key: Option<String>, kyc_email_key: Option<String>, kyc_phone_key: Option<String>, version: i64) -> Stmt {
    Stmt::new(
        "UPDATE users SET email_key = ?3, kyc_email_key = ?4, kyc_phone_key = ?5, keys_version = ?6
         WHERE tenant_id = ?1 AND external_user_id = ?2 AND keys_version < ?6
           AND COALESCE(email, '') = ?7 AND COALESCE(kyc_phone, '') = ?8 AND COALESCE(kyc_email, '') = ?9",
        vec![
            row.id.0.as_str().into(),
            row.id.1.as_str().into(),
            Value::from(email_key),
            Value::from(kyc_email_key),
            Value::from(kyc_phone_key),
            version.into(),
            row.email.clone().unwrap_or_default().into(),
            row.phone.clone().unwrap_or_default().into(),
            row.kyc_email.clone().unwrap_or_default().into(),
        ],
    )
}

/// Marks an expiry announced; the batch loses if another host announced it.
pub fn announce_expiry(exclusion_id: &str) -> Stmt {
    Stmt::expect_one("UPDATE exclusions SET expiry_announced = 1 WHERE exclusion_id = ?1 AND expiry_announced = 0", vec![exclusion_id.into()])
}

pub async fn snapshot_taken(store: &dyn Store, environment: Environment, date: &str) -> ApiResult<bool> {
    let count = store
        .scalar(
            "SELECT COUNT(*) FROM exclusion_snapshots WHERE environment = ?1 AND snapshot_date = ?2",
            vec![environment.as_str().into(), date.into()],
        )
        .await?;
    Ok(count > 0)
}

/// The newest exclusion's sequence number: what a snapshot taken now runs through.
pub async fn last_seq(store: &dyn Store) -> ApiResult<i64> {
    Ok(store.scalar("SELECT COALESCE(MAX(seq), 0) FROM exclusions", vec![]).await?)
}

/// Records the day's snapshot: the sequence it runs through and how many
/// exclusions the rules found active at `taken_at`. It loses to a snapshot
/// of the same day another host took first.
pub fn take_snapshot(environment: Environment, date: &str, taken_at: i64, through_seq: i64, active_count: i64) -> Stmt {
    Stmt::expect_one(
        "INSERT INTO exclusion_snapshots (environment, snapshot_date, taken_at, through_seq, active_count)
         VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (environment, snapshot_date) DO NOTHING",
        vec![environment.as_str().into(), date.into(), taken_at.into(), through_seq.into(), active_count.into()],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(id: &str, expires_at: Option<i64>) -> Row {
        Row(vec![Value::Text(id.into()), expires_at.map_or(Value::Null, Value::Int)])
    }

    /// An exclusion found by the player's id and by their e-mail is one
    /// term; the terms follow the ids, whatever order the store gave.
    #[test]
    fn a_player_exclusion_found_twice_is_one_term() {
        let rows = [row("exc_b", None), row("exc_a", Some(5)), row("exc_b", None)];
        let terms: Vec<Option<i64>> = player_terms(&rows).unwrap().into_iter().map(|t| t.expires_at).collect();
        assert_eq!(terms, vec![Some(5), None]);
        // the twin: two exclusions with the same end are two terms
        let rows = [row("exc_a", Some(5)), row("exc_c", Some(5))];
        assert_eq!(player_terms(&rows).unwrap().len(), 2);
        assert!(player_terms(&[]).unwrap().is_empty());
    }
}
