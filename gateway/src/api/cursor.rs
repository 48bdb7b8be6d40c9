//! Page cursors: opaque to clients, `{"v": 1, "after": …}` in URL-safe
//! base64, where `after` is the sort key of the last row served.

use base64::Engine;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value as Json};

/// The cursor that continues after the row with this sort key.
pub(crate) fn encode<T: Serialize>(after: &T) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json!({ "v": 1, "after": after }).to_string())
}

/// The sort key a cursor continues after; `None` for one this service did not issue.
pub(crate) fn decode<T: DeserializeOwned>(cursor: &str) -> Option<T> {
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(cursor).ok()?;
    let value: Json = serde_json::from_slice(&bytes).ok()?;
    (value.get("v")?.as_i64()? == 1).then_some(())?;
    serde_json::from_value(value.get("after")?.clone()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_round_trips_and_a_foreign_one_is_refused() {
        let key = (1_700_000_000_i64, "case_1".to_string());
        assert_eq!(decode::<(i64, String)>(&encode(&key)), Some(key));
        assert_eq!(decode::<i64>(&encode(&42)), Some(42));
        for foreign in ["", "not base64!", "eyJ2IjoyLCJhZnRlciI6MX0", "bnVsbA"] {
            assert_eq!(decode::<i64>(foreign), None, "{foreign}");
        }
        // a cursor of another list's key shape is refused too
        assert_eq!(decode::<(i64, String)>(&encode(&42)), None);
    }
}
