//! Sanctions lists in the store: imports that replace a source atomically,
//! candidate retrieval through an index of the rules' keys, the compliance
//! team's search, and the re-screening of users after a list changes.
//!
//! The store only proposes candidates (entries sharing an index key with the
//! name); the rules component scores them, so the scoring is part of the
//! audited rules version.

pub mod countries;
pub mod parse;
pub mod refresh;

use std::collections::HashMap;

use rules::{EntryKind, ListCandidate, NameQuery, SanctionsStatus};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, StoreError};
use crate::{time, Ctx, Gateway, Reply};
pub use parse::{ListEntry, ListFormat};
pub use refresh::ListSource;

/// At most this many entries are scored for one name: those sharing the most
/// index keys with it.
const MAX_CANDIDATES: usize = 64;
/// Index keys looked up per statement.
const KEYS_PER_READ: usize = 8;
/// Entries written per batch while an import loads inline.
const IMPORT_BATCH: usize = 400;
/// Entries a staged chunk holds at most, and its size past which it closes.
const STAGED_CHUNK_ENTRIES: usize = 100;
const STAGED_CHUNK_BYTES: usize = 48 * 1024;
/// Staged chunks written per batch.
const STAGE_BATCH: usize = 50;
/// Rows one insert statement writes: with the shared list id, 1 + 9 × 9
/// and 1 + 48 × 2 parameters, under D1's 100.
const ENTRY_ROWS_PER_INSERT: usize = 9;
const KEY_ROWS_PER_INSERT: usize = 48;
/// A new version of a list with fewer than this share of the active
/// version's entries is taken for a truncated download and refused.
const MIN_SHARE_OF_ACTIVE: f64 = 0.5;

/// What an import did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportSummary {
    pub list_id: String,
    pub source: String,
    pub version: String,
    pub entries: usize,
    pub names: usize,
    pub changed: usize,
    pub replaced: Option<String>,
}

/// What a round of staged loading did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct StagedLoad {
    pub chunks_loaded: usize,
    pub lists_activated: usize,
    /// chunks wait for a later round
    pub more: bool,
}

/// Whether a version was switched in, and which it replaced.
enum Switched {
    Done(Option<String>),
    /// not loaded yet (chunks wait), or no longer waiting
    NotReady,
}

/// A new version, read and checked, not yet written.
struct PreparedImport {
    list_id: String,
    version: String,
    names: usize,
    changed: usize,
    rows: Vec<LoadRow>,
}

impl PreparedImport {
    /// The version's row in `status` (`loading` or `staging`).
    fn list_row(&self, gateway: &Gateway, environment: Environment, source: &str, format: ListFormat, actor: &str, status: &str) -> Stmt {
        Stmt::new(
            "INSERT INTO sanctions_lists (list_id, environment, source, format, version, entry_count, changed_count, status, imported_at, imported_by)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            vec![
                self.list_id.as_str().into(),
                environment.as_str().into(),
                source.into(),
                format.as_str().into(),
                self.version.as_str().into(),
                (self.rows.len() as i64).into(),
                (self.changed as i64).into(),
                status.into(),
                gateway.clock.now().into(),
                actor.into(),
            ],
        )
    }

    fn summary(&self, source: &str, replaced: Option<String>) -> ImportSummary {
        ImportSummary {
            list_id: self.list_id.clone(),
            source: source.to_string(),
            version: self.version.clone(),
            entries: self.rows.len(),
            names: self.names,
            changed: self.changed,
            replaced,
        }
    }
}

/// An entry of a new version with what is stored beside it.
struct LoadRow {
    entry_no: i64,
    entry: ListEntry,
    fingerprint: String,
    changed: bool,
}

impl LoadRow {
    /// The staged form: `[entry_no, entity_id, kind, names, dates_of_birth, nationalities, programs, fingerprint, changed]`.
    fn to_json(&self) -> Json {
        let e = &self.entry;
        json!([self.entry_no, e.entity_id, e.kind.as_str(), e.names, e.dates_of_birth, e.nationalities, e.programs, self.fingerprint, self.changed])
    }

    /// A staged chunk; `None` when it does not read.
    fn chunk_from_json(text: &str) -> Option<Vec<LoadRow>> {
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
                    },
                    fingerprint: r.get(7)?.as_str()?.to_string(),
                    changed: r.get(8)?.as_bool()?,
                })
            })
            .collect()
    }
}

/// The staged form of the rows: JSON arrays of at most
/// `STAGED_CHUNK_ENTRIES` rows, closed once past `STAGED_CHUNK_BYTES`.
fn staged_chunks(rows: &[LoadRow]) -> Vec<String> {
    let mut chunks = Vec::new();
    let (mut chunk, mut bytes) = (Vec::new(), 0);
    for row in rows {
        let staged = row.to_json();
        bytes += staged.to_string().len();
        chunk.push(staged);
        if chunk.len() >= STAGED_CHUNK_ENTRIES || bytes >= STAGED_CHUNK_BYTES {
            chunks.push(Json::Array(std::mem::take(&mut chunk)).to_string());
            bytes = 0;
        }
    }
    if !chunk.is_empty() {
        chunks.push(Json::Array(chunk).to_string());
    }
    chunks
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
            "INSERT INTO sanctions_entries (list_id, entry_no, entity_id, kind, names, dates_of_birth, nationalities, programs, fingerprint, changed)",
            9,
            ENTRY_ROWS_PER_INSERT,
        )
    })
}

fn key_insert_sql() -> &'static str {
    static SQL: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SQL.get_or_init(|| multi_row_insert("INSERT INTO sanctions_keys (list_id, index_key, entry_no)", 2, KEY_ROWS_PER_INSERT))
}

/// Which list entries a look-up considers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entries<'a> {
    /// every entry of every active list: a screening
    All,
    /// the entries one import added or changed: the re-screen after it
    ChangedIn(&'a str),
}

/// An active list of an environment.
struct ActiveList {
    list_id: String,
    source: String,
}

impl Gateway {
    /// Imports a list as a new version of `source`: the entries load beside
    /// the active version and replace it in one batch; a list that reads as
    /// nothing, or as less than half of the active one, replaces nothing.
    /// `actor` is who asked, for the admin audit log: `cli`, `list-refresh`
    /// or an admin key id. A refused import is audited too.
    pub async fn import_list(
        &self,
        environment: Environment,
        source: &str,
        format: ListFormat,
        entries: Vec<ListEntry>,
        actor: &str,
    ) -> ApiResult<ImportSummary> {
        let outcome = self.import_list_version(environment, source, format, entries, actor).await;
        self.audited_import(environment, source, actor, outcome).await
    }

    /// Records an import that replaced nothing: a file that did not read, a
    /// download that failed, a refusal; `reason` is a stable code.
    pub async fn audit_refused_list_import(&self, environment: Environment, source: &str, actor: &str, reason: &str) {
        let audit = self.list_import_audit(environment, actor, source, &self.new_id("lst"), reason);
        if let Err(e) = self.store.batch(vec![audit]).await {
            eprintln!("audit of a refused import of {source} failed: {e}");
        }
    }

    /// The admin audit row of a list import: `reason` is `ok` or the refusal's code.
    fn list_import_audit(&self, environment: Environment, actor: &str, source: &str, list_id: &str, reason: &str) -> Stmt {
        Stmt::new(
            "INSERT INTO audit_log (audit_id, tenant_id, action, reason, key_prefix, request_id, at, environment, actor_key_id, resource)
             VALUES (?1, NULL, 'sanctions_list.import', ?2, NULL, ?3, ?4, ?5, ?6, ?7)",
            vec![
                self.new_id("aud").into(),
                reason.into(),
                list_id.into(),
                self.clock.now().into(),
                environment.as_str().into(),
                actor.into(),
                source.into(),
            ],
        )
    }

    async fn import_list_version(
        &self,
        environment: Environment,
        source: &str,
        format: ListFormat,
        entries: Vec<ListEntry>,
        actor: &str,
    ) -> ApiResult<ImportSummary> {
        let prepared = self.prepare_import(environment, source, entries).await?;
        let list_row = prepared.list_row(self, environment, source, format, actor, "loading");
        self.store.batch(vec![list_row]).await?;
        let loaded = async {
            for group in prepared.rows.chunks(IMPORT_BATCH) {
                self.store.batch(self.entry_statements(&prepared.list_id, group)?).await?;
            }
            Ok::<_, ApiError>(())
        };
        if let Err(e) = loaded.await {
            self.discard_list(&prepared.list_id).await;
            return Err(e);
        }
        match self.activate_list(&prepared.list_id).await {
            Ok(Switched::Done(replaced)) => Ok(prepared.summary(source, replaced)),
            // an inline load has no chunks: only a concurrent discard gets here
            Ok(Switched::NotReady) => Err(ApiError::internal().with_detail(format!("list {} vanished while loading", prepared.list_id))),
            Err(e) => {
                self.discard_list(&prepared.list_id).await;
                Err(e)
            }
        }
    }

    /// Stages an import for a host that cannot write a whole list in one
    /// invocation (the edge): the checked entries are stored in chunks, and
    /// scheduled rounds load them ([`Gateway::load_staged_lists`]) and switch
    /// the version in once all are loaded. The list row is written after the
    /// chunks, so a host that dies while staging leaves nothing to load.
    /// A newer staged version of the same source supersedes an older one.
    pub async fn stage_list_import(
        &self,
        environment: Environment,
        source: &str,
        format: ListFormat,
        entries: Vec<ListEntry>,
        actor: &str,
    ) -> ApiResult<ImportSummary> {
        let outcome = self.stage_list_version(environment, source, format, entries, actor).await;
        self.audited_import(environment, source, actor, outcome).await
    }

    async fn stage_list_version(
        &self,
        environment: Environment,
        source: &str,
        format: ListFormat,
        entries: Vec<ListEntry>,
        actor: &str,
    ) -> ApiResult<ImportSummary> {
        let prepared = self.prepare_import(environment, source, entries).await?;
        let chunks: Vec<Stmt> = staged_chunks(&prepared.rows)
            .into_iter()
            .enumerate()
            .map(|(chunk_no, entries)| {
                Stmt::new(
                    "INSERT INTO sanctions_import_chunks (list_id, chunk_no, entries) VALUES (?1, ?2, ?3)",
                    vec![prepared.list_id.as_str().into(), (chunk_no as i64).into(), entries.into()],
                )
            })
            .collect();
        let superseded = self.list_ids(environment, source, "staging").await?;
        let mut batches: Vec<Vec<Stmt>> = Vec::new();
        let mut chunks = chunks.into_iter().peekable();
        while chunks.peek().is_some() {
            batches.push(chunks.by_ref().take(STAGE_BATCH).collect());
        }
        // The list row last: until it is written, no round loads a chunk.
        batches.push(vec![
            Stmt::new(
                "UPDATE sanctions_lists SET status = 'replaced' WHERE environment = ?1 AND source = ?2 AND status = 'staging'",
                vec![environment.as_str().into(), source.into()],
            ),
            prepared.list_row(self, environment, source, format, actor, "staging"),
        ]);
        for batch in batches {
            if let Err(e) = self.store.batch(batch).await {
                self.discard_list(&prepared.list_id).await;
                return Err(e.into());
            }
        }
        for old in superseded {
            self.discard_list(&old).await;
        }
        Ok(prepared.summary(source, None))
    }

    /// An import's outcome, with a refusal audited.
    async fn audited_import(
        &self,
        environment: Environment,
        source: &str,
        actor: &str,
        outcome: ApiResult<ImportSummary>,
    ) -> ApiResult<ImportSummary> {
        if let Err(refusal) = &outcome {
            self.audit_refused_list_import(environment, source, actor, refusal.code).await;
        }
        outcome
    }

    /// Loads up to `chunks` staged chunks, each in one batch with the removal
    /// of its chunk (so two hosts cannot both load one), and switches in each
    /// staged version that has none left.
    pub async fn load_staged_lists(&self, chunks: usize) -> ApiResult<StagedLoad> {
        let mut report = StagedLoad::default();
        for list_id in self.staging_list_ids().await? {
            let budget = chunks.saturating_sub(report.chunks_loaded);
            if budget == 0 {
                report.more = true;
                break;
            }
            let waiting = self
                .store
                .query(
                    "SELECT chunk_no, entries FROM sanctions_import_chunks WHERE list_id = ?1 ORDER BY chunk_no LIMIT ?2",
                    vec![list_id.as_str().into(), (budget as i64 + 1).into()],
                )
                .await?;
            for chunk in waiting.iter().take(budget) {
                let chunk_no = chunk.int(0)?;
                let Some(rows) = LoadRow::chunk_from_json(&chunk.text(1)?) else {
                    self.discard_list(&list_id).await;
                    return Err(
                        ApiError::internal().with_detail(format!("staged chunk {chunk_no} of {list_id} is unreadable: the import was dropped"))
                    );
                };
                let mut statements = self.entry_statements(&list_id, &rows)?;
                statements.push(Stmt::expect_one(
                    "DELETE FROM sanctions_import_chunks WHERE list_id = ?1 AND chunk_no = ?2",
                    vec![list_id.as_str().into(), chunk_no.into()],
                ));
                match self.store.batch(statements).await {
                    Ok(()) => report.chunks_loaded += 1,
                    // another host loaded it
                    Err(StoreError::Conflict { .. } | StoreError::Unique) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            if waiting.len() > budget {
                report.more = true;
                break;
            }
            match self.activate_list(&list_id).await? {
                Switched::Done(_) => report.lists_activated += 1,
                // another host is loading its last chunk or switched it in
                Switched::NotReady => report.more = true,
            }
        }
        Ok(report)
    }

    /// Reads and checks a new version against the active one, and tells the
    /// entries that changed apart.
    async fn prepare_import(&self, environment: Environment, source: &str, entries: Vec<ListEntry>) -> ApiResult<PreparedImport> {
        if entries.is_empty() {
            return Err(ApiError::bad_request("invalid_list", "the list has no entries"));
        }
        if source.is_empty() || source.len() > 64 || !source.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err(ApiError::bad_request("invalid_field", "source must be 1 to 64 letters, digits, - or _"));
        }
        let active = self
            .store
            .query(
                "SELECT list_id, entry_count FROM sanctions_lists WHERE environment = ?1 AND source = ?2 AND status = 'active'",
                vec![environment.as_str().into(), source.into()],
            )
            .await?;
        let previous = active.first().map(|r| Ok::<_, ApiError>((r.text(0)?, r.int(1)?))).transpose()?;
        if let Some((_, count)) = &previous {
            if (entries.len() as f64) < (*count as f64) * MIN_SHARE_OF_ACTIVE {
                return Err(ApiError::bad_request(
                    "invalid_list",
                    format!(
                        "the list has {} entries, less than half of the {count} of the active version: taken for a truncated file",
                        entries.len()
                    ),
                ));
            }
        }
        // What each entry was in the active version, to tell changes apart.
        let mut before: HashMap<String, String> = HashMap::new();
        if let Some((list_id, _)) = &previous {
            for row in self.store.query("SELECT entity_id, fingerprint FROM sanctions_entries WHERE list_id = ?1", vec![list_id.into()]).await? {
                before.insert(row.text(0)?, row.text(1)?);
            }
        }
        let mut digest = Sha256::new();
        let mut changed = 0;
        let mut names = 0;
        let mut rows = Vec::with_capacity(entries.len());
        for (entry_no, entry) in entries.into_iter().enumerate() {
            let fingerprint = entry_fingerprint(&entry);
            digest.update(fingerprint.as_bytes());
            let is_changed = before.get(&entry.entity_id) != Some(&fingerprint);
            changed += usize::from(is_changed);
            names += entry.names.len();
            rows.push(LoadRow { entry_no: entry_no as i64, entry, fingerprint, changed: is_changed });
        }
        let version = hex::encode(&digest.finalize()[..8]);
        Ok(PreparedImport { list_id: self.new_id("lst"), version, names, changed, rows })
    }

    /// Switches a loaded version in: the old version out, the new one in, in
    /// one batch with the audit row. A staged version switches only once no
    /// chunk of it waits.
    async fn activate_list(&self, list_id: &str) -> ApiResult<Switched> {
        let rows = self
            .store
            .query(
                "SELECT environment, source, changed_count, imported_by FROM sanctions_lists WHERE list_id = ?1 AND status IN ('loading', 'staging')",
                vec![list_id.into()],
            )
            .await?;
        let Some(row) = rows.first() else { return Ok(Switched::NotReady) };
        let (environment, source, changed, actor) = (row.text(0)?, row.text(1)?, row.int(2)?, row.opt_text(3)?.unwrap_or_default());
        let environment = Environment::parse(&environment).ok_or_else(ApiError::internal)?;
        let previous = self.list_ids(environment, &source, "active").await?.into_iter().next();
        let now = self.clock.now();
        let switch = vec![
            Stmt::new(
                "UPDATE sanctions_lists SET status = 'replaced', rescreen_pending = 0 WHERE environment = ?1 AND source = ?2 AND status = 'active'",
                vec![environment.as_str().into(), source.as_str().into()],
            ),
            Stmt::expect_one(
                "UPDATE sanctions_lists SET status = 'active', activated_at = ?2, rescreen_pending = ?3
                 WHERE list_id = ?1 AND status IN ('loading', 'staging') AND NOT EXISTS (SELECT 1 FROM sanctions_import_chunks WHERE list_id = ?1)",
                vec![list_id.into(), now.into(), i64::from(changed > 0).into()],
            ),
            self.list_import_audit(environment, &actor, &source, list_id, "ok"),
        ];
        match self.store.batch(switch).await {
            Ok(()) => {}
            Err(StoreError::Conflict { .. }) => return Ok(Switched::NotReady),
            Err(e) => return Err(e.into()),
        }
        if let Some(old) = &previous {
            self.discard_list(old).await;
        }
        Ok(Switched::Done(previous))
    }

    /// The ids of a source's versions in one status.
    async fn list_ids(&self, environment: Environment, source: &str, status: &str) -> ApiResult<Vec<String>> {
        let rows = self
            .store
            .query(
                "SELECT list_id FROM sanctions_lists WHERE environment = ?1 AND source = ?2 AND status = ?3 ORDER BY imported_at",
                vec![environment.as_str().into(), source.into(), status.into()],
            )
            .await?;
        rows.iter().map(|r| Ok(r.text(0)?)).collect()
    }

    async fn staging_list_ids(&self) -> ApiResult<Vec<String>> {
        let rows = self.store.query("SELECT list_id FROM sanctions_lists WHERE status = 'staging' ORDER BY imported_at, list_id", vec![]).await?;
        rows.iter().map(|r| Ok(r.text(0)?)).collect()
    }

    /// The inserts of some entries and their index keys, a few rows a
    /// statement (D1 binds at most 100 parameters). The last statement of
    /// each kind repeats its last row to fill its slots; `ON CONFLICT DO
    /// NOTHING` makes the repeats no-ops.
    fn entry_statements(&self, list_id: &str, rows: &[LoadRow]) -> ApiResult<Vec<Stmt>> {
        let all_names: Vec<String> = rows.iter().flat_map(|r| r.entry.names.iter().cloned()).collect();
        let mut keys = self.rules.index_keys(&all_names)?.into_iter();
        let mut key_rows: Vec<(i64, String)> = Vec::new();
        for row in rows {
            let mut entry_keys: Vec<String> = keys.by_ref().take(row.entry.names.len()).flatten().collect();
            entry_keys.sort();
            entry_keys.dedup();
            key_rows.extend(entry_keys.into_iter().map(|k| (row.entry_no, k)));
        }
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
        Ok(statements)
    }

    /// Deletes a list version's rows (a failed load, or a replaced version).
    async fn discard_list(&self, list_id: &str) {
        let statements = vec![
            Stmt::new("DELETE FROM sanctions_import_chunks WHERE list_id = ?1", vec![list_id.into()]),
            Stmt::new("DELETE FROM sanctions_keys WHERE list_id = ?1", vec![list_id.into()]),
            Stmt::new("DELETE FROM sanctions_entries WHERE list_id = ?1", vec![list_id.into()]),
            Stmt::new("DELETE FROM sanctions_lists WHERE list_id = ?1 AND status <> 'active'", vec![list_id.into()]),
        ];
        // A leftover is harmless: only active lists are read.
        let _ = self.store.batch(statements).await;
    }

    async fn active_lists(&self, environment: Environment) -> ApiResult<Vec<ActiveList>> {
        let rows = self
            .store
            .query(
                "SELECT list_id, source FROM sanctions_lists WHERE environment = ?1 AND status = 'active' ORDER BY source",
                vec![environment.as_str().into()],
            )
            .await?;
        rows.iter().map(|r| Ok(ActiveList { list_id: r.text(0)?, source: r.text(1)? })).collect()
    }

    /// Whether the environment has a list to screen against.
    pub(crate) async fn has_lists(&self, environment: Environment) -> ApiResult<bool> {
        Ok(!self.active_lists(environment).await?.is_empty())
    }

    /// The entries of the environment's active lists that share the most
    /// index keys with `name`, among `entries`.
    pub(crate) async fn list_candidates(&self, environment: Environment, name: &str, entries: Entries<'_>) -> ApiResult<Vec<ListCandidate>> {
        let mut lists = self.active_lists(environment).await?;
        if let Entries::ChangedIn(list_id) = entries {
            lists.retain(|l| l.list_id == list_id);
        }
        let changed_only = matches!(entries, Entries::ChangedIn(_));
        if lists.is_empty() {
            return Ok(Vec::new());
        }
        let keys = self.rules.index_keys(&[name.to_string()])?.into_iter().next().unwrap_or_default();
        // The store ranks the entries by shared keys, KEYS_PER_READ keys a
        // statement (unused slots hold a key no name has).
        let mut reads = Vec::new();
        let mut read_list = Vec::new();
        for (i, list) in lists.iter().enumerate() {
            for chunk in keys.chunks(KEYS_PER_READ) {
                let mut params = vec![list.list_id.as_str().into(), changed_only.into(), (MAX_CANDIDATES as i64).into()];
                params.extend((0..KEYS_PER_READ).map(|k| chunk.get(k).map_or("", String::as_str).into()));
                reads.push(Read::new(
                    "SELECT k.entry_no, COUNT(*) AS shared FROM sanctions_keys k JOIN sanctions_entries e ON e.list_id = k.list_id AND e.entry_no = k.entry_no
                     WHERE k.list_id = ?1 AND k.index_key IN (?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) AND (?2 = 0 OR e.changed = 1)
                     GROUP BY k.entry_no ORDER BY shared DESC, k.entry_no LIMIT ?3",
                    params,
                ));
                read_list.push(i);
            }
        }
        if reads.is_empty() {
            return Ok(Vec::new());
        }
        let mut hits: HashMap<(usize, i64), i64> = HashMap::new();
        for (rows, list) in self.store.query_many(reads).await?.iter().zip(&read_list) {
            for row in rows {
                *hits.entry((*list, row.int(0)?)).or_default() += row.int(1)?;
            }
        }
        let mut ranked: Vec<((usize, i64), i64)> = hits.into_iter().collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(MAX_CANDIDATES);
        let picks: Vec<(usize, i64)> = ranked.into_iter().map(|(k, _)| k).collect();
        let reads = picks
            .iter()
            .filter_map(|(list, entry_no)| {
                lists.get(*list).map(|l| {
                    Read::new(
                        "SELECT entity_id, kind, names, dates_of_birth, nationalities FROM sanctions_entries WHERE list_id = ?1 AND entry_no = ?2",
                        vec![l.list_id.as_str().into(), (*entry_no).into()],
                    )
                })
            })
            .collect();
        let mut candidates = Vec::with_capacity(picks.len());
        for ((list, _), rows) in picks.iter().zip(self.store.query_many(reads).await?) {
            let (Some(row), Some(list)) = (rows.first(), lists.get(*list)) else { continue };
            candidates.push(candidate_from_row(&list.source, row)?);
        }
        Ok(candidates)
    }

    /// `GET /v1/admin/sanctions/search?name=…[&date_of_birth=…][&nationality=…][&limit=…]`:
    /// the environment's list entries scored against a name, best first.
    pub(crate) async fn search_lists(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let name = ctx.query.required("name")?.trim().to_string();
        if name.is_empty() || name.chars().count() > 200 {
            return Err(ApiError::bad_request("invalid_field", "name must be 1 to 200 characters"));
        }
        let date_of_birth = ctx.query.get("date_of_birth").unwrap_or("").to_string();
        if !date_of_birth.is_empty() && time::parse_date(&date_of_birth).is_none() {
            return Err(ApiError::bad_request("invalid_field", "date_of_birth must be YYYY-MM-DD"));
        }
        let nationality = ctx.query.get("nationality").unwrap_or("").to_ascii_uppercase();
        if !nationality.is_empty() && (nationality.len() != 2 || !nationality.bytes().all(|b| b.is_ascii_alphabetic())) {
            return Err(ApiError::bad_request("invalid_field", "nationality must be a two-letter country code"));
        }
        let limit = ctx.query.page_limit(20, 100)?;
        let candidates = self.list_candidates(ctx.caller.environment, &name, Entries::All).await?;
        let query = NameQuery { name, date_of_birth, nationality };
        let scored = self.rules.score_names(&query, &candidates)?;
        let results: Vec<Json> = scored
            .iter()
            .take(limit as usize)
            .filter_map(|s| {
                let c = candidates.get(s.index as usize)?;
                Some(json!({
                    "entity_id": c.entity_id,
                    "source": c.source,
                    "name": s.name,
                    "score": s.score,
                    "primary_name": c.names.first(),
                    "aliases": c.names.iter().skip(1).collect::<Vec<_>>(),
                    "dates_of_birth": c.dates_of_birth,
                    "nationalities": c.nationalities,
                    "score_breakdown": {
                        "name": s.name_score,
                        "date_of_birth": s.date_of_birth_adjustment,
                        "nationality": s.nationality_adjustment,
                    },
                }))
            })
            .collect();
        Ok(Reply::ok(json!({ "results": results })))
    }

    /// `GET /v1/admin/sanctions/lists`: the environment's lists, active first.
    pub(crate) async fn list_lists(&self, ctx: &Ctx<'_>) -> ApiResult<Reply> {
        let rows = self
            .store
            .query(
                "SELECT list_id, source, format, version, entry_count, changed_count, status, imported_at, activated_at, rescreen_pending
                 FROM sanctions_lists WHERE environment = ?1 AND status = 'active' ORDER BY source",
                vec![ctx.caller.environment.as_str().into()],
            )
            .await?;
        let lists: Vec<Json> = rows
            .iter()
            .map(|r| {
                Ok(json!({
                    "list_id": r.text(0)?,
                    "source": r.text(1)?,
                    "format": r.text(2)?,
                    "version": r.text(3)?,
                    "entry_count": r.int(4)?,
                    "changed_entries": r.int(5)?,
                    "status": r.text(6)?,
                    "imported_at": time::format(r.int(7)?),
                    "activated_at": time::json_opt(r.opt_int(8)?),
                    "rescreen_pending": r.bool(9)?,
                }))
            })
            .collect::<ApiResult<_>>()?;
        Ok(Reply::ok(json!({ "lists": lists })))
    }

    /// Users of environments whose lists changed, screened against the changed
    /// entries only, `batch` at a time; answers how many were screened.
    pub(crate) async fn rescreen_after_list_changes(&self, batch: i64) -> ApiResult<usize> {
        // Every changed list takes its turn in the round, within one budget of users.
        let pending = self
            .store
            .query(
                "SELECT list_id, environment, rescreen_tenant, rescreen_user FROM sanctions_lists WHERE status = 'active' AND rescreen_pending = 1
                 ORDER BY activated_at LIMIT 16",
                vec![],
            )
            .await?;
        let mut screened = 0;
        let mut budget = batch;
        for job in &pending {
            if budget <= 0 {
                break;
            }
            let looked_at = self.rescreen_one_list(job, budget).await?;
            screened += looked_at.0;
            budget -= looked_at.1;
        }
        Ok(screened)
    }

    /// One list's turn: up to `batch` users after its cursor; answers how
    /// many were screened and how many were looked at.
    async fn rescreen_one_list(&self, job: &Row, batch: i64) -> ApiResult<(usize, i64)> {
        let (list_id, environment, after_tenant, after_user) = (job.text(0)?, job.text(1)?, job.text(2)?, job.text(3)?);
        let environment = Environment::parse(&environment).ok_or_else(ApiError::internal)?;
        let users = self
            .store
            .query(
                "SELECT u.tenant_id, u.external_user_id, t.clock_offset_seconds, u.sanctions_status FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
                 WHERE t.environment = ?1 AND (u.tenant_id > ?2 OR (u.tenant_id = ?2 AND u.external_user_id > ?3))
                 ORDER BY u.tenant_id, u.external_user_id LIMIT ?4",
                vec![environment.as_str().into(), after_tenant.as_str().into(), after_user.as_str().into(), batch.into()],
            )
            .await?;
        let mut screened = 0;
        for user in &users {
            let (tenant, user_id) = (user.text(0)?, user.text(1)?);
            let status = SanctionsStatus::parse(&user.text(3)?).ok_or_else(ApiError::internal)?;
            // Users under review or confirmed stay as they are.
            if status.holds_transactions() {
                continue;
            }
            let now = match environment {
                Environment::Sandbox => self.clock.now().saturating_add(user.int(2)?),
                Environment::Production => self.clock.now(),
            };
            self.rescreen_user(&tenant, &user_id, now, Entries::ChangedIn(&list_id)).await?;
            screened += 1;
        }
        let done = (users.len() as i64) < batch;
        let (last_tenant, last_user) = match users.last() {
            Some(u) => (u.text(0)?, u.text(1)?),
            None => (after_tenant, after_user),
        };
        self.store
            .batch(vec![Stmt::new(
                "UPDATE sanctions_lists SET rescreen_tenant = ?2, rescreen_user = ?3, rescreen_pending = ?4 WHERE list_id = ?1",
                vec![list_id.as_str().into(), last_tenant.into(), last_user.into(), (!done).into()],
            )])
            .await?;
        Ok((screened, users.len() as i64))
    }
}

fn entry_fingerprint(entry: &ListEntry) -> String {
    let canonical = json!([entry.entity_id, entry.kind.as_str(), entry.names, entry.dates_of_birth, entry.nationalities, entry.programs]);
    hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
}

fn candidate_from_row(source: &str, row: &Row) -> ApiResult<ListCandidate> {
    let list = |i: usize| -> ApiResult<Vec<String>> { serde_json::from_str(&row.text(i)?).map_err(|_| ApiError::internal()) };
    Ok(ListCandidate {
        source: source.to_string(),
        entity_id: row.text(0)?,
        kind: EntryKind::parse(&row.text(1)?).unwrap_or(EntryKind::Unknown),
        names: list(2)?,
        dates_of_birth: list(3)?,
        nationalities: list(4)?,
    })
}
