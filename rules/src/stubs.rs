//! The deterministic sandbox vendors.

/// The lists a stub match claims to come from (admin case view only).
pub const STUB_LISTS: [&str; 4] = ["US OFAC SDN", "EU Consolidated Financial Sanctions", "UN Security Council Consolidated", "UK OFSI Consolidated"];

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScreeningOutcome {
    pub hit: bool,
    pub match_count: u32,
    pub highest_score: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StubKycOutcome {
    Approve,
    Reject,
    ManualReview,
}

/// Sandbox screening: `SanctionedSam` is a strong single match, a first name
/// starting with `Maybe` a borderline one, last name `TestHit` two matches;
/// anyone else is clear. Names are compared exactly, as the vendor would.
pub fn stub_screen(first_name: &str, last_name: &str) -> ScreeningOutcome {
    if first_name == "SanctionedSam" {
        ScreeningOutcome { hit: true, match_count: 1, highest_score: 0.97 }
    } else if first_name.starts_with("Maybe") {
        ScreeningOutcome { hit: true, match_count: 1, highest_score: 0.85 }
    } else if last_name == "TestHit" {
        ScreeningOutcome { hit: true, match_count: 2, highest_score: 0.91 }
    } else {
        ScreeningOutcome { hit: false, match_count: 0, highest_score: 0.0 }
    }
}

/// Sandbox identity verification keyed on the operator's user id.
pub fn stub_kyc(external_user_id: &str) -> StubKycOutcome {
    if external_user_id.contains("autoapprove") {
        StubKycOutcome::Approve
    } else if external_user_id.contains("autoreject") {
        StubKycOutcome::Reject
    } else {
        StubKycOutcome::ManualReview
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triggers_match_the_spec_table() {
        let sam = stub_screen("SanctionedSam", "Smith");
        assert!(sam.hit && sam.match_count == 1 && sam.highest_score >= 0.95);
        let maybe = stub_screen("MaybeMary", "Smith");
        assert!(maybe.hit && (maybe.highest_score - 0.85).abs() < 1e-9);
        let two = stub_screen("Anna", "TestHit");
        assert!(two.hit && two.match_count == 2);
        let clear = stub_screen("Anna", "Smith");
        assert!(!clear.hit && clear.match_count == 0);
    }

    #[test]
    fn near_misses_are_clear() {
        assert!(!stub_screen("sanctionedsam", "Smith").hit);
        assert!(!stub_screen("SanctionedSammy", "Smith").hit);
        assert!(!stub_screen("maybe", "Smith").hit);
        assert!(!stub_screen("Anna", "TestHits").hit);
    }

    #[test]
    fn kyc_stub_triggers() {
        assert_eq!(stub_kyc("user-autoapprove-1"), StubKycOutcome::Approve);
        assert_eq!(stub_kyc("autoreject"), StubKycOutcome::Reject);
        assert_eq!(stub_kyc("user-1"), StubKycOutcome::ManualReview);
        assert_eq!(stub_kyc("AUTOAPPROVE"), StubKycOutcome::ManualReview);
    }
}
