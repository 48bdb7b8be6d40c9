//! Scheduled refresh of sanctions lists from configured URLs: each source is
//! downloaded, read in its format and imported as a new version. A failed,
//! cut-short or unreadable download replaces nothing (the import refuses it)
//! and is logged; the active version keeps screening.

use std::time::Duration;

use gateway::auth::Environment;
use gateway::lists::{parse, ListEntry, ListFormat};
use gateway::Gateway;

/// The largest list file accepted (OpenSanctions' consolidated CSV is a few hundred MB).
const MAX_DOWNLOAD_BYTES: u64 = 1 << 30;

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
        let format = ListFormat::parse(format).ok_or_else(|| format!("{format:?} is not ofac-csv, opensanctions-csv or un-xml"))?;
        if !(url.starts_with("https://") || url.starts_with("http://")) {
            return Err(format!("{url:?} is not an http(s) URL"));
        }
        let source = source.unwrap_or(format.default_source()).to_string();
        Ok(ListSource { environment, format, url: url.to_string(), source })
    }
}

pub struct ListFetcher {
    client: reqwest::Client,
}

impl ListFetcher {
    pub fn new() -> Result<Self, String> {
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(300))
            .build()
            .map_err(|e| format!("cannot build the list client: {e}"))?;
        Ok(ListFetcher { client })
    }

    async fn download(&self, url: &str) -> Result<Vec<u8>, String> {
        let response = self.client.get(url).send().await.map_err(|e| format!("{}: {}", crate::redact(url), without_url(e)))?;
        let status = response.status();
        if !status.is_success() {
            return Err(format!("{}: answered {status}", crate::redact(url)));
        }
        let expected = response.content_length();
        if expected.is_some_and(|n| n > MAX_DOWNLOAD_BYTES) {
            return Err(format!("{}: larger than {MAX_DOWNLOAD_BYTES} bytes", crate::redact(url)));
        }
        let bytes = response.bytes().await.map_err(|e| format!("{}: {}", crate::redact(url), without_url(e)))?;
        if expected.is_some_and(|n| n != bytes.len() as u64) {
            return Err(format!("{}: {} of {} bytes arrived", crate::redact(url), bytes.len(), expected.unwrap_or_default()));
        }
        Ok(bytes.to_vec())
    }

    /// Downloads and reads one source.
    pub async fn fetch(&self, list: &ListSource) -> Result<Vec<ListEntry>, String> {
        match list.format {
            ListFormat::OfacCsv => {
                let base = if list.url.ends_with('/') { list.url.clone() } else { format!("{}/", list.url) };
                let sdn = self.download(&format!("{base}sdn.csv")).await?;
                let alt = self.download(&format!("{base}alt.csv")).await?;
                parse::ofac(&sdn, Some(&alt))
            }
            ListFormat::OpenSanctionsCsv => parse::opensanctions(&self.download(&list.url).await?),
            ListFormat::UnXml => parse::un(&self.download(&list.url).await?),
        }
    }
}

/// The error without its URL, which may carry credentials.
fn without_url(e: reqwest::Error) -> String {
    e.without_url().to_string()
}

/// Refreshes every source once; answers one line per source.
pub async fn refresh_once(gateway: &Gateway, fetcher: &ListFetcher, lists: &[ListSource]) -> Vec<Result<String, String>> {
    let mut outcomes = Vec::new();
    for list in lists {
        let outcome = match fetcher.fetch(list).await {
            Ok(entries) => match gateway.import_list(list.environment, &list.source, list.format, entries, "list-refresh").await {
                Ok(s) => Ok(format!("{} {}: imported {} entries, version {}", list.environment.as_str(), s.source, s.entries, s.version)),
                Err(e) => Err(format!("{} {}: {}: {}", list.environment.as_str(), list.source, e.code, e.message)),
            },
            Err(e) => {
                gateway.audit_refused_list_import(list.environment, &list.source, "list-refresh", "unreadable_list").await;
                Err(format!("{} {}: {e}", list.environment.as_str(), list.source))
            }
        };
        outcomes.push(outcome);
    }
    outcomes
}

/// Refreshes the lists now and then every `every`, logging each outcome.
pub async fn refresh_loop(gateway: std::sync::Arc<Gateway>, lists: Vec<ListSource>, every: Duration) {
    let fetcher = match ListFetcher::new() {
        Ok(f) => f,
        Err(e) => return eprintln!("list refresh disabled: {e}"),
    };
    loop {
        for outcome in refresh_once(&gateway, &fetcher, &lists).await {
            match outcome {
                Ok(line) => eprintln!("list refresh: {line}"),
                Err(line) => eprintln!("list refresh failed, the active version stays: {line}"),
            }
        }
        tokio::time::sleep(every).await;
    }
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
    }
}
