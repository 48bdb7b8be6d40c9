//! Sanctions lists in the store: imports that replace a source atomically,
//! candidate retrieval through an index of the rules' keys, the compliance
//! team's search, and the re-screening of users after a list changes.
//!
//! The store only proposes candidates (entries sharing an index key with the
//! name); the rules component scores them, so the scoring is part of the
//! audited rules version.

pub mod countries;
pub mod parse;

use std::collections::HashMap;

use rules::{EntryKind, ListCandidate, NameQuery, SanctionsStatus};
use serde_json::{json, Value as Json};
use sha2::{Digest, Sha256};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt};
use crate::{time, Ctx, Gateway, Reply};
pub use parse::{ListEntry, ListFormat};

/// At most this many entries are scored for one name: those sharing the most
/// index keys with it.
const MAX_CANDIDATES: usize = 64;
/// Index keys looked up per statement.
const KEYS_PER_READ: usize = 8;
/// Rows written per batch while an import loads.
const IMPORT_BATCH: usize = 400;
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
        if let Err(refusal) = &outcome {
            self.audit_refused_list_import(environment, source, actor, refusal.code).await;
        }
        outcome
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
        if entries.is_empty() {
            return Err(ApiError::bad_request("invalid_list", "the list has no entries"));
        }
        if source.is_empty() || source.len() > 64 || !source.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err(ApiError::bad_request("invalid_field", "source must be 1 to 64 letters, digits, - or _"));
        }
        let now = self.clock.now();
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
        let list_id = self.new_id("lst");
        let mut changed = 0;
        let mut names = 0;
        let mut rows = Vec::with_capacity(entries.len());
        for (entry_no, entry) in entries.iter().enumerate() {
            let fingerprint = entry_fingerprint(entry);
            digest.update(fingerprint.as_bytes());
            let is_changed = before.get(&entry.entity_id) != Some(&fingerprint);
            changed += usize::from(is_changed);
            names += entry.names.len();
            rows.push((entry_no as i64, entry, fingerprint, is_changed));
        }
        let version = hex::encode(&digest.finalize()[..8]);
        self.store
            .batch(vec![Stmt::new(
                "INSERT INTO sanctions_lists (list_id, environment, source, format, version, entry_count, changed_count, status, imported_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'loading', ?8)",
                vec![
                    list_id.as_str().into(),
                    environment.as_str().into(),
                    source.into(),
                    format.as_str().into(),
                    version.as_str().into(),
                    (entries.len() as i64).into(),
                    (changed as i64).into(),
                    now.into(),
                ],
            )])
            .await?;
        let loaded = self.load_entries(&list_id, &rows).await;
        if let Err(e) = loaded {
            self.discard_list(&list_id).await;
            return Err(e);
        }
        // The switch: the old version out, the new one in, in one batch.
        let switch = vec![
            Stmt::new(
                "UPDATE sanctions_lists SET status = 'replaced', rescreen_pending = 0 WHERE environment = ?1 AND source = ?2 AND status = 'active'",
                vec![environment.as_str().into(), source.into()],
            ),
            Stmt::expect_one(
                "UPDATE sanctions_lists SET status = 'active', activated_at = ?2, rescreen_pending = ?3 WHERE list_id = ?1 AND status = 'loading'",
                vec![list_id.as_str().into(), now.into(), i64::from(changed > 0).into()],
            ),
            self.list_import_audit(environment, actor, source, &list_id, "ok"),
        ];
        if let Err(e) = self.store.batch(switch).await {
            self.discard_list(&list_id).await;
            return Err(e.into());
        }
        if let Some((old, _)) = &previous {
            self.discard_list(old).await;
        }
        Ok(ImportSummary { list_id, source: source.to_string(), version, entries: entries.len(), names, changed, replaced: previous.map(|p| p.0) })
    }

    async fn load_entries(&self, list_id: &str, rows: &[(i64, &ListEntry, String, bool)]) -> ApiResult<()> {
        for chunk in rows.chunks(IMPORT_BATCH / 4) {
            let all_names: Vec<String> = chunk.iter().flat_map(|(_, e, _, _)| e.names.iter().cloned()).collect();
            let keys = self.rules.index_keys(&all_names)?;
            let mut keys = keys.into_iter();
            let mut statements = Vec::with_capacity(IMPORT_BATCH);
            for (entry_no, entry, fingerprint, is_changed) in chunk {
                statements.push(Stmt::new(
                    "INSERT INTO sanctions_entries (list_id, entry_no, entity_id, kind, names, dates_of_birth, nationalities, programs, fingerprint, changed)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                    vec![
                        list_id.into(),
                        (*entry_no).into(),
                        entry.entity_id.as_str().into(),
                        entry.kind.as_str().into(),
                        json!(entry.names).to_string().into(),
                        json!(entry.dates_of_birth).to_string().into(),
                        json!(entry.nationalities).to_string().into(),
                        entry.programs.as_str().into(),
                        fingerprint.as_str().into(),
                        (*is_changed).into(),
                    ],
                ));
                let mut entry_keys: Vec<String> = keys.by_ref().take(entry.names.len()).flatten().collect();
                entry_keys.sort();
                entry_keys.dedup();
                for key in entry_keys {
                    statements.push(Stmt::new(
                        "INSERT INTO sanctions_keys (list_id, index_key, entry_no) VALUES (?1, ?2, ?3)",
                        vec![list_id.into(), key.into(), (*entry_no).into()],
                    ));
                }
            }
            self.store.batch(statements).await?;
        }
        Ok(())
    }

    /// Deletes a list version's rows (a failed load, or a replaced version).
    async fn discard_list(&self, list_id: &str) {
        let statements = vec![
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
