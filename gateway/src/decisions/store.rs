//! The decision log's persistence: a row per state-changing decision, pages
//! of read-only ones. Every SQL statement of the log is here.

use base64::Engine as _;
use rules_model::Operation;

use super::RecordedDecision;
use crate::auth::Environment;
use crate::error::{ApiError, ApiResult};
use crate::ports::{Row, Stmt, Store};

const INSERT_ONE: &str =
    "INSERT INTO decisions (decision_id, operation, environment, tenant_id, user_id, decided_at, rules_version, rules_sha256, input, output)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)";
/// The insert of one state-changing decision, for the batch of its change.
pub(crate) fn insert(r: &RecordedDecision) -> Stmt {
    Stmt::new(
        INSERT_ONE,
        vec![
            r.decision_id.as_str().into(),
            r.operation.as_str().into(),
            r.environment.as_str().into(),
            r.tenant_id.as_str().into(),
            r.user_id.as_str().into(),
            r.decided_at.into(),
            r.rules_version.as_str().into(),
            r.rules_sha256.as_str().into(),
            r.input.as_str().into(),
            r.output.as_str().into(),
        ],
    )
}

/// One entry of a page: a decision without what the page holds for all.
#[derive(serde::Deserialize)]
struct PageEntry<'a> {
    id: std::borrow::Cow<'a, str>,
    op: std::borrow::Cow<'a, str>,
    tenant: std::borrow::Cow<'a, str>,
    user: std::borrow::Cow<'a, str>,
    at: i64,
    #[serde(borrow)]
    input: &'a serde_json::value::RawValue,
    #[serde(borrow)]
    output: &'a serde_json::value::RawValue,
}

/// How a page's entries are stored since pages were compressed: this prefix,
/// then base64 (standard alphabet, no padding) of an LZ4 block whose first 4
/// bytes are the JSON text's length, little-endian. A page without the prefix
/// is the JSON text itself (pages written before).
const PACKED_PREFIX: &str = "lz4:";
/// The most a packed page's entries may unpack to: a corrupted length is
/// refused, never allocated. A page's text beyond it (never seen: 256
/// entries of a limits check are about 300 KB) is stored unpacked.
const MAX_PACKED_BYTES: usize = 16 << 20;

/// A page's entries as stored: the JSON text, compressed. The log's text is
/// most of the store's writes under load, and it compresses several-fold.
fn pack(entries: String) -> String {
    if entries.len() > MAX_PACKED_BYTES {
        return entries;
    }
    let block = lz4_flex::block::compress_prepend_size(entries.as_bytes());
    let mut packed = String::with_capacity(PACKED_PREFIX.len() + block.len().div_ceil(3) * 4);
    packed.push_str(PACKED_PREFIX);
    base64::engine::general_purpose::STANDARD_NO_PAD.encode_string(block, &mut packed);
    packed
}

/// The JSON text of a page's entries as stored, packed or not.
fn unpack(stored: String) -> ApiResult<String> {
    let Some(encoded) = stored.strip_prefix(PACKED_PREFIX) else { return Ok(stored) };
    let block = base64::engine::general_purpose::STANDARD_NO_PAD.decode(encoded).map_err(|_| ApiError::internal())?;
    let (length, body) = block.split_first_chunk::<4>().ok_or_else(ApiError::internal)?;
    let length = u32::from_le_bytes(*length) as usize;
    if length > MAX_PACKED_BYTES {
        return Err(ApiError::internal());
    }
    let text = lz4_flex::block::decompress(body, length).map_err(|_| ApiError::internal())?;
    if text.len() != length {
        return Err(ApiError::internal());
    }
    String::from_utf8(text).map_err(|_| ApiError::internal())
}

/// The insert of one page. Input and output are already canonical JSON, so
/// they go into the entries' text as they are; the text is stored packed.
pub(crate) fn insert_page(page: &[RecordedDecision]) -> Option<Stmt> {
    let (first, last) = (page.first()?, page.last()?);
    let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let mut entries = String::with_capacity(page.iter().map(|r| r.input.len() + r.output.len() + 160).sum());
    entries.push('[');
    for (i, r) in page.iter().enumerate() {
        if i > 0 {
            entries.push(',');
        }
        entries.push_str(&format!(
            r#"{{"id":{},"op":"{}","tenant":{},"user":{},"at":{},"input":{},"output":{}}}"#,
            quoted(&r.decision_id),
            r.operation.as_str(),
            quoted(&r.tenant_id),
            quoted(&r.user_id),
            r.decided_at,
            r.input,
            r.output
        ));
    }
    entries.push(']');
    Some(Stmt::new(
        "INSERT INTO decision_pages (page_id, last_id, environment, decided_to, rules_version, rules_sha256, entries) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        vec![
            first.decision_id.as_str().into(),
            last.decision_id.as_str().into(),
            first.environment.as_str().into(),
            page.iter().map(|r| r.decided_at).max().unwrap_or(first.decided_at).into(),
            first.rules_version.as_str().into(),
            first.rules_sha256.as_str().into(),
            pack(entries).into(),
        ],
    ))
}

/// The decisions of a page row (`environment, rules_version, rules_sha256, entries`).
pub(crate) fn page_decisions(row: &Row) -> ApiResult<Vec<RecordedDecision>> {
    let environment = Environment::parse(&row.text(0)?).ok_or_else(ApiError::internal)?;
    let (rules_version, rules_sha256, text) = (row.text(1)?, row.text(2)?, unpack(row.text(3)?)?);
    let entries: Vec<PageEntry<'_>> = serde_json::from_str(&text).map_err(|_| ApiError::internal())?;
    entries
        .into_iter()
        .map(|e| {
            Ok(RecordedDecision {
                decision_id: e.id.into_owned(),
                operation: Operation::parse(&e.op).ok_or_else(ApiError::internal)?,
                environment,
                tenant_id: e.tenant.into_owned(),
                user_id: e.user.into_owned(),
                decided_at: e.at,
                rules_version: rules_version.clone(),
                rules_sha256: rules_sha256.clone(),
                input: e.input.get().to_string(),
                output: e.output.get().to_string(),
            })
        })
        .collect()
}

const SELECT_DECISION: &str = "SELECT decision_id, operation, environment, tenant_id, user_id, decided_at, rules_version, rules_sha256, input, output
 FROM decisions WHERE decision_id = ?1";

fn recorded_from_row(row: &Row) -> ApiResult<RecordedDecision> {
    Ok(RecordedDecision {
        decision_id: row.text(0)?,
        operation: Operation::parse(&row.text(1)?).ok_or_else(ApiError::internal)?,
        environment: Environment::parse(&row.text(2)?).ok_or_else(ApiError::internal)?,
        tenant_id: row.text(3)?,
        user_id: row.text(4)?,
        decided_at: row.int(5)?,
        rules_version: row.text(6)?,
        rules_sha256: row.text(7)?,
        input: row.text(8)?,
        output: row.text(9)?,
    })
}

/// A decision stored in a row of its own.
pub(crate) async fn by_id(store: &dyn Store, decision_id: &str) -> ApiResult<Option<RecordedDecision>> {
    let rows = store.query(SELECT_DECISION, vec![decision_id.into()]).await?;
    rows.first().map(recorded_from_row).transpose()
}

/// The decisions of every page that may hold `decision_id`: those starting
/// at or after `floor` and at or before it, and ending at or after it.
pub(crate) async fn in_pages_around(store: &dyn Store, decision_id: &str, floor: &str) -> ApiResult<Vec<RecordedDecision>> {
    let pages = store
        .query(
            "SELECT environment, rules_version, rules_sha256, entries FROM decision_pages
             WHERE page_id <= ?1 AND page_id >= ?2 AND last_id >= ?1",
            vec![decision_id.into(), floor.into()],
        )
        .await?;
    let mut found = Vec::new();
    for page in &pages {
        found.extend(page_decisions(page)?);
    }
    Ok(found)
}

/// What a listing asks of the decision rows.
pub(crate) struct RowFilter<'a> {
    pub environment: Environment,
    /// empty for every tenant
    pub tenant_id: &'a str,
    /// empty for every user
    pub user_id: &'a str,
    pub from: i64,
    pub to: i64,
    pub after_id: &'a str,
    pub lower: &'a str,
    pub upper: &'a str,
    pub limit: i64,
}

/// The decision rows a listing asks for, in id order.
pub(crate) async fn rows(store: &dyn Store, f: &RowFilter<'_>) -> ApiResult<Vec<RecordedDecision>> {
    let rows = store
        .query(
            "SELECT decision_id, operation, environment, tenant_id, user_id, decided_at, rules_version, rules_sha256, input, output
             FROM decisions
             WHERE decision_id > ?6 AND decision_id >= ?8 AND decision_id < ?9
               AND environment = ?1 AND (?2 = '' OR tenant_id = ?2) AND (?3 = '' OR user_id = ?3) AND decided_at >= ?4 AND decided_at <= ?5
             ORDER BY decision_id LIMIT ?7",
            vec![
                f.environment.as_str().into(),
                f.tenant_id.into(),
                f.user_id.into(),
                f.from.into(),
                f.to.into(),
                f.after_id.into(),
                f.limit.into(),
                f.lower.into(),
                f.upper.into(),
            ],
        )
        .await?;
    rows.iter().map(recorded_from_row).collect()
}

/// A page as a listing reads it: its key and its decisions.
pub(crate) struct Page {
    pub page_id: String,
    pub decisions: Vec<RecordedDecision>,
}

/// Up to `limit` pages of the environment in key order after `page_after`
/// (or from it, on the first read), before `upper`, ending after `after_id`.
pub(crate) async fn pages_after(
    store: &dyn Store,
    environment: Environment,
    page_after: &str,
    first_read: bool,
    upper: &str,
    after_id: &str,
    limit: i64,
) -> ApiResult<Vec<Page>> {
    let rows = store
        .query(
            "SELECT environment, rules_version, rules_sha256, entries, page_id FROM decision_pages
             WHERE environment = ?1 AND (page_id > ?2 OR (?5 = 1 AND page_id = ?2)) AND page_id < ?3 AND last_id > ?6
             ORDER BY page_id LIMIT ?4",
            vec![environment.as_str().into(), page_after.into(), upper.into(), limit.into(), first_read.into(), after_id.into()],
        )
        .await?;
    rows.iter().map(|row| Ok(Page { page_id: row.text(4)?, decisions: page_decisions(row)? })).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries_text(n: usize) -> String {
        let entry = |i: usize| {
            format!(
                r#"{{"id":"d{i}","op":"check-deposit","tenant":"t","user":"u","at":{i},"input":{{"limits":[{{"amount_cents":5000}}],"deposits":[{{"amount_cents":{i},"at":{i}}}]}},"output":{{"allowed":true}}}}"#
            )
        };
        format!("[{}]", (0..n).map(entry).collect::<Vec<_>>().join(","))
    }

    #[test]
    fn a_packed_page_unpacks_to_its_text_byte_for_byte_and_is_smaller() {
        let text = entries_text(256);
        let packed = pack(text.clone());
        assert!(packed.starts_with(PACKED_PREFIX));
        assert!(packed.len() * 3 < text.len(), "{} packed from {}", packed.len(), text.len());
        assert_eq!(unpack(packed).unwrap(), text);
    }

    #[test]
    fn a_page_too_large_to_pack_is_stored_as_its_text() {
        let text = format!("[{}]", "0,".repeat(MAX_PACKED_BYTES / 2) + "0");
        assert!(text.len() > MAX_PACKED_BYTES);
        let stored = pack(text.clone());
        assert_eq!(stored, text);
        assert_eq!(unpack(stored).unwrap(), text);
        let small = entries_text(1);
        assert_ne!(pack(small.clone()), small, "the twin: a page under the bound is packed");
    }

    #[test]
    fn a_page_written_before_packing_is_read_as_it_is() {
        let text = entries_text(2);
        assert_eq!(unpack(text.clone()).unwrap(), text);
    }

    #[test]
    fn a_corrupted_page_is_refused_and_its_length_never_allocated() {
        let encode = |bytes: &[u8]| format!("{PACKED_PREFIX}{}", base64::engine::general_purpose::STANDARD_NO_PAD.encode(bytes));
        let text = entries_text(4);
        let good = lz4_flex::block::compress_prepend_size(text.as_bytes());
        assert_eq!(unpack(encode(&good)).unwrap(), text, "the twin: the same block unaltered");
        // a length of 2 GiB before a valid block
        let mut huge = good.clone();
        huge[..4].copy_from_slice(&(2u32 << 30).to_le_bytes());
        assert!(unpack(encode(&huge)).is_err());
        // a length one byte more, or less, than the block holds
        for wrong in [text.len() + 1, text.len() - 1] {
            let mut altered = good.clone();
            altered[..4].copy_from_slice(&(wrong as u32).to_le_bytes());
            assert!(unpack(encode(&altered)).is_err(), "a length of {wrong} for {}", text.len());
        }
        // a block cut short, a length cut short, and text that is not base64
        assert!(unpack(encode(&good[..good.len() / 2])).is_err());
        assert!(unpack(encode(&good[..3])).is_err());
        assert!(unpack(format!("{PACKED_PREFIX}not base64!")).is_err());
    }
}
