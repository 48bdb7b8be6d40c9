//! What the player is told: the text an operator shows, word for word, when
//! a deposit or a withdrawal is refused or held. The wording is a rule
//! (regulators ask for clear, non-revealing messages), so it lives here.
//! A message never names a sanctions match or an AML review.

use crate::limits::LimitWindow;
#[allow(unused_imports)]
use crate::traits::*;
#[allow(unused_imports)]
use crate::*;
use alloc::format;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::messages::*;

/// An amount in minor units as a player reads it, with as many decimals as
/// the currency has: `USD 12.50`, `JPY 1250`, `BHD 1.250`.
pub fn money(minor: i64, currency: &str, exponent: u8) -> String {
    let exponent = exponent.min(crate::kyc::MAX_CURRENCY_EXPONENT);
    if exponent == 0 {
        return format!("{currency} {minor}");
    }
    let unit = 10_i64.pow(u32::from(exponent));
    let sign = if minor < 0 { "-" } else { "" };
    let (major, fraction) = ((minor / unit).abs(), (minor % unit).abs());
    format!("{currency} {sign}{major}.{fraction:0width$}", width = usize::from(exponent))
}

fn instant(unix_seconds: i64) -> String {
    chrono::DateTime::from_timestamp(unix_seconds, 0)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_else(|| String::from("a later time"))
}

/// The message for a notice.
pub fn player_message(notice: &PlayerNotice) -> String {
    match notice {
        PlayerNotice::DepositHeld => String::from("Deposits are temporarily unavailable on this account. Please contact support."),
        PlayerNotice::DepositExcluded => String::from("Deposits are unavailable while a self-exclusion is active."),
        PlayerNotice::WithdrawalHeld => String::from("Withdrawal held: the account is under review."),
        PlayerNotice::WithdrawalApproved => String::from("Withdrawal approved: no identity verification is needed for this amount."),
        PlayerNotice::DepositVerificationRequired => String::from("Please verify your identity to continue depositing."),
        PlayerNotice::DepositBreach(n) => {
            let b = &n.breach;
            let window = match b.window {
                LimitWindow::Daily => "daily",
                LimitWindow::Weekly => "weekly",
                LimitWindow::Monthly => "monthly",
            };
            let limit = money(b.limit_cents, &n.currency, n.currency_exponent);
            if n.amount_cents > b.limit_cents {
                format!(
                    "This deposit of {} is larger than your {window} deposit limit of {limit}.",
                    money(n.amount_cents, &n.currency, n.currency_exponent)
                )
            } else if b.max_allowed_now_cents == 0 {
                format!("You have reached your {window} deposit limit of {limit}. You can deposit again from {}.", instant(b.next_reset_at))
            } else {
                format!(
                    "This deposit of {} would exceed your {window} deposit limit of {limit}. You can deposit up to {} now, or the full amount from {}.",
                    money(n.amount_cents, &n.currency, n.currency_exponent),
                    money(b.max_allowed_now_cents, &n.currency, n.currency_exponent),
                    instant(b.next_reset_at)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breach(amount_cents: i64, max_allowed_now_cents: i64) -> PlayerNotice {
        PlayerNotice::DepositBreach(BreachNotice {
            breach: DepositBreach {
                window: LimitWindow::Weekly,
                limit_cents: 10_000,
                already_spent_cents: 10_000 - max_allowed_now_cents,
                max_allowed_now_cents,
                next_reset_at: 1_767_225_600,
            },
            amount_cents,
            currency: String::from("EUR"),
            currency_exponent: 2,
        })
    }

    #[test]
    fn a_breach_says_which_limit_and_when() {
        assert_eq!(player_message(&breach(20_000, 5_000)), "This deposit of EUR 200.00 is larger than your weekly deposit limit of EUR 100.00.");
        assert_eq!(
            player_message(&breach(500, 0)),
            "You have reached your weekly deposit limit of EUR 100.00. You can deposit again from 2026-01-01T00:00:00Z."
        );
        assert_eq!(
            player_message(&breach(6_000, 2_550)),
            "This deposit of EUR 60.00 would exceed your weekly deposit limit of EUR 100.00. You can deposit up to EUR 25.50 now, or the full amount from 2026-01-01T00:00:00Z."
        );
    }

    /// Tipping-off: no message says why an account is held.
    #[test]
    fn a_hold_does_not_say_why() {
        for notice in [PlayerNotice::DepositHeld, PlayerNotice::WithdrawalHeld] {
            let text = player_message(&notice).to_lowercase();
            for word in ["sanction", "match", "aml", "laundering", "suspicious", "watchlist"] {
                assert!(!text.contains(word), "{text}");
            }
        }
    }

    #[test]
    fn money_reads_as_major_units() {
        assert_eq!(money(1_250, "USD", 2), "USD 12.50");
        assert_eq!(money(5, "GBP", 2), "GBP 0.05");
        assert_eq!(money(-5, "GBP", 2), "GBP -0.05");
        assert_eq!(money(1_250, "JPY", 0), "JPY 1250");
        assert_eq!(money(1_250, "BHD", 3), "BHD 1.250");
        assert_eq!(money(7, "CLF", 4), "CLF 0.0007");
    }
}
