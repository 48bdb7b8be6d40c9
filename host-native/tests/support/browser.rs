//! What the console's browser tests share: finding chromedriver, and
//! driving and checking a page through fantoccini.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::json;

/// Where chromedriver is; none skips the test, unless `CGW_BROWSER_TESTS=1`
/// says a browser must be there (a failure then).
pub fn chromedriver() -> Option<String> {
    let path = std::env::var("CGW_CHROMEDRIVER").unwrap_or_else(|_| "/usr/bin/chromedriver".into());
    if std::path::Path::new(&path).exists() {
        return Some(path);
    }
    assert!(std::env::var("CGW_BROWSER_TESTS").as_deref() != Ok("1"), "CGW_BROWSER_TESTS=1 but there is no chromedriver at {path}");
    None
}

/// No CSP violation on the page, and no serious or critical axe-core finding.
pub async fn check_page(c: &Client, axe: &str, page: &str) {
    let violations = c.execute("return sessionStorage.getItem('cgw-csp');", vec![]).await.unwrap();
    assert!(violations.is_null() || violations == json!("[]"), "{page}: CSP violations {violations}");
    let script = format!(
        "{axe}\n;var done = arguments[arguments.length - 1];\
         axe.run(document).then(function (r) {{ done(r.violations.filter(function (v) {{ return v.impact === 'serious' || v.impact === 'critical'; }})\
         .map(function (v) {{ return v.id + ' (' + v.impact + '): ' + v.nodes.map(function (n) {{ return n.html; }}).join(' | '); }})); }})\
         .catch(function (e) {{ done(['axe failed: ' + e]); }});"
    );
    let found = c.execute_async(&script, vec![]).await.unwrap();
    assert_eq!(found, json!([]), "{page}: accessibility violations");
}

/// Replaces a field's text (an empty `text` leaves it empty).
pub async fn fill(c: &Client, css: &str, text: &str) {
    let field = c.find(Locator::Css(css)).await.unwrap();
    field.clear().await.unwrap();
    if !text.is_empty() {
        field.send_keys(text).await.unwrap();
    }
}

/// Clicks what loads a new page, and waits until the new page has loaded:
/// the old document's root goes stale, the new one is complete.
pub async fn click(c: &Client, css: &str) {
    let old = c.find(Locator::Css("html")).await.unwrap();
    c.find(Locator::Css(css)).await.unwrap().click().await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(15);
    while old.tag_name().await.is_ok() {
        assert!(Instant::now() < deadline, "clicking {css} loaded no new page");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    while c.execute("return document.readyState;", vec![]).await.ok() != Some(json!("complete")) {
        assert!(Instant::now() < deadline, "the page after {css} did not finish loading");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub async fn text_of(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css)).await.unwrap().text().await.unwrap()
}
