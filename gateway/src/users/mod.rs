//! Users: what every area reads of a user, and the claim that makes a
//! batch writing a user's state commit only against what it read.

pub mod store;

pub use store::User;
