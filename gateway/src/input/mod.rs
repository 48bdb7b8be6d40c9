//! Request input: JSON body fields and query parameters, validated with
//! precise, stable error codes; contacts, money, and the request's parts a
//! handler takes. Which text no one can read is the rules' to say
//! (`read-name`).

mod contact;
mod extract;
mod fields;
pub(crate) mod money;
mod query;

pub use contact::*;
pub use extract::*;
pub use fields::*;
pub use money::*;
pub use query::*;

#[cfg(test)]
mod tests;
