//! The lists area's persistence: list versions and their status, staged
//! chunks, entries and their index keys, the re-screen cursor and the
//! refresh schedule. Every SQL statement of the area is here.

use rules_model::{EntryKind, EntryTopic, ListCandidate, ScreeningScope};
use serde_json::{json, Value as Json};

use super::{ListEntry, ListFormat};
use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{NearRows, Read, ReadFrom, Row, Stmt, Store, StoreError};

/// Rows one insert statement writes: with the shared list id, 1 + 9 × 9
/// and 1 + 48 × 2 parameters, under D1's 100.
const ENTRY_ROWS_PER_INSERT: usize = 9;
const KEY_ROWS_PER_INSERT: usize = 48;
/// Index keys looked up per statement.
pub(crate) const KEYS_PER_READ: usize = 8;

/// The tables a list load fills, whose planner statistics are refreshed
/// before the loaded version is switched in ([`crate::ports::Store::refresh_statistics`]).
pub(crate) const LIST_TABLES: &[&str] = &["sanctions_entries", "sanctions_keys"];

/// Where a list version is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ListStatus {
    /// entries being written inline
    Loading,
    /// entries waiting in chunks for scheduled rounds
    Staging,
    /// the version screenings read
    Active,
    /// switched out by a newer version
    Replaced,
}

impl ListStatus {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            ListStatus::Loading => "loading",
            ListStatus::Staging => "staging",
            ListStatus::Active => "active",
            ListStatus::Replaced => "replaced",
        }
    }
}

/// A new version's row.
pub(crate) struct NewList<'a> {
    pub list_id: &'a str,
    pub environment: Environment,
    pub source: &'a str,
    pub format: ListFormat,
    pub version: &'a str,
    pub entry_count: usize,
    pub changed_count: usize,
    pub status: ListStatus,
    pub now: i64,
    pub actor: &'a str,
}

pub(crate) fn insert_list(l: NewList<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO sanctions_lists (list_id, environment, source, format, version, entry_count, changed_count, status, imported_at, imported_by)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        vec![
            l.list_id.into(),
            l.environment.as_str().into(),
            l.source.into(),
            l.format.as_str().into(),
            l.version.into(),
            (l.entry_count as i64).into(),
            (l.changed_count as i64).into(),
            l.status.as_str().into(),
            l.now.into(),
            l.actor.into(),
        ],
    )
}

/// The admin audit row of a list import: `reason` is `ok` or the refusal's code.
pub(crate) struct ImportAudit<'a> {
    pub audit_id: &'a str,
    pub environment: Environment,
    pub actor: &'a str,
    pub source: &'a str,
    pub list_id: &'a str,
    pub reason: &'a str,
    pub now: i64,
}

pub(crate) fn audit_import(a: ImportAudit<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO audit_log (audit_id, tenant_id, action, reason, key_prefix, request_id, at, environment, actor_key_id, resource)
         VALUES (?1, NULL, 'sanctions_list.import', ?2, NULL, ?3, ?4, ?5, ?6, ?7)",
        vec![a.audit_id.into(), a.reason.into(), a.list_id.into(), a.now.into(), a.environment.as_str().into(), a.actor.into(), a.source.into()],
    )
}

pub(crate) fn insert_chunk(list_id: &str, chunk_no: usize, entries: String) -> Stmt {
    Stmt::new(
        "INSERT INTO sanctions_import_chunks (list_id, chunk_no, entries) VALUES (?1, ?2, ?3)",
        vec![list_id.into(), (chunk_no as i64).into(), entries.into()],
    )
}

/// Marks the source's staging versions replaced, for a newer staged one.
pub(crate) fn supersede_staging(environment: Environment, source: &str) -> Stmt {
    Stmt::new(
        "UPDATE sanctions_lists SET status = ?3 WHERE environment = ?1 AND source = ?2 AND status = ?4",
        vec![environment.as_str().into(), source.into(), ListStatus::Replaced.as_str().into(), ListStatus::Staging.as_str().into()],
    )
}

/// The first `limit` chunks waiting in a staged version: number and entries.
pub(crate) async fn waiting_chunks(store: &dyn Store, list_id: &str, limit: usize) -> ApiResult<Vec<(i64, String)>> {
    let rows = store
        .query(
            "SELECT chunk_no, entries FROM sanctions_import_chunks WHERE list_id = ?1 ORDER BY chunk_no LIMIT ?2",
            vec![list_id.into(), (limit as i64).into()],
        )
        .await?;
    rows.iter().map(|r| Ok((r.int(0)?, r.text(1)?))).collect()
}

/// Removes a loaded chunk; the batch loses if another host loaded it first.
pub(crate) fn remove_loaded_chunk(list_id: &str, chunk_no: i64) -> Stmt {
    Stmt::expect_one("DELETE FROM sanctions_import_chunks WHERE list_id = ?1 AND chunk_no = ?2", vec![list_id.into(), chunk_no.into()])
}

/// The active version of a source, as a new version is told apart from it.
pub(crate) struct ActiveVersion {
    pub list_id: String,
    pub entry_count: i64,
    /// its re-screen has users left: what it changed is still to be screened
    pub rescreen_pending: bool,
}

pub(crate) async fn active_version(store: &dyn Store, environment: Environment, source: &str) -> ApiResult<Option<ActiveVersion>> {
    let rows = store
        .query(
            "SELECT list_id, entry_count, rescreen_pending FROM sanctions_lists WHERE environment = ?1 AND source = ?2 AND status = ?3",
            vec![environment.as_str().into(), source.into(), ListStatus::Active.as_str().into()],
        )
        .await?;
    rows.first().map(|r| Ok(ActiveVersion { list_id: r.text(0)?, entry_count: r.int(1)?, rescreen_pending: r.bool(2)? })).transpose()
}

/// Each entity of a version with its entry's fingerprint, and whether that version changed it.
pub(crate) async fn fingerprints(store: &dyn Store, list_id: &str) -> ApiResult<Vec<(String, String, bool)>> {
    let rows = store.query("SELECT entity_id, fingerprint, changed FROM sanctions_entries WHERE list_id = ?1", vec![list_id.into()]).await?;
    rows.iter().map(|r| Ok((r.text(0)?, r.text(1)?, r.bool(2)?))).collect()
}

/// A version loaded or staged, not yet switched in.
pub(crate) struct WaitingVersion {
    pub environment: Environment,
    pub source: String,
    pub changed_count: i64,
    pub actor: String,
}

pub(crate) async fn waiting_version(store: &dyn Store, list_id: &str) -> ApiResult<Option<WaitingVersion>> {
    let rows = store
        .query(
            "SELECT environment, source, changed_count, imported_by FROM sanctions_lists WHERE list_id = ?1 AND status IN (?2, ?3)",
            vec![list_id.into(), ListStatus::Loading.as_str().into(), ListStatus::Staging.as_str().into()],
        )
        .await?;
    rows.first()
        .map(|r| {
            Ok(WaitingVersion {
                environment: Environment::parse(&r.text(0)?).ok_or_else(ApiError::internal)?,
                source: r.text(1)?,
                changed_count: r.int(2)?,
                actor: r.opt_text(3)?.unwrap_or_default(),
            })
        })
        .transpose()
}

/// The active version out and this one in; the second statement loses
/// while a chunk of the version waits or once it left loading or staging.
pub(crate) fn switch_in(environment: Environment, source: &str, list_id: &str, now: i64, rescreen: bool) -> [Stmt; 2] {
    [
        Stmt::new(
            "UPDATE sanctions_lists SET status = ?3, rescreen_pending = 0 WHERE environment = ?1 AND source = ?2 AND status = ?4",
            vec![environment.as_str().into(), source.into(), ListStatus::Replaced.as_str().into(), ListStatus::Active.as_str().into()],
        ),
        Stmt::expect_one(
            "UPDATE sanctions_lists SET status = ?4, activated_at = ?2, rescreen_pending = ?3
             WHERE list_id = ?1 AND status IN (?5, ?6) AND NOT EXISTS (SELECT 1 FROM sanctions_import_chunks WHERE list_id = ?1)",
            vec![
                list_id.into(),
                now.into(),
                rescreen.into(),
                ListStatus::Active.as_str().into(),
                ListStatus::Loading.as_str().into(),
                ListStatus::Staging.as_str().into(),
            ],
        ),
    ]
}

/// The ids of a source's versions in one status, oldest first.
pub(crate) async fn list_ids(store: &dyn Store, environment: Environment, source: &str, status: ListStatus) -> ApiResult<Vec<String>> {
    let rows = store
        .query(
            "SELECT list_id FROM sanctions_lists WHERE environment = ?1 AND source = ?2 AND status = ?3 ORDER BY imported_at",
            vec![environment.as_str().into(), source.into(), status.as_str().into()],
        )
        .await?;
    rows.iter().map(|r| Ok(r.text(0)?)).collect()
}

/// Every staging version, oldest first.
pub(crate) async fn staging_list_ids(store: &dyn Store) -> ApiResult<Vec<String>> {
    let rows = store
        .query("SELECT list_id FROM sanctions_lists WHERE status = ?1 ORDER BY imported_at, list_id", vec![ListStatus::Staging.as_str().into()])
        .await?;
    rows.iter().map(|r| Ok(r.text(0)?)).collect()
}

/// The statements that delete a version's rows; a version that is active is kept.
pub(crate) fn discard(list_id: &str) -> Vec<Stmt> {
    vec![
        Stmt::new("DELETE FROM sanctions_import_chunks WHERE list_id = ?1", vec![list_id.into()]),
        Stmt::new("DELETE FROM sanctions_keys WHERE list_id = ?1", vec![list_id.into()]),
        Stmt::new("DELETE FROM sanctions_entries WHERE list_id = ?1", vec![list_id.into()]),
        Stmt::new("DELETE FROM sanctions_lists WHERE list_id = ?1 AND status <> ?2", vec![list_id.into(), ListStatus::Active.as_str().into()]),
    ]
}

/// An entry of a new version with what is stored beside it.
pub(crate) struct LoadRow {
    pub entry_no: i64,
    pub entry: ListEntry,
    pub fingerprint: String,
    pub changed: bool,
}

impl LoadRow {
    /// The staged form: `[entry_no, entity_id, kind, names, dates_of_birth, nationalities, programs, fingerprint, changed, topic]`
    /// (chunks staged before topics read as sanctions).
    pub(crate) fn to_json(&self) -> Json {
        let e = &self.entry;
        json!([
            self.entry_no,
            e.entity_id,
            e.kind.as_str(),
            e.names,
            e.dates_of_birth,
            e.nationalities,
            e.programs,
            self.fingerprint,
            self.changed,
            e.topic.as_str()
        ])
    }

    /// A staged chunk; `None` when it does not read.
    pub(crate) fn chunk_from_json(text: &str) -> Option<Vec<LoadRow>> {
        let strings = |v: &Json| -> Option<Vec<String>> { v.as_array()?.iter().map(|s| s.as_str().map(str::to_string)).collect() };
        let rows: Vec<Json> = serde_json::from_str(text).ok()?;
        rows.iter()
            .map(|r| {
                Some(LoadRow {
                    entry_no: r.get(0)?.as_i64()?,
                    entry: ListEntry {
                        entity_id: r.get(1)?.as_str()?.to_string(),
                        kind: EntryKind::parse(r.get(2)?.as_str()?)?,
                        names: strings(r.get(3)?)?,
                        dates_of_birth: strings(r.get(4)?)?,
                        nationalities: strings(r.get(5)?)?,
                        programs: r.get(6)?.as_str()?.to_string(),
                        topic: match r.get(9) {
                            None => EntryTopic::Sanction,
                            Some(topic) => EntryTopic::parse(topic.as_str()?)?,
                        },
                    },
                    fingerprint: r.get(7)?.as_str()?.to_string(),
                    changed: r.get(8)?.as_bool()?,
                })
            })
            .collect()
    }
}

/// `INSERT … VALUES (…), (…)` of `rows` rows of `columns` parameters after
/// the shared `?1`, skipping conflicts.
fn multi_row_insert(head: &str, columns: usize, rows: usize) -> String {
    let values: Vec<String> = (0..rows)
        .map(|r| {
            let params: Vec<String> = (0..columns).map(|c| format!("?{}", 2 + r * columns + c)).collect();
            format!("(?1, {})", params.join(", "))
        })
        .collect();
    format!("{head} VALUES {} ON CONFLICT DO NOTHING", values.join(", "))
}

fn entry_insert_sql() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| {
        multi_row_insert(
            "INSERT INTO sanctions_entries (list_id, entry_no, entity_id, kind, names, dates_of_birth, nationalities, programs, fingerprint, changed, topic)",
            10,
            ENTRY_ROWS_PER_INSERT,
        )
    })
}

fn key_insert_sql() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| multi_row_insert("INSERT INTO sanctions_keys (list_id, index_key, entry_no)", 2, KEY_ROWS_PER_INSERT))
}

/// The inserts of some entries and of their index keys (`(entry_no, key)`),
/// a few rows a statement (D1 binds at most 100 parameters). The last
/// statement of each kind repeats its last row to fill its slots; `ON
/// CONFLICT DO NOTHING` makes the repeats no-ops.
pub(crate) fn insert_entries(list_id: &str, rows: &[LoadRow], key_rows: &[(i64, String)]) -> Vec<Stmt> {
    let mut statements = Vec::new();
    for group in rows.chunks(ENTRY_ROWS_PER_INSERT) {
        let mut params = vec![list_id.into()];
        for i in 0..ENTRY_ROWS_PER_INSERT {
            let Some(row) = group.get(i).or(group.last()) else { break };
            let e = &row.entry;
            params.extend([
                row.entry_no.into(),
                e.entity_id.as_str().into(),
                e.kind.as_str().into(),
                json!(e.names).to_string().into(),
                json!(e.dates_of_birth).to_string().into(),
                json!(e.nationalities).to_string().into(),
                e.programs.as_str().into(),
                row.fingerprint.as_str().into(),
                row.changed.into(),
                e.topic.as_str().into(),
            ]);
        }
        statements.push(Stmt::new(entry_insert_sql(), params));
    }
    for group in key_rows.chunks(KEY_ROWS_PER_INSERT) {
        let mut params = vec![list_id.into()];
        for i in 0..KEY_ROWS_PER_INSERT {
            let Some((entry_no, key)) = group.get(i).or(group.last()) else { break };
            params.extend([key.as_str().into(), (*entry_no).into()]);
        }
        statements.push(Stmt::new(key_insert_sql(), params));
    }
    statements
}

/// An active list of an environment.
pub(crate) struct ActiveList {
    pub list_id: String,
    pub source: String,
    pub version: String,
}

pub(crate) async fn active_lists(store: &dyn Store, environment: Environment) -> ApiResult<Vec<ActiveList>> {
    let read = read_active_lists(environment);
    active_lists_from(&store.query(read.sql, read.params).await?)
}

/// [`active_lists`] as one read of a batch.
pub(crate) fn read_active_lists(environment: Environment) -> Read {
    Read::new(
        "SELECT list_id, source, version FROM sanctions_lists WHERE environment = ?1 AND status = ?2 ORDER BY source",
        vec![environment.as_str().into(), ListStatus::Active.as_str().into()],
    )
}

pub(crate) fn active_lists_from(rows: &[Row]) -> ApiResult<Vec<ActiveList>> {
    rows.iter().map(|r| Ok(ActiveList { list_id: r.text(0)?, source: r.text(1)?, version: r.text(2)? })).collect()
}

/// Entries of a list ranked by how many of `keys` (at most [`KEYS_PER_READ`])
/// they share, at most `limit`; rows are `(entry_no, shared)`.
// `read_ranked_entries` has one slot per topic.
const _: () = assert!(EntryTopic::ALL.len() == 3);

/// Entries of a list that share index keys with a name, most shared first,
/// then those born in `birth_year` (when known) among equals, among the
/// entries of the topics the screening covers (so that entries it does not
/// cover never crowd out those it does). Each row: entry, shared keys, born
/// that year (0 or 1).
pub(crate) fn read_ranked_entries(
    list_id: &str,
    changed_only: bool,
    limit: usize,
    keys: &[String],
    scope: ScreeningScope,
    birth_year: Option<&str>,
) -> Read {
    let mut params = vec![list_id.into(), changed_only.into()];
    // unused slots hold a key no name has
    params.extend((0..KEYS_PER_READ).map(|k| keys.get(k).map_or("", String::as_str).into()));
    // topics not covered hold a topic no entry has
    params.extend(EntryTopic::ALL.iter().map(|t| if scope.covers(*t) { t.as_str() } else { "" }.into()));
    // dates of birth are stored as a JSON array of strings: a year begins one
    params.push(birth_year.map_or_else(String::new, |y| format!("%\"{y}%")).into());
    if limit == SCREENING_CANDIDATES {
        return Read::new(RANKED_FOR_SCREENING_SQL, params);
    }
    params.push((limit as i64).into());
    Read::new(RANKED_ENTRIES_SQL, params)
}

/// The candidates a screening reads from each list (and each chunk of keys).
pub(crate) const SCREENING_CANDIDATES: usize = 64;

/// `$limit`: `?15`, or a number written in: SQLite plans with a bound
/// `LIMIT ?`'s value and so prepares the statement again after every new
/// binding, and the screening's cut never changes.
macro_rules! ranked_entries_sql {
    ($limit:literal) => {
        concat!(
            "SELECT k.entry_no, COUNT(*) AS shared, MAX(CASE WHEN e.dates_of_birth LIKE ?14 THEN 1 ELSE 0 END) AS born
         FROM sanctions_keys k JOIN sanctions_entries e ON e.list_id = k.list_id AND e.entry_no = k.entry_no
         WHERE k.list_id = ?1 AND k.index_key IN (?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) AND (?2 = 0 OR e.changed = 1)
           AND e.topic IN (?11, ?12, ?13)
         GROUP BY k.entry_no
         ORDER BY COUNT(*) + 3 * MAX(CASE WHEN e.dates_of_birth LIKE ?14 THEN 1 ELSE 0 END) DESC, k.entry_no LIMIT ",
            $limit
        )
    };
}
const RANKED_ENTRIES_SQL: &str = ranked_entries_sql!("?15");
const RANKED_FOR_SCREENING_SQL: &str = ranked_entries_sql!("64");

/// What a listed birth year in the year asked counts for, in shared keys, when
/// the entries are ranked (the SQL above writes the same 3): a common given
/// name shares as many keys with a hundred entries as with the person, and
/// the year tells them apart before the cut, as it does in the score.
pub(crate) const BORN_RANK: i64 = 3;

/// An entry's rank among the candidates: its shared keys, and its birth year.
pub(crate) fn rank(shared: i64, born: bool) -> i64 {
    shared + if born { BORN_RANK } else { 0 }
}

/// `(entry_no, shared keys, born in the year asked)` of a ranked read.
pub(crate) fn ranked_from(rows: &[Row]) -> ApiResult<Vec<(i64, i64, bool)>> {
    rows.iter().map(|r| Ok((r.int(0)?, r.int(1)?, r.int(2)? > 0))).collect()
}

pub(crate) fn read_entry(list_id: &str, entry_no: i64) -> Read {
    Read::new(ENTRY_SQL, vec![list_id.into(), entry_no.into()])
}

const ENTRY_SQL: &str =
    "SELECT entity_id, kind, names, dates_of_birth, nationalities, topic, fingerprint FROM sanctions_entries WHERE list_id = ?1 AND entry_no = ?2";

/// List versions one fence read can name.
const FENCED_VERSIONS: usize = 8;

/// The versions a batch of entry reads reads, when every read is one (at most [`FENCED_VERSIONS`]).
fn versions_named(reads: &[Read]) -> Option<Vec<&str>> {
    let mut versions: Vec<&str> = Vec::new();
    for read in reads {
        // only the entry reads of this module, each naming its version first
        if read.sql != RANKED_ENTRIES_SQL && read.sql != RANKED_FOR_SCREENING_SQL && read.sql != ENTRY_SQL {
            return None;
        }
        let Some(crate::ports::Value::Text(list_id)) = read.params.first() else { return None };
        if !versions.contains(&list_id.as_str()) {
            versions.push(list_id);
        }
    }
    (!versions.is_empty() && versions.len() <= FENCED_VERSIONS).then_some(versions)
}

/// Reads of list entries near the caller (issue #30): the entries of a list
/// version never change once it is active (every entry is written before
/// the activation, `switch_in`, and only a replaced version's rows are
/// deleted), so a replica whose snapshot shows the version active holds all
/// of them, as the primary does. A store with replicas answers these reads
/// there behind that fence; otherwise (a replica behind or failing) from the
/// primary. A store with one database reads them there at once.
pub(crate) async fn read_entries(store: &dyn Store, reads: Vec<Read>) -> Result<Vec<Vec<Row>>, StoreError> {
    if let Some(fence) = entries_fence(&reads) {
        match store.query_near(fence, reads.clone(), None).await {
            Ok(NearRows { rows, from: ReadFrom::Primary }) => return Ok(rows),
            Ok(NearRows { rows, from: ReadFrom::Replica { fence, .. } }) if entries_fenced(&reads, &fence) => return Ok(rows),
            // a replica without them (behind, or failing): the primary
            _ => {}
        }
    }
    store.query_many(reads).await
}

/// The fence of a batch of entry reads ([`read_ranked_entries`],
/// [`read_entry`]): the versions they read that a snapshot shows active,
/// read first in the same replica batch. `None` when a read of the batch is
/// anything else, or it names too many versions (it stays on the primary).
fn entries_fence(reads: &[Read]) -> Option<Read> {
    let versions = versions_named(reads)?;
    let mut params = vec![ListStatus::Active.as_str().into()];
    params.extend((0..FENCED_VERSIONS).map(|i| versions.get(i).copied().unwrap_or("").into()));
    Some(Read::new("SELECT list_id FROM sanctions_lists WHERE status = ?1 AND list_id IN (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", params))
}

/// Whether a replica's answer to `reads` may be used: its fence rows (read
/// in the same snapshot) show every version the reads read active.
fn entries_fenced(reads: &[Read], fence: &[Row]) -> bool {
    let Some(versions) = versions_named(reads) else { return false };
    let active: Vec<String> = fence.iter().filter_map(|row| row.text(0).ok()).collect();
    versions.iter().all(|version| active.iter().any(|a| a == version))
}

pub(crate) fn candidate_from(source: &str, row: &Row) -> ApiResult<ListCandidate> {
    let list = |i: usize| -> ApiResult<Vec<String>> { serde_json::from_str(&row.text(i)?).map_err(|_| ApiError::internal()) };
    Ok(ListCandidate {
        source: source.to_string(),
        entity_id: row.text(0)?,
        kind: EntryKind::parse(&row.text(1)?).unwrap_or(EntryKind::Unknown),
        names: list(2)?,
        dates_of_birth: list(3)?,
        nationalities: list(4)?,
        topic: EntryTopic::parse(&row.text(5)?).ok_or_else(ApiError::internal)?,
        fingerprint: row.text(6)?,
    })
}

/// An active version as the admin list shows it.
pub(crate) struct ListVersion {
    pub list_id: String,
    pub source: String,
    pub format: String,
    pub version: String,
    pub entry_count: i64,
    pub changed_count: i64,
    pub status: String,
    pub imported_at: i64,
    pub activated_at: Option<i64>,
    pub rescreen_pending: bool,
}

pub(crate) async fn active_versions(store: &dyn Store, environment: Environment) -> ApiResult<Vec<ListVersion>> {
    let rows = store
        .query(
            "SELECT list_id, source, format, version, entry_count, changed_count, status, imported_at, activated_at, rescreen_pending
             FROM sanctions_lists WHERE environment = ?1 AND status = ?2 ORDER BY source",
            vec![environment.as_str().into(), ListStatus::Active.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(ListVersion {
                list_id: r.text(0)?,
                source: r.text(1)?,
                format: r.text(2)?,
                version: r.text(3)?,
                entry_count: r.int(4)?,
                changed_count: r.int(5)?,
                status: r.text(6)?,
                imported_at: r.int(7)?,
                activated_at: r.opt_int(8)?,
                rescreen_pending: r.bool(9)?,
            })
        })
        .collect()
}

/// A changed list whose users wait to be re-screened, from after the cursor.
pub(crate) struct RescreenJob {
    pub list_id: String,
    pub environment: Environment,
    pub after_tenant: String,
    pub after_user: String,
}

/// At most 16 changed lists waiting for a re-screen, earliest switched in first.
pub(crate) async fn rescreen_jobs(store: &dyn Store) -> ApiResult<Vec<RescreenJob>> {
    let rows = store
        .query(
            "SELECT list_id, environment, rescreen_tenant, rescreen_user FROM sanctions_lists WHERE status = ?1 AND rescreen_pending = 1
             ORDER BY activated_at LIMIT 16",
            vec![ListStatus::Active.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|r| {
            Ok(RescreenJob {
                list_id: r.text(0)?,
                environment: Environment::parse(&r.text(1)?).ok_or_else(ApiError::internal)?,
                after_tenant: r.text(2)?,
                after_user: r.text(3)?,
            })
        })
        .collect()
}

/// A user an environment's re-screen may look at.
pub(crate) struct ScreenedUser {
    pub tenant_id: String,
    pub user_id: String,
    pub clock_offset_seconds: i64,
}

/// Up to `limit` users of the environment after (`after_tenant`, `after_user`), in that order.
pub(crate) async fn users_after(
    store: &dyn Store,
    environment: Environment,
    after_tenant: &str,
    after_user: &str,
    limit: i64,
) -> ApiResult<Vec<ScreenedUser>> {
    let rows = store
        .query(
            "SELECT u.tenant_id, u.external_user_id, t.clock_offset_seconds FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
             WHERE t.environment = ?1 AND (u.tenant_id > ?2 OR (u.tenant_id = ?2 AND u.external_user_id > ?3))
               AND u.restricted_at IS NULL
             ORDER BY u.tenant_id, u.external_user_id LIMIT ?4",
            vec![environment.as_str().into(), after_tenant.into(), after_user.into(), limit.into()],
        )
        .await?;
    rows.iter().map(|r| Ok(ScreenedUser { tenant_id: r.text(0)?, user_id: r.text(1)?, clock_offset_seconds: r.int(2)? })).collect()
}

/// The claim of the batch of users after the job's cursor, up to
/// (`tenant_id`, `user_id`): the cursor moves past it before anyone is
/// screened, in a conditional update only one host can make (`pending`
/// false once the batch reaches the last user). A batch that loses it lost
/// the race: another host took the batch.
pub(crate) fn claim_rescreen(job: &RescreenJob, tenant_id: &str, user_id: &str, pending: bool) -> Stmt {
    Stmt::expect_one(
        "UPDATE sanctions_lists SET rescreen_tenant = ?2, rescreen_user = ?3, rescreen_pending = ?4
          WHERE list_id = ?1 AND rescreen_pending = 1 AND rescreen_tenant = ?5 AND rescreen_user = ?6",
        vec![
            job.list_id.as_str().into(),
            tenant_id.into(),
            user_id.into(),
            pending.into(),
            job.after_tenant.as_str().into(),
            job.after_user.as_str().into(),
        ],
    )
}

/// Puts a source's next refresh at `at`.
pub(crate) fn refresh_at(environment: Environment, source: &str, at: i64) -> Stmt {
    Stmt::new(
        "UPDATE list_refreshes SET next_at = ?3 WHERE environment = ?1 AND source = ?2",
        vec![environment.as_str().into(), source.into(), at.into()],
    )
}

/// Whether this host won the source's refresh due by `now`: the due time
/// moves to `next_at` in a conditional update only one host can make.
pub(crate) async fn claim_refresh(store: &dyn Store, environment: Environment, source: &str, now: i64, next_at: i64) -> Result<bool, StoreError> {
    let key = || vec![environment.as_str().into(), source.into()];
    store
        .batch(vec![Stmt::new(
            "INSERT INTO list_refreshes (environment, source, next_at) VALUES (?1, ?2, 0) ON CONFLICT (environment, source) DO NOTHING",
            key(),
        )])
        .await?;
    let mut params = key();
    params.extend([next_at.into(), now.into()]);
    match store
        .batch(vec![Stmt::expect_one("UPDATE list_refreshes SET next_at = ?3 WHERE environment = ?1 AND source = ?2 AND next_at <= ?4", params)])
        .await
    {
        Ok(()) => Ok(true),
        Err(StoreError::Conflict { .. }) => Ok(false),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ports::Value;

    fn fence_of(versions: &[&str]) -> Vec<Row> {
        versions.iter().map(|v| Row(vec![Value::Text((*v).to_string())])).collect()
    }

    /// A batch of entry reads is fenced by the versions it reads; a replica
    /// answer is used only when its snapshot shows every one of them active.
    /// The screening's ranked read has its cut written in (no `LIMIT ?` to
    /// bind, so SQLite keeps its plan); any other cut is bound, last.
    /// The store's ranking and the merge of its chunks weigh the birth year alike.
    #[test]
    fn the_ranked_read_counts_the_birth_year_as_the_merge_does() {
        let read = read_ranked_entries("lst_a", false, SCREENING_CANDIDATES, &[], ScreeningScope::default(), Some("1962"));
        assert!(read.sql.contains(&format!("COUNT(*) + {BORN_RANK} * MAX(")), "{}", read.sql);
        assert_eq!(rank(4, true), 4 + BORN_RANK);
        assert!(rank(4, true) > rank(6, false) && rank(3, true) == rank(6, false));
    }

    #[test]
    fn the_screenings_ranked_read_has_its_cut_written_in() {
        let keys = vec!["k1".to_string()];
        let screening = read_ranked_entries("lst_a", false, SCREENING_CANDIDATES, &keys, ScreeningScope::default(), None);
        assert!(screening.sql.ends_with(&format!("LIMIT {SCREENING_CANDIDATES}")), "{}", screening.sql);
        assert!(!screening.sql.contains("?15"));
        assert_eq!(screening.params.len(), 14);
        let search = read_ranked_entries("lst_a", false, 5, &keys, ScreeningScope::default(), None);
        assert!(search.sql.ends_with("LIMIT ?15"), "{}", search.sql);
        assert_eq!(search.params.len(), 15);
        assert_eq!(search.params.last(), Some(&Value::Int(5)));
    }

    #[test]
    fn entry_reads_are_near_only_behind_their_versions_activation() {
        let keys = vec!["k1".to_string()];
        let reads = vec![
            read_ranked_entries("lst_a", false, 5, &keys, ScreeningScope::default(), Some("1980")),
            read_ranked_entries("lst_b", false, 5, &keys, ScreeningScope::default(), None),
            read_entry("lst_a", 3),
        ];
        let fence = entries_fence(&reads).expect("entry reads have a fence");
        assert_eq!(fence.params.len(), 1 + FENCED_VERSIONS);
        assert_eq!(&fence.params[..3], &[Value::Text("active".into()), Value::Text("lst_a".into()), Value::Text("lst_b".into())]);
        assert!(entries_fenced(&reads, &fence_of(&["lst_b", "lst_a"])));
        // twins: a replica that does not show a version active (still
        // loading there, or replaced) is not used, nor one that shows none
        assert!(!entries_fenced(&reads, &fence_of(&["lst_a"])));
        assert!(!entries_fenced(&reads, &[]));
        // any other read keeps the batch on the primary
        let mut mixed = reads.clone();
        mixed.push(read_active_lists(Environment::Production));
        assert!(entries_fence(&mixed).is_none());
        assert!(!entries_fenced(&mixed, &fence_of(&["lst_a", "lst_b"])));
        assert!(entries_fence(&[]).is_none());
        // more versions than one fence names: the primary
        let many: Vec<Read> = (0..=FENCED_VERSIONS).map(|i| read_entry(&format!("lst_{i}"), 1)).collect();
        assert!(entries_fence(&many).is_none());
    }
}
