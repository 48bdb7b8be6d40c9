//! Sanctions lists in the store: imports that replace a source atomically,
//! candidate retrieval through an index of the rules' keys, the compliance
//! team's search, and the re-screening of users after a list changes.
//!
//! The store only proposes candidates (entries sharing an index key with the
//! name); the rules component scores them, so the scoring is part of the
//! audited rules version. The area's SQL is in [`store`].

pub mod countries;
pub mod parse;
pub mod refresh;
pub(crate) mod store;

use std::collections::HashMap;

use rules_model::{ListCandidate, NameQuery, ScreenedSource, ScreeningScope};
use serde::Serialize;
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::input::Params;
use crate::openapi::answer::Answer;
use crate::openapi::OperationDoc;
use crate::ports::{Stmt, StoreError};
use crate::{time, Ctx, Gateway};
pub use parse::{ListEntry, ListFormat};
pub use refresh::ListSource;
use store::{ListStatus, LoadRow, KEYS_PER_READ};

/// At most this many entries are scored for one name: those sharing the most
/// index keys with it.
const MAX_CANDIDATES: usize = store::SCREENING_CANDIDATES;
/// An analyst's OFAC-mode search scores more: OFAC's tool scores the whole
/// list, and a common word (`VLADIMIR`, `MOHAMMED`) is shared by hundreds of
/// entries that its whole-name technique may score at 80 or more.
const OFAC_CANDIDATES: usize = 256;
/// Entries written per batch while an import loads inline.
const IMPORT_BATCH: usize = 400;
/// Names given their index keys per call of the rules: every call has a
/// deadline (100 ms natively), and a batch's 400 entries of three-word names
/// (issue #29's five key families, each name read twice) overran it on a busy
/// 2-core machine, so the import failed with `rules_unavailable`.
const NAMES_KEYED_PER_CALL: usize = 64;
/// Entries a staged chunk holds at most, and its size past which it closes.
const STAGED_CHUNK_ENTRIES: usize = 100;
const STAGED_CHUNK_BYTES: usize = 48 * 1024;
/// Staged chunks written per batch.
const STAGE_BATCH: usize = 50;
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
    /// The version's row in `status` (loading or staging).
    fn list_row(&self, gateway: &Gateway, environment: Environment, source: &str, format: ListFormat, actor: &str, status: ListStatus) -> Stmt {
        store::insert_list(store::NewList {
            list_id: &self.list_id,
            environment,
            source,
            format,
            version: &self.version,
            entry_count: self.rows.len(),
            changed_count: self.changed,
            status,
            now: gateway.clock.now(),
            actor,
        })
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

/// Which list entries a look-up considers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Entries<'a> {
    /// every entry of every active list: a screening
    All,
    /// the entries one import added or changed: the re-screen after it
    ChangedIn(&'a str),
}

/// Imports a list as a new version of `source`: the entries load beside
/// the active version and replace it in one batch; a list that reads as
/// nothing, or as less than half of the active one, replaces nothing.
/// `actor` is who asked, for the admin audit log: `cli`, `list-refresh`
/// or an admin key id. A refused import is audited too.
pub async fn import(
    gw: &Gateway,
    environment: Environment,
    source: &str,
    format: ListFormat,
    entries: Vec<ListEntry>,
    actor: &str,
) -> ApiResult<ImportSummary> {
    let outcome = import_version(gw, environment, source, format, entries, actor).await;
    audited_import(gw, environment, source, actor, outcome).await
}

/// Records an import that replaced nothing: a file that did not read, a
/// download that failed, a refusal; `reason` is a stable code.
pub async fn audit_refused_import(gw: &Gateway, environment: Environment, source: &str, actor: &str, reason: &str) {
    let audit = import_audit(gw, environment, actor, source, &gw.new_id("lst"), reason);
    if let Err(e) = gw.store.batch(vec![audit]).await {
        tracing::error!(target: "audit", source, error = %e, "the audit of a refused list import failed");
    }
}

/// The admin audit row of a list import: `reason` is `ok` or the refusal's code.
fn import_audit(gw: &Gateway, environment: Environment, actor: &str, source: &str, list_id: &str, reason: &str) -> Stmt {
    store::audit_import(store::ImportAudit { audit_id: &gw.new_id("aud"), environment, actor, source, list_id, reason, now: gw.clock.now() })
}

async fn import_version(
    gw: &Gateway,
    environment: Environment,
    source: &str,
    format: ListFormat,
    entries: Vec<ListEntry>,
    actor: &str,
) -> ApiResult<ImportSummary> {
    let prepared = prepare_import(gw, environment, source, entries).await?;
    let list_row = prepared.list_row(gw, environment, source, format, actor, ListStatus::Loading);
    gw.store.batch(vec![list_row]).await?;
    let loaded = async {
        for group in prepared.rows.chunks(IMPORT_BATCH) {
            gw.store.batch(entry_statements(gw, &prepared.list_id, group)?).await?;
        }
        Ok::<_, ApiError>(())
    };
    if let Err(e) = loaded.await {
        discard_version(gw, &prepared.list_id).await;
        return Err(e);
    }
    match activate_version(gw, &prepared.list_id).await {
        Ok(Switched::Done(replaced)) => Ok(prepared.summary(source, replaced)),
        // an inline load has no chunks: only a concurrent discard gets here
        Ok(Switched::NotReady) => Err(ApiError::internal().with_detail(format!("list {} vanished while loading", prepared.list_id))),
        Err(e) => {
            discard_version(gw, &prepared.list_id).await;
            Err(e)
        }
    }
}

/// Stages an import for a host that cannot write a whole list in one
/// invocation (the edge): the checked entries are stored in chunks, and
/// scheduled rounds load them ([`load_staged`]) and switch
/// the version in once all are loaded. The list row is written after the
/// chunks, so a host that dies while staging leaves nothing to load.
/// A newer staged version of the same source supersedes an older one.
pub async fn stage_import(
    gw: &Gateway,
    environment: Environment,
    source: &str,
    format: ListFormat,
    entries: Vec<ListEntry>,
    actor: &str,
) -> ApiResult<ImportSummary> {
    let outcome = stage_version(gw, environment, source, format, entries, actor).await;
    audited_import(gw, environment, source, actor, outcome).await
}

async fn stage_version(
    gw: &Gateway,
    environment: Environment,
    source: &str,
    format: ListFormat,
    entries: Vec<ListEntry>,
    actor: &str,
) -> ApiResult<ImportSummary> {
    let prepared = prepare_import(gw, environment, source, entries).await?;
    let chunks: Vec<Stmt> = staged_chunks(&prepared.rows)
        .into_iter()
        .enumerate()
        .map(|(chunk_no, entries)| store::insert_chunk(&prepared.list_id, chunk_no, entries))
        .collect();
    let superseded = store::list_ids(gw.store.as_ref(), environment, source, ListStatus::Staging).await?;
    let mut batches: Vec<Vec<Stmt>> = Vec::new();
    let mut chunks = chunks.into_iter().peekable();
    while chunks.peek().is_some() {
        batches.push(chunks.by_ref().take(STAGE_BATCH).collect());
    }
    // The list row last: until it is written, no round loads a chunk.
    batches.push(vec![store::supersede_staging(environment, source), prepared.list_row(gw, environment, source, format, actor, ListStatus::Staging)]);
    for batch in batches {
        if let Err(e) = gw.store.batch(batch).await {
            discard_version(gw, &prepared.list_id).await;
            return Err(e.into());
        }
    }
    for old in superseded {
        discard_version(gw, &old).await;
    }
    Ok(prepared.summary(source, None))
}

/// An import's outcome, with a refusal audited.
async fn audited_import(
    gw: &Gateway,
    environment: Environment,
    source: &str,
    actor: &str,
    outcome: ApiResult<ImportSummary>,
) -> ApiResult<ImportSummary> {
    if let Err(refusal) = &outcome {
        audit_refused_import(gw, environment, source, actor, refusal.code).await;
    }
    outcome
}

/// Loads up to `chunks` staged chunks, each in one batch with the removal
/// of its chunk (so two hosts cannot both load one), and switches in each
/// staged version that has none left.
pub async fn load_staged(gw: &Gateway, chunks: usize) -> ApiResult<StagedLoad> {
    let mut report = StagedLoad::default();
    for list_id in store::staging_list_ids(gw.store.as_ref()).await? {
        let budget = chunks.saturating_sub(report.chunks_loaded);
        if budget == 0 {
            report.more = true;
            break;
        }
        let waiting = store::waiting_chunks(gw.store.as_ref(), &list_id, budget + 1).await?;
        for (chunk_no, entries) in waiting.iter().take(budget) {
            let chunk_no = *chunk_no;
            let Some(rows) = LoadRow::chunk_from_json(entries) else {
                discard_version(gw, &list_id).await;
                return Err(ApiError::internal().with_detail(format!("staged chunk {chunk_no} of {list_id} is unreadable: the import was dropped")));
            };
            let mut statements = entry_statements(gw, &list_id, &rows)?;
            statements.push(store::remove_loaded_chunk(&list_id, chunk_no));
            match gw.store.batch(statements).await {
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
        match activate_version(gw, &list_id).await? {
            Switched::Done(_) => report.lists_activated += 1,
            // another host is loading its last chunk or switched it in
            Switched::NotReady => report.more = true,
        }
    }
    Ok(report)
}

/// Reads and checks a new version against the active one, and tells the
/// entries that changed apart.
async fn prepare_import(gw: &Gateway, environment: Environment, source: &str, entries: Vec<ListEntry>) -> ApiResult<PreparedImport> {
    if entries.is_empty() {
        return Err(ApiError::bad_request("invalid_list", "the list has no entries"));
    }
    if source.is_empty() || source.len() > 64 || !source.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
        return Err(ApiError::bad_request("invalid_field", "source must be 1 to 64 letters, digits, - or _"));
    }
    let previous = store::active_version(gw.store.as_ref(), environment, source).await?;
    if let Some(store::ActiveVersion { entry_count: count, .. }) = &previous {
        if (entries.len() as f64) < (*count as f64) * MIN_SHARE_OF_ACTIVE {
            return Err(ApiError::bad_request(
                "invalid_list",
                format!("the list has {} entries, less than half of the {count} of the active version: taken for a truncated file", entries.len()),
            ));
        }
    }
    // What each entry was in the active version, to tell changes apart. While
    // that version's re-screen has users left, what it changed is marked
    // changed again: the new version's re-screen, from the first user, takes
    // its place (else the users it had not reached never meet those entries;
    // its delistings reach them as every delisting does, by the cases'
    // matches, see `activate_version`). The count is the new version's own.
    let mut before: HashMap<String, (String, bool)> = HashMap::new();
    if let Some(active) = &previous {
        for (entity, fingerprint, changed) in store::fingerprints(gw.store.as_ref(), &active.list_id).await? {
            before.insert(entity, (fingerprint, changed && active.rescreen_pending));
        }
    }
    let mut digest = Sha256::new();
    let mut changed = 0;
    let mut names = 0;
    let mut rows = Vec::with_capacity(entries.len());
    let mut listed = std::collections::HashSet::new();
    for (entry_no, entry) in entries.into_iter().enumerate() {
        let fingerprint = entry_fingerprint(&entry);
        digest.update(fingerprint.as_bytes());
        let (own, carried) = match before.get(&entry.entity_id) {
            Some((was, carried)) => (*was != fingerprint, *carried),
            None => (true, false),
        };
        changed += usize::from(own);
        names += entry.names.len();
        listed.insert(entry.entity_id.clone());
        rows.push(LoadRow { entry_no: entry_no as i64, entry, fingerprint, changed: own || carried });
    }
    // a delisting is a change too: the users under review whose cases matched it are re-screened
    changed += before.keys().filter(|entity| !listed.contains(*entity)).count();
    let version = hex::encode(&digest.finalize()[..8]);
    Ok(PreparedImport { list_id: gw.new_id("lst"), version, names, changed, rows })
}

/// Switches a loaded version in: the old version out, the new one in, in
/// one batch with the audit row. A staged version switches only once no
/// chunk of it waits.
async fn activate_version(gw: &Gateway, list_id: &str) -> ApiResult<Switched> {
    let Some(waiting) = store::waiting_version(gw.store.as_ref(), list_id).await? else { return Ok(Switched::NotReady) };
    let store::WaitingVersion { environment, source, changed_count, actor } = waiting;
    let active = store::active_version(gw.store.as_ref(), environment, &source).await?;
    // a version whose re-screen has users left hands it on: the new one's runs, from the first user
    let rescreen = changed_count > 0 || active.as_ref().is_some_and(|a| a.rescreen_pending);
    let previous = active.map(|a| a.list_id);
    // the planner learns of the loaded rows before any screening reads them
    if let Err(e) = gw.store.refresh_statistics(store::LIST_TABLES).await {
        tracing::warn!(target: "lists", list_id, error = %e, "the planner's statistics were not refreshed after a list load");
    }
    let now = gw.clock.now();
    let [out, switched_in] = store::switch_in(environment, &source, list_id, now, rescreen);
    let switch = vec![out, switched_in, import_audit(gw, environment, &actor, &source, list_id, "ok")];
    match gw.store.batch(switch).await {
        Ok(()) => {}
        Err(StoreError::Conflict { .. }) => return Ok(Switched::NotReady),
        Err(e) => return Err(e.into()),
    }
    if let Some(old) = &previous {
        discard_version(gw, old).await;
    }
    Ok(Switched::Done(previous))
}

/// The inserts of some entries and of the index keys of their names.
fn entry_statements(gw: &Gateway, list_id: &str, rows: &[LoadRow]) -> ApiResult<Vec<Stmt>> {
    let all_names: Vec<String> = rows.iter().flat_map(|r| r.entry.names.iter().cloned()).collect();
    let mut keyed = Vec::with_capacity(all_names.len());
    for names in all_names.chunks(NAMES_KEYED_PER_CALL) {
        keyed.extend(gw.rules.index_keys(names)?);
    }
    let mut keys = keyed.into_iter();
    let mut key_rows: Vec<(i64, String)> = Vec::new();
    for row in rows {
        let mut entry_keys: Vec<String> = keys.by_ref().take(row.entry.names.len()).flatten().collect();
        entry_keys.sort();
        entry_keys.dedup();
        key_rows.extend(entry_keys.into_iter().map(|k| (row.entry_no, k)));
    }
    Ok(store::insert_entries(list_id, rows, &key_rows))
}

/// Deletes a list version's rows (a failed load, or a replaced version).
async fn discard_version(gw: &Gateway, list_id: &str) {
    let statements = store::discard(list_id);
    // A leftover is harmless: only active lists are read.
    let _ = gw.store.batch(statements).await;
}

/// Whether the environment has a list to screen against.
pub(crate) async fn has_any(gw: &Gateway, environment: Environment) -> ApiResult<bool> {
    Ok(!store::active_lists(gw.store.as_ref(), environment).await?.is_empty())
}

/// The entries of the environment's active lists that share the most
/// index keys with `name`, those born in the person's year counting
/// [`store::BORN_RANK`] keys more, among `entries`, and the list versions
/// they were sought in.
pub(crate) async fn candidates(
    gw: &Gateway,
    environment: Environment,
    name: &str,
    date_of_birth: &str,
    entries: Entries<'_>,
    scope: ScreeningScope,
    read_lists: Option<Vec<store::ActiveList>>,
) -> ApiResult<(Vec<ListCandidate>, Vec<ScreenedSource>)> {
    candidates_up_to(gw, environment, name, date_of_birth, entries, scope, MAX_CANDIDATES, false, read_lists).await
}

/// [`candidates`], with at most `cut` entries proposed; by the
/// first word as written too when `whole_name` (OFAC mode, whose
/// whole-name technique reads words in order; the screening score does
/// not, and a query's given name heading it would rank every entry that
/// begins with it above the person).
#[allow(clippy::too_many_arguments)]
async fn candidates_up_to(
    gw: &Gateway,
    environment: Environment,
    name: &str,
    date_of_birth: &str,
    entries: Entries<'_>,
    scope: ScreeningScope,
    cut: usize,
    whole_name: bool,
    // the environment's active lists when the caller read them in its own batch
    read_lists: Option<Vec<store::ActiveList>>,
) -> ApiResult<(Vec<ListCandidate>, Vec<ScreenedSource>)> {
    let birth_year = date_of_birth.get(..4).filter(|y| y.bytes().all(|b| b.is_ascii_digit()));
    let mut lists = match read_lists {
        Some(lists) => lists,
        None => store::active_lists(gw.store.as_ref(), environment).await?,
    };
    if let Entries::ChangedIn(list_id) = entries {
        lists.retain(|l| l.list_id == list_id);
    }
    let sources = lists.iter().map(|l| ScreenedSource { source: l.source.clone(), version: l.version.clone() }).collect();
    let changed_only = matches!(entries, Entries::ChangedIn(_));
    if lists.is_empty() {
        return Ok((Vec::new(), sources));
    }
    let keys = gw.rules.query_keys(name, whole_name)?;
    // The store ranks the entries by shared keys, KEYS_PER_READ keys a statement.
    let mut reads = Vec::new();
    let mut read_list = Vec::new();
    for (i, list) in lists.iter().enumerate() {
        for chunk in keys.chunks(KEYS_PER_READ) {
            reads.push(store::read_ranked_entries(&list.list_id, changed_only, cut, chunk, scope, birth_year));
            read_list.push(i);
        }
    }
    if reads.is_empty() {
        return Ok((Vec::new(), sources));
    }
    let mut hits: HashMap<(usize, i64), (i64, bool)> = HashMap::new();
    for (rows, list) in store::read_entries(gw.store.as_ref(), reads).await?.iter().zip(&read_list) {
        for (entry_no, shared, born) in store::ranked_from(rows)? {
            let hit = hits.entry((*list, entry_no)).or_default();
            hit.0 += shared;
            hit.1 |= born;
        }
    }
    let mut ranked: Vec<((usize, i64), (i64, bool))> = hits.into_iter().collect();
    ranked.sort_by(|a, b| store::rank(b.1 .0, b.1 .1).cmp(&store::rank(a.1 .0, a.1 .1)).then(a.0.cmp(&b.0)));
    ranked.truncate(cut);
    let picks: Vec<(usize, i64)> = ranked.into_iter().map(|(k, _)| k).collect();
    if picks.is_empty() {
        // no entry shares a key: no round trip for their rows
        return Ok((Vec::new(), sources));
    }
    let reads = picks.iter().filter_map(|(list, entry_no)| lists.get(*list).map(|l| store::read_entry(&l.list_id, *entry_no))).collect();
    let mut candidates = Vec::with_capacity(picks.len());
    for ((list, _), rows) in picks.iter().zip(store::read_entries(gw.store.as_ref(), reads).await?) {
        let (Some(row), Some(list)) = (rows.first(), lists.get(*list)) else { continue };
        candidates.push(store::candidate_from(&list.source, row)?);
    }
    Ok((candidates, sources))
}

/// The query of `GET /v1/admin/sanctions/search`.
#[derive(serde::Deserialize, utoipa::IntoParams)]
pub(crate) struct SearchQuery {
    #[param(value_type = String, min_length = 1, max_length = 200)]
    name: SearchName,
    #[param(value_type = Option<String>, format = Date)]
    date_of_birth: Option<SearchDate>,
    #[param(value_type = Option<String>, pattern = "^[A-Za-z]{2}$")]
    nationality: Option<Nationality>,
    /// default 20
    #[param(inline)]
    limit: Option<SearchLimit>,
    /// `screening` (default): the screening score, with date of birth and
    /// nationality; `ofac`: the score OFAC's Sanctions List Search gives
    /// (FAQ 249), by name only, every kind of entry
    #[param(inline)]
    mode: Option<SearchMode>,
    /// only results scoring this much or more, from 0 to 100 (OFAC's slider)
    #[param(value_type = Option<u32>, minimum = 0, maximum = 100)]
    min_score: Option<MinScore>,
}

/// The `limit` of a search: 1 to 100.
type SearchLimit = crate::input::Limit<100>;

/// The name searched for, trimmed: 1 to 200 characters.
struct SearchName(String);

/// A date of birth, `YYYY-MM-DD`.
struct SearchDate(String);

/// A nationality: two letters, upper-cased.
struct Nationality(String);

/// The lowest score a result may have: 0 to 100.
struct MinScore(u32);

impl<'de> serde::Deserialize<'de> for SearchName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::input::parse_text(deserializer, crate::input::INVALID_FIELD, |text| {
            let name = text.trim();
            (!name.is_empty() && name.chars().count() <= 200)
                .then(|| SearchName(name.to_string()))
                .ok_or_else(|| "must be 1 to 200 characters".into())
        })
    }
}

impl<'de> serde::Deserialize<'de> for SearchDate {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::input::parse_text(deserializer, crate::input::INVALID_FIELD, |text| {
            time::parse_date(text).map(|_| SearchDate(text.to_string())).ok_or_else(|| "must be YYYY-MM-DD".into())
        })
    }
}

impl<'de> serde::Deserialize<'de> for Nationality {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::input::parse_text(deserializer, crate::input::INVALID_FIELD, |text| {
            let ok = text.len() == 2 && text.bytes().all(|b| b.is_ascii_alphabetic());
            ok.then(|| Nationality(text.to_ascii_uppercase())).ok_or_else(|| "must be a two-letter country code".into())
        })
    }
}

impl<'de> serde::Deserialize<'de> for MinScore {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::input::parse_text(deserializer, crate::input::INVALID_FIELD, |text| {
            text.parse::<u32>().ok().filter(|s| *s <= 100).map(MinScore).ok_or_else(|| "must be a whole number from 0 to 100".into())
        })
    }
}

/// How a search scores.
#[derive(utoipa::ToSchema, Serialize, serde::Deserialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
enum SearchMode {
    Screening,
    Ofac,
}

/// How OFAC's own search would score the entry.
#[derive(Serialize, utoipa::ToSchema)]
struct OfacBreakdown {
    /// 0 to 100, as OFAC's slider reads
    #[schema(minimum = 0, maximum = 100)]
    score: u32,
    /// the whole-name technique (0 to 1; zero when the names begin with different letters)
    whole_name: f64,
    /// the word-by-word technique (0 to 1)
    word_by_word: f64,
}

/// How a name scored against an entry, part by part.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct ScoreBreakdown {
    pub name: f64,
    pub date_of_birth: f64,
    pub nationality: f64,
}

/// A list entry as a search found it.
#[derive(Serialize, utoipa::ToSchema)]
struct SearchHit<'a> {
    entity_id: &'a str,
    source: &'a str,
    /// the entry's name that scored best
    name: String,
    #[schema(minimum = 0, maximum = 1)]
    score: f64,
    #[schema(required = false)]
    primary_name: Option<&'a str>,
    aliases: Vec<&'a str>,
    dates_of_birth: &'a [String],
    nationalities: &'a [String],
    /// the screening score's parts (mode `screening`)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    score_breakdown: Option<ScoreBreakdown>,
    /// OFAC's score and its two techniques (mode `ofac`)
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(required = false)]
    ofac: Option<OfacBreakdown>,
    /// why the entry is listed
    #[schema(value_type = crate::openapi::shared::EntryTopic)]
    topic: &'static str,
}

#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct SearchResults<'a> {
    mode: SearchMode,
    results: Vec<SearchHit<'a>>,
}

/// An imported list version.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ListVersion)]
struct ListView {
    list_id: String,
    source: String,
    format: String,
    version: String,
    entry_count: i64,
    /// entities added, changed or delisted since the version before
    changed_entries: i64,
    status: String,
    #[schema(value_type = crate::openapi::shared::Timestamp)]
    imported_at: String,
    #[schema(value_type = Option<crate::openapi::shared::Timestamp>, required)]
    activated_at: Option<String>,
    /// users still to be re-screened against the version's changes
    rescreen_pending: bool,
}

#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct ListList {
    lists: Vec<ListView>,
    /// production's required sources, each with its version and freshness (empty in the sandbox)
    coverage: Vec<SourceCoverage>,
    /// the freshness window, in hours
    freshness_hours: i64,
}

pub(crate) fn search_lists_doc() -> OperationDoc {
    OperationDoc::new("admin", "search the environment's sanctions lists")
}

pub(crate) fn list_lists_doc() -> OperationDoc {
    OperationDoc::new("admin", "imported lists with version, entry count and import time")
}

/// `GET /v1/admin/sanctions/search?name=…[&date_of_birth=…][&nationality=…][&limit=…][&mode=screening|ofac][&min_score=…]`:
/// the environment's list entries scored against a name, best first.
pub(crate) async fn search_lists(gw: &Gateway, ctx: &Ctx<'_>, Params(query): Params<SearchQuery>) -> ApiResult<Answer<SearchResults<'static>>> {
    let SearchQuery { name, date_of_birth, nationality, limit, mode, min_score } = query;
    let name = name.0;
    let date_of_birth = date_of_birth.map(|d| d.0).unwrap_or_default();
    let nationality = nationality.map(|n| n.0).unwrap_or_default();
    let limit = SearchLimit::or(limit, 20);
    let mode = mode.unwrap_or(SearchMode::Screening);
    let min_score = min_score.map_or(0, |s| s.0);
    // An analyst searches every topic; each result says why it is listed.
    let every_topic = ScreeningScope { pep: true, adverse_media: true };
    // OFAC's tool scores by name alone: the birth date does not order its candidates either.
    let retrieval_birth = if mode == SearchMode::Ofac { "" } else { date_of_birth.as_str() };
    let cut = if mode == SearchMode::Ofac { OFAC_CANDIDATES } else { MAX_CANDIDATES };
    let whole_name = mode == SearchMode::Ofac;
    let (candidates, _) =
        candidates_up_to(gw, ctx.caller.environment, &name, retrieval_birth, Entries::All, every_topic, cut, whole_name, None).await?;
    // Each mode scores in the rules; a result is the candidate with its score and that mode's parts.
    let scored: Vec<Scored> = match mode {
        SearchMode::Ofac => gw
            .rules
            .score_names_ofac(&name, &candidates)?
            .into_iter()
            .filter(|s| s.score >= min_score)
            .map(|s| {
                let ofac = OfacBreakdown { score: s.score, whole_name: s.whole_name, word_by_word: s.word_by_word };
                Scored { index: s.index, name: s.name, score: f64::from(s.score) / 100.0, score_breakdown: None, ofac: Some(ofac) }
            })
            .collect(),
        SearchMode::Screening => gw
            .rules
            .score_names(&NameQuery { name, date_of_birth, nationality }, &candidates)?
            .into_iter()
            .filter(|s| s.score * 100.0 >= f64::from(min_score))
            .map(|s| {
                let parts = ScoreBreakdown { name: s.name_score, date_of_birth: s.date_of_birth_adjustment, nationality: s.nationality_adjustment };
                Scored { index: s.index, name: s.name, score: s.score, score_breakdown: Some(parts), ofac: None }
            })
            .collect(),
    };
    let results = scored
        .into_iter()
        .take(limit as usize)
        .filter_map(|Scored { index, name, score, score_breakdown, ofac }| {
            let c = candidates.get(index as usize)?;
            Some(SearchHit {
                entity_id: &c.entity_id,
                source: &c.source,
                name,
                score,
                primary_name: c.names.first().map(String::as_str),
                aliases: c.names.iter().skip(1).map(String::as_str).collect(),
                dates_of_birth: &c.dates_of_birth,
                nationalities: &c.nationalities,
                score_breakdown,
                ofac,
                topic: c.topic.as_str(),
            })
        })
        .collect();
    // the hits borrow the candidates: the answer is their JSON
    let body = serde_json::to_value(SearchResults { mode, results })
        .map_err(|e| ApiError::internal().with_detail(format!("a response did not serialise: {e}")))?;
    Ok(Answer::stored(body))
}

/// A candidate as a search mode scored it.
struct Scored {
    index: u32,
    name: String,
    score: f64,
    score_breakdown: Option<ScoreBreakdown>,
    ofac: Option<OfacBreakdown>,
}

/// The list sources production screens against unless configured: the
/// spec's US, EU, UN and UK lists.
pub const REQUIRED_SOURCES: [&str; 4] = ["ofac-sdn", "eu-fsf", "un-consolidated", "uk-sanctions"];
/// How recently a required list must have been refreshed: a day and a half,
/// so that one missed daily refresh is tolerated and two are not.
pub const DEFAULT_FRESHNESS_SECONDS: i64 = 36 * 3_600;

/// The required sources of a setting: comma-separated source names; an
/// empty setting requires none (a deployment that screens through yente alone).
pub fn parse_required_sources(text: &str) -> Vec<String> {
    text.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect()
}

/// A required source as production has it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub(crate) struct SourceCoverage {
    pub source: String,
    /// the active version; none when the source was never imported
    #[schema(required)]
    pub version: Option<String>,
    #[schema(required)]
    pub entry_count: Option<i64>,
    /// when the active version was switched in: its last successful refresh
    #[schema(value_type = Option<crate::openapi::shared::Timestamp>, required)]
    pub last_refreshed_at: Option<String>,
    /// not refreshed within the freshness window (a missing source is not stale but missing)
    pub stale: bool,
}

/// Each required source of the environment (production only; the sandbox
/// screens against its stubs) with its active version and freshness.
pub(crate) async fn coverage(gw: &Gateway, environment: Environment) -> ApiResult<Vec<SourceCoverage>> {
    if environment == Environment::Sandbox {
        return Ok(Vec::new());
    }
    let active = store::active_versions(gw.store.as_ref(), environment).await?;
    let window = gw.config.list_freshness_seconds.unwrap_or(DEFAULT_FRESHNESS_SECONDS);
    let now = gw.clock.now();
    let required: Vec<String> = gw.config.required_lists.clone().unwrap_or_else(|| REQUIRED_SOURCES.iter().map(|s| s.to_string()).collect());
    Ok(required
        .into_iter()
        .map(|source| {
            let version = active.iter().find(|l| l.source == source);
            let refreshed = version.and_then(|v| v.activated_at);
            SourceCoverage {
                version: version.map(|v| v.version.clone()),
                entry_count: version.map(|v| v.entry_count),
                last_refreshed_at: refreshed.map(time::format),
                stale: version.is_some() && refreshed.is_none_or(|at| now.saturating_sub(at) > window),
                source,
            }
        })
        .collect())
}

/// `GET /v1/admin/sanctions/lists`: the environment's lists, active first.
pub(crate) async fn list_lists(gw: &Gateway, ctx: &Ctx<'_>, (): ()) -> ApiResult<Answer<ListList>> {
    let lists = store::active_versions(gw.store.as_ref(), ctx.caller.environment)
        .await?
        .into_iter()
        .map(|l| ListView {
            list_id: l.list_id,
            source: l.source,
            format: l.format,
            version: l.version,
            entry_count: l.entry_count,
            changed_entries: l.changed_count,
            status: l.status,
            imported_at: time::format(l.imported_at),
            activated_at: l.activated_at.map(time::format),
            rescreen_pending: l.rescreen_pending,
        })
        .collect();
    let coverage = coverage(gw, ctx.caller.environment).await?;
    let freshness_hours = gw.config.list_freshness_seconds.unwrap_or(DEFAULT_FRESHNESS_SECONDS) / 3_600;
    Answer::new(&ListList { lists, coverage, freshness_hours })
}

fn entry_fingerprint(entry: &ListEntry) -> String {
    let mut canonical = json!([entry.entity_id, entry.kind.as_str(), entry.names, entry.dates_of_birth, entry.nationalities, entry.programs]);
    // A sanction's fingerprint is what it was before entries had topics, so
    // that the upgrade re-screens nobody.
    if entry.topic != rules_model::EntryTopic::Sanction {
        if let Some(fields) = canonical.as_array_mut() {
            fields.push(json!(entry.topic.as_str()));
        }
    }
    hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
}
