//! What the player is told: the text an operator shows, word for word, when
//! a deposit or a withdrawal is refused or held. The wording is a rule
//! (regulators ask for clear, non-revealing messages), so it lives here.
//! A message never names a sanctions match or an AML review.

use alloc::string::String;
use serde::{Deserialize, Serialize};

#[allow(unused_imports)]
use crate::*;

/// A breached deposit limit, as its message names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BreachNotice {
    pub breach: DepositBreach,
    /// the deposit asked for
    pub amount_cents: i64,
    /// the limit's currency, an ISO 4217 code
    pub currency: String,
    /// the currency's ISO 4217 minor-unit exponent
    #[serde(default = "crate::kyc::cents_exponent")]
    pub currency_exponent: u8,
}

/// What the player is to be told.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerNotice {
    /// deposits held while the account is reviewed (the reason is not said)
    DepositHeld,
    /// deposits refused during a self-exclusion
    DepositExcluded,
    DepositBreach(BreachNotice),
    /// a withdrawal held while the account is reviewed
    WithdrawalHeld,
    /// a withdrawal within the verified tier
    WithdrawalApproved,
    /// deposits wait for the player's identity to be verified (due diligence; the reason is not said)
    DepositVerificationRequired,
}
