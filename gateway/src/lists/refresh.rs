//! Scheduled refresh of sanctions lists from configured URLs, the same on
//! every host: each source has a due time in the store that one host claims;
//! that host downloads the list through its HTTP port, reads it in its format
//! and stages it as a new version, which scheduled rounds then load and
//! switch in. A failed, cut-short or unreadable download replaces nothing
//! (the import refuses it), is audited, and is tried again sooner.

use crate::auth::Environment;
use crate::ports::StoreError;
use crate::Gateway;

use super::{parse, store, ListEntry, ListFormat};

/// The largest list file accepted (OpenSanctions' consolidated CSV is a few hundred MB).
const MAX_DOWNLOAD_BYTES: u64 = 1 << 30;
/// How soon a failed refresh is tried again, unless the interval is shorter.
const RETRY_SECONDS: i64 = 10 * 60;
/// The refresh interval unless configured: the lists publish about daily.
pub const DEFAULT_REFRESH_SECONDS: i64 = 24 * 3_600;

/// A list to keep fresh: `ENVIRONMENT,FORMAT,URL[,SOURCE]`. For `ofac-csv`
/// the URL is the folder holding `sdn.csv` and `alt.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListSource {
    pub environment: Environment,
    pub format: ListFormat,
    pub url: String,
    pub source: String,
}

impl ListSource {
    pub fn parse(text: &str) -> Result<Self, String> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let (environment, format, url, source) = match parts.as_slice() {
            [e, f, u] => (*e, *f, *u, None),
            [e, f, u, s] => (*e, *f, *u, Some(*s)),
            _ => return Err(format!("{text:?} is not ENVIRONMENT,FORMAT,URL[,SOURCE]")),
        };
        let environment = Environment::parse(environment).ok_or_else(|| format!("{environment:?} is not sandbox or production"))?;
        let format = ListFormat::parse(format).ok_or_else(|| {
            let names: Vec<&str> = ListFormat::ALL.iter().map(|f| f.as_str()).collect();
            format!("{format:?} is not one of {}", names.join(", "))
        })?;
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err("the list URL is not an http(s) URL".to_string());
        }
        let source = source.unwrap_or(format.default_source()).to_string();
        Ok(ListSource { environment, format, url: url.to_string(), source })
    }

    /// `;`-separated sources, as hosts take them from one setting.
    pub fn parse_all(text: &str) -> Result<Vec<Self>, String> {
        text.split(';').map(str::trim).filter(|s| !s.is_empty()).map(Self::parse).collect()
    }
}

/// Downloads and reads one source through the host's HTTP port. Errors
/// name the file, never the URL (it may carry credentials).
pub async fn download(gw: &Gateway, list: &ListSource) -> Result<Vec<ListEntry>, String> {
    let http = gw.vendor_http.as_deref().ok_or("this host has no HTTP client for list downloads")?;
    let get = |file: &'static str, url: String| async move { http.download(&url, MAX_DOWNLOAD_BYTES).await.map_err(|e| format!("{file}: {e}")) };
    match list.format {
        ListFormat::OfacCsv => {
            let base = if list.url.ends_with('/') { list.url.clone() } else { format!("{}/", list.url) };
            let sdn = get("sdn.csv", format!("{base}sdn.csv")).await?;
            let alt = get("alt.csv", format!("{base}alt.csv")).await?;
            parse::ofac(&sdn, Some(&alt))
        }
        single_file => single_file.read(&get("the list", list.url.clone()).await?),
    }
}

/// Refreshes each configured source that is due and that this host
/// claims first: downloads, reads and stages it. Answers one line per
/// source refreshed, `Err` for one that failed (the active version stays).
pub async fn refresh_due(gw: &Gateway) -> Vec<Result<String, String>> {
    let mut outcomes = Vec::new();
    for list in &gw.config.list_sources {
        let label = format!("{} {}", list.environment.as_str(), list.source);
        match claim_refresh(gw, list).await {
            Ok(true) => {}
            Ok(false) => continue,
            Err(e) => {
                outcomes.push(Err(format!("{label}: {e}")));
                continue;
            }
        }
        let outcome = match download(gw, list).await {
            Ok(entries) => match super::stage_import(gw, list.environment, &list.source, list.format, entries, "list-refresh").await {
                Ok(s) => Ok(format!("{label}: staged {} entries, version {}", s.entries, s.version)),
                Err(e) => Err(format!("{label}: {}: {}", e.code, e.message)),
            },
            Err(e) => {
                super::audit_refused_import(gw, list.environment, &list.source, "list-refresh", "unreadable_list").await;
                Err(format!("{label}: {e}"))
            }
        };
        if outcome.is_err() {
            metrics::counter!(crate::metric_names::LIST_REFRESH_FAILURES, "environment" => list.environment.as_str(), "source" => list.source.clone())
                .increment(1);
            let retry_at = gw.clock.now() + RETRY_SECONDS.min(refresh_seconds(gw));
            let _ = gw.store.batch(vec![store::refresh_at(list.environment, &list.source, retry_at)]).await;
        }
        outcomes.push(outcome);
    }
    outcomes
}

fn refresh_seconds(gw: &Gateway) -> i64 {
    gw.config.list_refresh_seconds.unwrap_or(DEFAULT_REFRESH_SECONDS).max(60)
}

/// Whether this host won the source's due refresh: the due time moves
/// one interval on in a conditional update only one host can make.
async fn claim_refresh(gw: &Gateway, list: &ListSource) -> Result<bool, StoreError> {
    let now = gw.clock.now();
    store::claim_refresh(gw.store.as_ref(), list.environment, &list.source, now, now + refresh_seconds(gw)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_read_from_their_setting() {
        let s = ListSource::parse("production,ofac-csv,https://example.org/ofac/").unwrap();
        assert_eq!((s.environment, s.format, s.source.as_str()), (Environment::Production, ListFormat::OfacCsv, "ofac-sdn"));
        assert_eq!(ListSource::parse("sandbox,un-xml,https://example.org/un.xml,un").unwrap().source, "un");
        assert!(ListSource::parse("staging,un-xml,https://example.org/un.xml").is_err());
        assert!(ListSource::parse("production,pdf,https://example.org/list.pdf").is_err());
        assert!(ListSource::parse("production,un-xml,ftp://example.org/un.xml").is_err());
        assert!(ListSource::parse("production,un-xml").is_err());
        let all = ListSource::parse_all(" production,un-xml,https://a/un.xml ; sandbox,ofac-csv,https://b/ ;").unwrap();
        assert_eq!(all.len(), 2);
        assert!(ListSource::parse_all("production,un-xml,https://a/un.xml;nonsense").is_err());
        assert!(ListSource::parse_all("").unwrap().is_empty());
    }
}
