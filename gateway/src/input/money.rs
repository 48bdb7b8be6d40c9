//! Money on the wire: the amounts every store keeps, and ISO 4217 currencies.

use crate::ports::MAX_STORED_INTEGER;

/// The largest amount accepted: the rules' bound, within what every store keeps.
pub fn max_cents() -> i64 {
    rules_model::MAX_AMOUNT_CENTS.min(MAX_STORED_INTEGER)
}

/// Every ISO 4217 code [`currency_exponent`] accepts, in order.
pub fn currency_codes() -> Vec<&'static str> {
    use iso_currency::IntoEnumIterator;
    let mut codes: Vec<&'static str> = iso_currency::Currency::iter().filter(|c| c.exponent().is_some()).map(|c| c.code()).collect();
    codes.sort_unstable();
    codes
}

/// The ISO 4217 minor-unit exponent of a currency code; `None` for a code
/// that is not ISO 4217 money (unknown, lower-case, or without a minor unit).
pub fn currency_exponent(code: &str) -> Option<u8> {
    let exponent = iso_currency::Currency::from_code(code)?.exponent()?;
    u8::try_from(exponent).ok()
}
