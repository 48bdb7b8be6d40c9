//! The conformance suite: black-box HTTP cases run against any host.
//!
//! Cases are data ([`cases::ALL`]); each host has a runner that starts (or
//! finds) a server and a skip list of cases it does not support yet.

pub mod cases;
pub mod client;
pub mod harness;
pub mod idp;
pub mod receiver;
pub mod registers;
pub mod runner;

pub use client::{Env, Resp, Tenant};

/// A case's outcome: `Err` carries what was wrong.
pub type CaseResult = Result<(), String>;

pub struct Case {
    pub name: &'static str,
    pub run: fn(&Env) -> CaseResult,
}

/// Fails the case with a message unless the condition holds.
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $($msg:tt)+) => {
        let holds: bool = $cond;
        if !holds {
            return Err(format!("{} (at line {})", format!($($msg)+), line!()));
        }
    };
}

/// Fails the case unless the two values are equal.
#[macro_export]
macro_rules! ensure_eq {
    ($left:expr, $right:expr) => {
        match (&$left, &$right) {
            (l, r) => {
                if l != r {
                    return Err(format!("{} = {:?}, expected {:?} (at line {})", stringify!($left), l, r, line!()));
                }
            }
        }
    };
    ($left:expr, $right:expr, $ctx:expr) => {
        match (&$left, &$right) {
            (l, r) => {
                if l != r {
                    return Err(format!("{} = {:?}, expected {:?}; {} (at line {})", stringify!($left), l, r, $ctx, line!()));
                }
            }
        }
    };
}
