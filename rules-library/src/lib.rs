//! The rules library called directly through the gateway's [`Rules`] port:
//! for differential tests (library against component) and benchmarks. No
//! host links this crate; production runs the component, whose SHA-256
//! auditors verify (`component_sha256` here is `library`).
//!
//! [`Rules`]: gateway::ports::Rules

/// The rules library as a [`gateway::ports::Rules`].
pub struct LibraryRules;

mod calls {
    use rules::*;
    gateway::library_rules!(super::LibraryRules);
}
