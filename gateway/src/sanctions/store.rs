//! The sanctions area's persistence: a user's screening on the users row
//! and the compliance team's cases. Every SQL statement of the area is here.

use rules_model::{CaseKind, CaseStatus, DismissedMatch, ReviewItem, SanctionsStatus};

use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Read, Row, Stmt, Store, Value};

/// A first screening, as the users row records it.
pub(crate) struct NewScreenedUser<'a> {
    pub tenant_id: &'a str,
    pub user_id: &'a str,
    pub email: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub date_of_birth: &'a str,
    pub nationality: &'a str,
    pub status: SanctionsStatus,
    pub screen_id: &'a str,
    pub fingerprint: &'a str,
    pub response: String,
    pub case_id: Option<String>,
    pub now: i64,
    /// the rules version (component SHA-256) that screened
    pub rules: &'a str,
}

/// Creates the user with its first screening; a concurrent first screening
/// of the same user makes the batch lose on the primary key.
pub(crate) fn insert_screened_user(u: NewScreenedUser<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO users (tenant_id, external_user_id, email, first_name, last_name, sanctions_status, last_screened_at, screen_id,
                            screen_fingerprint, screen_response, case_id, verified_tier, verified_at, cumulative_withdrawn_cents, version,
                            created_at, updated_at, date_of_birth, nationality, screened_under, whole_screened_at, email_key, keys_version)
         VALUES (?1, ?2, ?3, ?10, ?11, ?4, ?9, ?5, ?6, ?7, ?8, ?12, NULL, 0, 0, ?9, ?9, ?13, ?14, ?15, ?9, ?16, ?17)",
        vec![
            u.tenant_id.into(),
            u.user_id.into(),
            u.email.into(),
            u.status.as_str().into(),
            u.screen_id.into(),
            u.fingerprint.into(),
            u.response.into(),
            Value::from(u.case_id),
            u.now.into(),
            u.first_name.into(),
            u.last_name.into(),
            rules_model::KycTier::Tier0.as_str().into(),
            u.date_of_birth.into(),
            u.nationality.into(),
            u.rules.into(),
            // the screening e-mail's key; an empty e-mail keys to none
            Value::from((!u.email.is_empty()).then(|| crate::input::email_key(u.email))),
            crate::input::CONTACT_KEYS_VERSION.into(),
        ],
    )
}

/// The fingerprint and stored response of a user's first screening.
pub(crate) struct FirstScreening {
    pub fingerprint: String,
    pub response: String,
}

/// A user's first screening, as one read of the screening's batch.
pub(crate) fn read_first_screening(tenant_id: &str, user_id: &str) -> Read {
    Read::new(
        "SELECT screen_fingerprint, screen_response FROM users WHERE tenant_id = ?1 AND external_user_id = ?2",
        vec![tenant_id.into(), user_id.into()],
    )
}

pub(crate) fn first_screening_from(rows: &[Row]) -> ApiResult<Option<FirstScreening>> {
    rows.first().map(|row| Ok(FirstScreening { fingerprint: row.text(0)?, response: row.text(1)? })).transpose()
}

/// A user's sanctions status and its times.
pub(crate) struct ScreeningStatus {
    pub status: SanctionsStatus,
    pub created_at: i64,
    pub updated_at: i64,
    pub last_screened_at: i64,
}

pub(crate) async fn screening_status(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<ScreeningStatus>> {
    let rows = store
        .query(
            // a player an erasure restricted (GDPR Art. 18) is hidden, as from every operator read: 404, as if unknown
            "SELECT sanctions_status, created_at, updated_at, last_screened_at FROM users WHERE tenant_id = ?1 AND external_user_id = ?2 AND restricted_at IS NULL",
            vec![tenant_id.into(), user_id.into()],
        )
        .await?;
    rows.first()
        .map(|row| {
            Ok(ScreeningStatus {
                status: SanctionsStatus::parse(&row.text(0)?).ok_or_else(ApiError::internal)?,
                created_at: row.int(1)?,
                updated_at: row.int(2)?,
                last_screened_at: row.int(3)?,
            })
        })
        .transpose()
}

/// A new case, matched entities included.
pub(crate) struct NewCase<'a> {
    pub case_id: &'a str,
    pub tenant_id: &'a str,
    pub environment: Environment,
    pub user_id: &'a str,
    pub match_count: u32,
    pub highest_score: f64,
    /// the matched entities as a JSON array
    pub matches: String,
    pub now: i64,
    pub review_due_at: Option<i64>,
    pub kind: CaseKind,
}

pub(crate) fn insert_case(c: NewCase<'_>) -> Stmt {
    Stmt::new(
        "INSERT INTO sanctions_cases (case_id, tenant_id, environment, external_user_id, status, match_count, highest_score, matches, created_at,
                                      review_due_at, kind)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
        vec![
            c.case_id.into(),
            c.tenant_id.into(),
            c.environment.as_str().into(),
            c.user_id.into(),
            CaseStatus::Open.as_str().into(),
            i64::from(c.match_count).into(),
            c.highest_score.into(),
            c.matches.into(),
            c.now.into(),
            Value::from(c.review_due_at),
            c.kind.as_str().into(),
        ],
    )
}

/// A case as the review list shows it.
pub(crate) struct CaseSummary {
    pub case_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub status: CaseStatus,
    pub match_count: i64,
    pub highest_score: f64,
    pub created_at: i64,
    pub review_due_at: Option<i64>,
    /// the tenant's test-clock offset, added to the service's now
    pub clock_offset_seconds: i64,
    pub kind: CaseKind,
}

/// Which cases a review list asks for.
pub(crate) struct CaseFilter {
    pub environment: Environment,
    pub status: CaseStatus,
    /// one kind, or every kind
    pub kind: Option<CaseKind>,
    pub review_target: i64,
    /// only those whose review is due by `now` on the tenant's clock
    pub overdue_only: bool,
    /// only those opened at least this long ago on the tenant's clock
    pub min_age_seconds: i64,
    pub now: i64,
    /// after this `(created_at, case_id)`, the sort key
    pub after: Option<(i64, String)>,
    /// at most this many rows
    pub limit: i64,
}

/// Cases of an environment by status, oldest first (then by id), a page
/// at a time.
pub(crate) async fn cases(store: &dyn Store, f: CaseFilter) -> ApiResult<Vec<CaseSummary>> {
    let (after_at, after_id) = f.after.unwrap_or((-crate::ports::MAX_STORED_INTEGER, String::new()));
    let rows = store
        .query(
            "SELECT c.case_id, c.tenant_id, c.external_user_id, c.status, c.match_count, c.highest_score, c.created_at, c.review_due_at,
                    t.clock_offset_seconds, c.kind
             FROM sanctions_cases c JOIN tenants t ON t.tenant_id = c.tenant_id
             WHERE c.environment = ?1 AND c.status = ?2 AND (?4 = 0 OR COALESCE(c.review_due_at, c.created_at + ?3) <= ?5 + t.clock_offset_seconds)
               AND (?6 = '' OR c.kind = ?6) AND c.created_at + ?7 <= ?5 + t.clock_offset_seconds
               AND (c.created_at > ?8 OR (c.created_at = ?8 AND c.case_id > ?9))
             ORDER BY c.created_at, c.case_id LIMIT ?10",
            vec![
                f.environment.as_str().into(),
                f.status.as_str().into(),
                f.review_target.into(),
                f.overdue_only.into(),
                f.now.into(),
                f.kind.map_or("", CaseKind::as_str).into(),
                f.min_age_seconds.into(),
                after_at.into(),
                after_id.into(),
                f.limit.into(),
            ],
        )
        .await?;
    rows.iter()
        .map(|row| {
            Ok(CaseSummary {
                case_id: row.text(0)?,
                tenant_id: row.text(1)?,
                user_id: row.text(2)?,
                status: case_status(row, 3)?,
                match_count: row.int(4)?,
                highest_score: row.real(5)?,
                created_at: row.int(6)?,
                review_due_at: row.opt_int(7)?,
                clock_offset_seconds: row.int(8)?,
                kind: case_kind(row, 9)?,
            })
        })
        .collect()
}

/// Open cases of an environment.
pub(crate) async fn count_open(store: &dyn Store, environment: Environment, kind: CaseKind) -> ApiResult<i64> {
    Ok(store
        .scalar(
            "SELECT COUNT(*) FROM sanctions_cases WHERE environment = ?1 AND status = ?2 AND kind = ?3",
            vec![environment.as_str().into(), CaseStatus::Open.as_str().into(), kind.as_str().into()],
        )
        .await?)
}

/// Open cases the review target pre-selects as due by `now` on their
/// tenant's clock, as review items for the rules to judge.
pub(crate) async fn overdue_candidates(
    store: &dyn Store,
    environment: Environment,
    kind: CaseKind,
    review_target: i64,
    now: i64,
) -> ApiResult<Vec<ReviewItem>> {
    let rows = store
        .query(
            "SELECT c.created_at, c.review_due_at, t.clock_offset_seconds FROM sanctions_cases c JOIN tenants t ON t.tenant_id = c.tenant_id
             WHERE c.environment = ?1 AND c.status = ?2 AND c.kind = ?5 AND COALESCE(c.review_due_at, c.created_at + ?3) <= ?4 + t.clock_offset_seconds",
            vec![environment.as_str().into(), CaseStatus::Open.as_str().into(), review_target.into(), now.into(), kind.as_str().into()],
        )
        .await?;
    rows.iter()
        .map(|r| Ok(ReviewItem { now: now.saturating_add(r.int(2)?), waiting_since: r.int(0)?, due_at: r.opt_int(1)?, awaiting: true }))
        .collect()
}

/// The whole case, for the compliance team.
pub(crate) struct Case {
    pub case_id: String,
    pub tenant_id: String,
    pub user_id: String,
    pub status: CaseStatus,
    pub match_count: i64,
    pub highest_score: f64,
    /// the matched entities as a JSON array
    pub matches: String,
    pub reviewer: Option<String>,
    pub decided_at: Option<i64>,
    pub created_at: i64,
    pub kind: CaseKind,
    /// the due time it was given when opened
    pub review_due_at: Option<i64>,
}

pub(crate) async fn case(store: &dyn Store, environment: Environment, case_id: &str) -> ApiResult<Option<Case>> {
    let rows = store
        .query(
            "SELECT case_id, tenant_id, external_user_id, status, match_count, highest_score, matches, reviewer, decided_at, created_at, kind,
                    review_due_at
             FROM sanctions_cases WHERE case_id = ?1 AND environment = ?2",
            vec![case_id.into(), environment.as_str().into()],
        )
        .await?;
    rows.first()
        .map(|row| {
            Ok(Case {
                case_id: row.text(0)?,
                tenant_id: row.text(1)?,
                user_id: row.text(2)?,
                status: case_status(row, 3)?,
                match_count: row.int(4)?,
                highest_score: row.real(5)?,
                matches: row.text(6)?,
                reviewer: row.opt_text(7)?,
                decided_at: row.opt_int(8)?,
                created_at: row.int(9)?,
                kind: case_kind(row, 10)?,
                review_due_at: row.opt_int(11)?,
            })
        })
        .transpose()
}

/// Decides an open case; the batch loses if the case was decided meanwhile.
pub(crate) fn decide_case(case_id: &str, status: CaseStatus, reviewer: &str, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE sanctions_cases SET status = ?2, reviewer = ?3, decided_at = ?4 WHERE case_id = ?1 AND status = ?5",
        vec![case_id.into(), status.as_str().into(), reviewer.into(), now.into(), CaseStatus::Open.as_str().into()],
    )
}

/// Sets a user's sanctions status, claiming the row read at `version`.
pub(crate) fn set_status(tenant_id: &str, user_id: &str, status: SanctionsStatus, version: i64, now: i64) -> Stmt {
    Stmt::expect_one(
        "UPDATE users SET sanctions_status = ?3, version = version + 1, updated_at = ?4 WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?5",
        vec![tenant_id.into(), user_id.into(), status.as_str().into(), now.into(), version.into()],
    )
}

fn case_status(row: &Row, i: usize) -> ApiResult<CaseStatus> {
    CaseStatus::parse(&row.text(i)?).ok_or_else(ApiError::internal)
}

/// A clear or cleared user screened `after_seconds` ago or more on their tenant's clock.
pub(crate) struct DueRescreen {
    pub environment: Environment,
    pub tenant_id: String,
    pub user_id: String,
    pub clock_offset_seconds: i64,
    pub status: SanctionsStatus,
    /// the last whole screening (see [`Stamp`])
    pub whole_screened_at: i64,
}

/// A due re-screen from a row of `tenant_id, external_user_id,
/// clock_offset_seconds, sanctions_status, whole_screened_at, environment`.
fn due_rescreen(row: &Row) -> ApiResult<DueRescreen> {
    Ok(DueRescreen {
        tenant_id: row.text(0)?,
        user_id: row.text(1)?,
        clock_offset_seconds: row.int(2)?,
        status: SanctionsStatus::parse(&row.text(3)?).ok_or_else(ApiError::internal)?,
        whole_screened_at: row.int(4)?,
        environment: Environment::parse(&row.text(5)?).ok_or_else(ApiError::internal)?,
    })
}

/// At most `limit` users due a periodic re-screen, longest unscreened
/// first: sandbox users, and production users where a list is active or
/// `production_screens` says a vendor screens them.
pub(crate) async fn due_rescreens(
    store: &dyn Store,
    now: i64,
    after_seconds: i64,
    limit: i64,
    production_screens: bool,
) -> ApiResult<Vec<DueRescreen>> {
    let rows = store
        .query(
            "SELECT u.tenant_id, u.external_user_id, t.clock_offset_seconds, u.sanctions_status, COALESCE(u.whole_screened_at, u.last_screened_at), t.environment
             FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
             WHERE (t.environment = ?4 OR ?5 = 1 OR EXISTS (SELECT 1 FROM sanctions_lists l WHERE l.environment = t.environment AND l.status = ?8))
               AND u.sanctions_status IN (?6, ?7) AND COALESCE(u.whole_screened_at, u.last_screened_at) <= ?1 + t.clock_offset_seconds - ?2
               AND u.restricted_at IS NULL
             ORDER BY COALESCE(u.whole_screened_at, u.last_screened_at) LIMIT ?3",
            vec![
                now.into(),
                after_seconds.into(),
                limit.into(),
                Environment::Sandbox.as_str().into(),
                production_screens.into(),
                SanctionsStatus::Clear.as_str().into(),
                SanctionsStatus::Cleared.as_str().into(),
                crate::lists::store::ListStatus::Active.as_str().into(),
            ],
        )
        .await?;
    rows.iter().map(due_rescreen).collect()
}

/// The `counters` row that holds when a rules version (its component's
/// SHA-256) was first seen live by a scheduled round.
fn rules_live_key(sha256: &str) -> String {
    format!("{RULES_LIVE_PREFIX}{sha256}")
}

const RULES_LIVE_PREFIX: &str = "rules_live_since:";

/// Notes that a rules version is live from `now`, unless a host noted it first.
pub(crate) fn note_rules_live(sha256: &str, now: i64) -> Stmt {
    Stmt::new("INSERT INTO counters (name, value) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING", vec![rules_live_key(sha256).into(), now.into()])
}

/// When a rules version was first seen live; `None` before any round saw it.
pub(crate) async fn rules_live_since(store: &dyn Store, sha256: &str) -> ApiResult<Option<i64>> {
    let rows = store.query("SELECT value FROM counters WHERE name = ?1", vec![rules_live_key(sha256).into()]).await?;
    rows.first().map(|row| row.int(0)).transpose().map_err(Into::into)
}

/// At most `limit` clear or cleared users a new rules version (`sha256`,
/// live since `live_since`) has not screened yet: screened under no known
/// version, or under one that went live before it (so an older host beside
/// a newer one screens no one back); longest unscreened first, where
/// screening is possible (as [`due_rescreens`]).
pub(crate) async fn screened_before(
    store: &dyn Store,
    sha256: &str,
    live_since: i64,
    limit: i64,
    production_screens: bool,
) -> ApiResult<Vec<DueRescreen>> {
    let rows = store
        .query(
            "SELECT u.tenant_id, u.external_user_id, t.clock_offset_seconds, u.sanctions_status, COALESCE(u.whole_screened_at, u.last_screened_at), t.environment
             FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
             WHERE (t.environment = ?3 OR ?4 = 1 OR EXISTS (SELECT 1 FROM sanctions_lists l WHERE l.environment = t.environment AND l.status = ?7))
               AND u.sanctions_status IN (?5, ?6) AND u.restricted_at IS NULL
               AND (u.screened_under IS NULL OR (u.screened_under <> ?8
                    AND COALESCE((SELECT c.value FROM counters c WHERE c.name = ?9 || u.screened_under), 0) < ?1))
             ORDER BY COALESCE(u.whole_screened_at, u.last_screened_at) LIMIT ?2",
            vec![
                live_since.into(),
                limit.into(),
                Environment::Sandbox.as_str().into(),
                production_screens.into(),
                SanctionsStatus::Clear.as_str().into(),
                SanctionsStatus::Cleared.as_str().into(),
                crate::lists::store::ListStatus::Active.as_str().into(),
                sha256.into(),
                RULES_LIVE_PREFIX.into(),
            ],
        )
        .await?;
    rows.iter().map(due_rescreen).collect()
}

/// Who a user is, as a re-screen and a case's review read them.
pub(crate) struct ScreenedPerson {
    pub environment: Environment,
    pub first_name: String,
    pub last_name: String,
    pub date_of_birth: String,
    pub nationality: String,
    pub status: SanctionsStatus,
    pub screen_id: String,
    pub version: i64,
    /// an erasure was asked: the data is held under a legal obligation, not processed (no re-screen)
    pub restricted: bool,
    /// the last whole screening (see [`Stamp`])
    pub whole_screened_at: i64,
}

pub(crate) async fn screened_person(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<ScreenedPerson>> {
    let rows = store
        .query(
            "SELECT u.first_name, u.last_name, u.sanctions_status, u.screen_id, t.environment, u.date_of_birth, u.nationality, u.version,
                    u.restricted_at, COALESCE(u.whole_screened_at, u.last_screened_at)
             FROM users u JOIN tenants t ON t.tenant_id = u.tenant_id
             WHERE u.tenant_id = ?1 AND u.external_user_id = ?2",
            vec![tenant_id.into(), user_id.into()],
        )
        .await?;
    rows.first()
        .map(|row| {
            Ok(ScreenedPerson {
                first_name: row.text(0)?,
                last_name: row.text(1)?,
                status: SanctionsStatus::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
                screen_id: row.text(3)?,
                environment: Environment::parse(&row.text(4)?).ok_or_else(ApiError::internal)?,
                date_of_birth: row.opt_text(5)?.unwrap_or_default(),
                nationality: row.opt_text(6)?.unwrap_or_default(),
                version: row.int(7)?,
                restricted: row.opt_int(8)?.is_some(),
                whole_screened_at: row.int(9)?,
            })
        })
        .transpose()
}

/// What a re-screen stamps on the user besides its time (`last_screened_at`,
/// which any screening moves: the status shows it). A whole screening (every list entry,
/// and production's vendor) also moves what the quarterly and the
/// rules-change re-screens select by. One against an import's changed
/// entries moves neither: it asked the lists only, and only those entries.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Stamp<'a> {
    Whole {
        rules: &'a str,
    },
    /// `new_evidence`: it matched a changed entry, or an entry a case of the
    /// user matched changed or is gone (`evidence_at` moves, see the schema's
    /// `V_SCREENING_EVIDENCE`); else it concerns none of the user's cases
    ChangedEntries {
        new_evidence: bool,
    },
}

impl<'a> Stamp<'a> {
    /// `whole_screened_at`, `screened_under` and `evidence_at` to set, or none to keep.
    fn columns(self, now: i64) -> (Option<i64>, Option<&'a str>, Option<i64>) {
        match self {
            Stamp::Whole { rules } => (Some(now), Some(rules), Some(now)),
            Stamp::ChangedEntries { new_evidence } => (None, None, new_evidence.then_some(now)),
        }
    }
}

/// A re-screen's new hit: the status it sets and the case it opened, claiming the row at `version`.
/// (In both records, `whole_screened_at` on the right is the row's before the
/// update: a user of before without one keeps their last screening as it.)
pub(crate) fn record_rescreen_hit(
    tenant_id: &str,
    user_id: &str,
    version: i64,
    status: SanctionsStatus,
    case_id: &str,
    now: i64,
    stamp: Stamp<'_>,
) -> Stmt {
    let (whole_at, rules, evidence_at) = stamp.columns(now);
    Stmt::expect_one(
        "UPDATE users SET sanctions_status = ?6, case_id = ?4, last_screened_at = ?5, whole_screened_at = COALESCE(?8, whole_screened_at, last_screened_at),
                          screened_under = COALESCE(?7, screened_under), evidence_at = COALESCE(?9, evidence_at, last_screened_at),
                          version = version + 1, updated_at = ?5
         WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?3",
        vec![
            tenant_id.into(),
            user_id.into(),
            version.into(),
            case_id.into(),
            now.into(),
            status.as_str().into(),
            rules.into(),
            whole_at.into(),
            evidence_at.into(),
        ],
    )
}

/// A re-screen without a new hit: only its time and stamp, claiming the row at `version`.
pub(crate) fn record_rescreen(tenant_id: &str, user_id: &str, version: i64, now: i64, stamp: Stamp<'_>) -> Stmt {
    let (whole_at, rules, evidence_at) = stamp.columns(now);
    Stmt::expect_one(
        "UPDATE users SET last_screened_at = ?3, whole_screened_at = COALESCE(?6, whole_screened_at, last_screened_at), screened_under = COALESCE(?5, screened_under),
                          evidence_at = COALESCE(?7, evidence_at, last_screened_at), version = version + 1
         WHERE tenant_id = ?1 AND external_user_id = ?2 AND version = ?4",
        vec![tenant_id.into(), user_id.into(), now.into(), version.into(), rules.into(), whole_at.into(), evidence_at.into()],
    )
}

/// The tenant's clear or cleared users, by id.
pub(crate) async fn unheld_users(store: &dyn Store, tenant_id: &str) -> ApiResult<Vec<String>> {
    let rows = store
        .query(
            "SELECT external_user_id FROM users WHERE tenant_id = ?1 AND sanctions_status IN (?2, ?3) AND restricted_at IS NULL ORDER BY external_user_id",
            vec![tenant_id.into(), SanctionsStatus::Clear.as_str().into(), SanctionsStatus::Cleared.as_str().into()],
        )
        .await?;
    rows.iter().map(|r| Ok(r.text(0)?)).collect()
}

fn case_kind(row: &Row, i: usize) -> ApiResult<CaseKind> {
    CaseKind::parse(&row.text(i)?).ok_or_else(ApiError::internal)
}

/// The user's dismissed matches, each with the entry's fingerprint then.
pub(crate) async fn dismissed_matches(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Vec<DismissedMatch>> {
    let rows = store
        .query(
            "SELECT source, entity_id, fingerprint FROM dismissed_matches WHERE tenant_id = ?1 AND external_user_id = ?2",
            vec![tenant_id.into(), user_id.into()],
        )
        .await?;
    rows.iter().map(|r| Ok(DismissedMatch { source: r.text(0)?, entity_id: r.text(1)?, fingerprint: r.text(2)? })).collect()
}

/// A case's match as stored, as far as a dismissal remembers it (cases
/// opened before matches carried a fingerprint remember an empty one, which
/// no entry has: such a match is screened afresh).
#[derive(serde::Deserialize)]
struct StoredMatch {
    list: String,
    entity_id: String,
    #[serde(default)]
    fingerprint: String,
}

/// Remembers a dismissed case's matches for the user, each with its
/// entry's fingerprint; a later dismissal of the same entry replaces it.
pub(crate) fn remember_dismissed(tenant_id: &str, user_id: &str, case_id: &str, matches_json: &str, now: i64) -> ApiResult<Vec<Stmt>> {
    let matches: Vec<StoredMatch> =
        serde_json::from_str(matches_json).map_err(|e| ApiError::internal().with_detail(format!("a case's matches did not read: {e}")))?;
    Ok(matches
        .into_iter()
        .map(|m| {
            Stmt::new(
                "INSERT INTO dismissed_matches (tenant_id, external_user_id, source, entity_id, fingerprint, case_id, dismissed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (tenant_id, external_user_id, source, entity_id)
                 DO UPDATE SET fingerprint = excluded.fingerprint, case_id = excluded.case_id, dismissed_at = excluded.dismissed_at",
                vec![tenant_id.into(), user_id.into(), m.list.into(), m.entity_id.into(), m.fingerprint.into(), case_id.into(), now.into()],
            )
        })
        .collect())
}

/// Whether the user has a due-diligence case still open.
pub(crate) async fn due_diligence_open(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<bool> {
    let count = store
        .scalar(
            "SELECT COUNT(*) FROM sanctions_cases WHERE tenant_id = ?1 AND external_user_id = ?2 AND kind = ?3 AND status = ?4",
            vec![tenant_id.into(), user_id.into(), CaseKind::EnhancedDueDiligence.as_str().into(), CaseStatus::Open.as_str().into()],
        )
        .await?;
    Ok(count > 0)
}

/// When the user's screening last brought new evidence to their cases (see [`Stamp`]).
pub(crate) async fn evidence_at(store: &dyn Store, tenant_id: &str, user_id: &str) -> ApiResult<Option<i64>> {
    let rows = store
        .query(
            "SELECT COALESCE(evidence_at, last_screened_at) FROM users WHERE tenant_id = ?1 AND external_user_id = ?2",
            vec![tenant_id.into(), user_id.into()],
        )
        .await?;
    Ok(rows.first().map(|row| row.opt_int(0)).transpose()?.flatten())
}

/// An entity a case matched, as the case keeps it (its list and the entry's fingerprint then).
#[derive(serde::Deserialize)]
struct MatchedEntity {
    list: String,
    entity_id: String,
    /// none in cases opened before fingerprints were kept: never equal to a list's
    #[serde(default)]
    fingerprint: String,
}

/// Whether an entity that one of the user's open cases matched in `source`
/// is gone from the list `list_id`, or is there with another record (its
/// fingerprint): a delisting or a change of the entry is new evidence.
pub(crate) async fn matched_entity_changed(store: &dyn Store, tenant_id: &str, user_id: &str, list_id: &str, source: &str) -> ApiResult<bool> {
    let cases = store
        .query(
            "SELECT matches FROM sanctions_cases WHERE tenant_id = ?1 AND external_user_id = ?2 AND status = ?3",
            vec![tenant_id.into(), user_id.into(), CaseStatus::Open.as_str().into()],
        )
        .await?;
    let mut matched = Vec::new();
    for row in &cases {
        // a case whose matches cannot be read is taken as changed: strict, and the screening goes on
        let Ok(entities) = serde_json::from_str::<Vec<MatchedEntity>>(&row.text(0)?) else { return Ok(true) };
        matched.extend(entities.into_iter().filter(|m| m.list == source));
    }
    if matched.is_empty() {
        return Ok(false);
    }
    let reads = matched
        .iter()
        .map(|m| {
            Read::new(
                "SELECT fingerprint FROM sanctions_entries WHERE list_id = ?1 AND entity_id = ?2",
                vec![list_id.into(), m.entity_id.as_str().into()],
            )
        })
        .collect();
    let listed = store.query_many(reads).await?;
    for (entity, rows) in matched.iter().zip(&listed) {
        let unchanged = rows.iter().map(|r| r.text(0)).collect::<Result<Vec<_>, _>>()?.contains(&entity.fingerprint);
        if !unchanged {
            return Ok(true);
        }
    }
    Ok(false)
}
