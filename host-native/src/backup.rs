//! `compliance-gateway backup`: a consistent online copy of a SQLite store,
//! taken through SQLite's backup API while the server keeps writing.

use std::path::Path;
use std::time::Duration;

use rusqlite::{backup::Backup, Connection, OpenFlags};

/// What a finished backup copied.
pub struct BackupReport {
    pub pages: i32,
    pub bytes: u64,
}

/// Copies the SQLite database at `source` to `out` (which must not exist).
/// The copy is one snapshot: the backup API restarts when a writer changes
/// the source between steps, so every page comes from the same instant.
pub fn sqlite_backup(source: &Path, out: &Path) -> Result<BackupReport, String> {
    if out.exists() {
        return Err(format!("{} exists; a backup never overwrites a file", out.display()));
    }
    if !source.exists() {
        return Err(format!("no database at {}", source.display()));
    }
    let from = Connection::open_with_flags(source, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| format!("cannot open {}: {e}", source.display()))?;
    from.busy_timeout(Duration::from_secs(30)).map_err(|e| e.to_string())?;
    let partial = out.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    let copied = (|| -> Result<i32, String> {
        let e = |e: rusqlite::Error| e.to_string();
        let mut to = Connection::open(&partial).map_err(e)?;
        let pages = {
            let backup = Backup::new(&from, &mut to).map_err(e)?;
            // 1,024 pages a step, no pause: a busy source restarts the copy, never mixes instants
            backup.run_to_completion(1_024, Duration::ZERO, None).map_err(e)?;
            backup.progress().pagecount
        };
        // a self-contained file: no WAL beside it
        to.pragma_update(None, "journal_mode", "DELETE").map_err(e)?;
        let check: String = to.query_row("PRAGMA quick_check", [], |row| row.get(0)).map_err(e)?;
        if check != "ok" {
            return Err(format!("the copy failed its check: {check}"));
        }
        Ok(pages)
    })();
    let pages = match copied {
        Ok(pages) => pages,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(format!("the backup failed: {e}"));
        }
    };
    std::fs::rename(&partial, out).map_err(|e| format!("cannot move the copy to {}: {e}", out.display()))?;
    let bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
    Ok(BackupReport { pages, bytes })
}
