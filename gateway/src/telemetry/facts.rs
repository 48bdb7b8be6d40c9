//! What a host's request log and timers learn of a request beside its status.

/// A check-path request's endpoint and outcome, for the host's timer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckFacts {
    pub endpoint: &'static str,
    pub outcome: std::borrow::Cow<'static, str>,
}

/// What a host's request log tells of a request beside its status (in the
/// response's extensions): the route's template, never the raw path, and the
/// caller's tenant once the key is known.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestFacts {
    pub route: Option<&'static str>,
    pub tenant_id: Option<String>,
    /// the route's `operationId`
    pub operation_id: Option<&'static str>,
    /// a check-path request's endpoint and outcome
    pub check: Option<CheckFacts>,
}
