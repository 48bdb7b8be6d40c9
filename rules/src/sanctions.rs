//! Sanctions screening at signup and re-screening, and the compliance
//! team's review of a hit.

use crate::matching::{score_candidates, EntryTopic, NameQuery, NameReading, DEFAULT_HIT_THRESHOLD, MAX_MATCHES};
use crate::stubs::stub_screen;
#[allow(unused_imports)]
use crate::traits::*;
use crate::types::{Environment, EventKind, SanctionsStatus};
use crate::HOUR;
#[allow(unused_imports)]
use crate::*;
#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};
pub use rules_model::sanctions::*;

/// Hits are reviewed within this time of the screening.
pub const REVIEW_TARGET_SECONDS: i64 = 48 * HOUR;

/// Active users are re-screened when their last screening is this old (a quarter).
pub const RESCREEN_AFTER_SECONDS: i64 = 91 * 24 * HOUR;

/// Generic wording only: operators must not learn why a user is under review.
const ESTIMATED_REVIEW_TIME: &str = "24-48 hours";

/// Screens an identity against the list entries the store proposes (and,
/// in the sandbox, the stub vendor's triggers). A score at or above the
/// threshold is a hit: it never blocks signup but holds every transaction
/// until review. A user under review or confirmed is not screened again.
pub fn decide_screening(facts: &ScreeningFacts) -> ScreeningDecision {
    let current = facts.current.unwrap_or(SanctionsStatus::Clear);
    let unchanged = |status: SanctionsStatus| ScreeningDecision {
        status,
        opens_case: false,
        case_kind: CaseKind::SanctionsHit,
        transactions_held: status.holds_transactions(),
        match_count: 0,
        highest_score: 0.0,
        matches: Vec::new(),
        review_due_at: None,
        estimated_review_time: None,
        events: Vec::new(),
        set_aside: 0,
    };
    if current.holds_transactions() {
        return unchanged(current);
    }
    let threshold = facts.hit_threshold.filter(|t| (0.0..=1.0).contains(t)).unwrap_or(DEFAULT_HIT_THRESHOLD);
    let query = NameQuery {
        name: alloc::format!("{} {}", facts.first_name, facts.last_name),
        date_of_birth: facts.date_of_birth.clone(),
        nationality: facts.nationality.clone(),
    };
    let mut matches: Vec<ScreeningMatch> = score_candidates(&query, &facts.candidates)
        .into_iter()
        .filter(|s| s.score >= threshold)
        .filter_map(|s| {
            let candidate = facts.candidates.get(s.index as usize)?;
            // an entry of a topic the tenant does not screen for is never a match
            facts.scope.covers(candidate.topic).then_some(())?;
            Some(ScreeningMatch {
                topic: candidate.topic,
                source: candidate.source.clone(),
                entity_id: candidate.entity_id.clone(),
                name: s.name,
                score: s.score,
                name_score: s.name_score,
                date_of_birth_adjustment: s.date_of_birth_adjustment,
                nationality_adjustment: s.nationality_adjustment,
                fingerprint: candidate.fingerprint.clone(),
                reading: s.reading,
                aligned: s.aligned,
            })
        })
        .collect();
    if facts.environment == Environment::Sandbox {
        let outcome = stub_screen(&facts.first_name, &facts.last_name);
        matches.extend((0..if outcome.hit { outcome.match_count } else { 0 }).map(|i| {
            let score = if i == 0 { outcome.highest_score } else { outcome.highest_score - 0.05 };
            ScreeningMatch {
                source: crate::stubs::STUB_LISTS.get(i as usize % crate::stubs::STUB_LISTS.len()).copied().unwrap_or_default().to_string(),
                entity_id: alloc::format!("STUB-{}", i + 1),
                name: alloc::format!("{} {}", facts.first_name.to_uppercase(), facts.last_name.to_uppercase()),
                score,
                name_score: score,
                date_of_birth_adjustment: 0.0,
                nationality_adjustment: 0.0,
                topic: EntryTopic::Sanction,
                fingerprint: String::new(),
                reading: NameReading::AsWritten,
                aligned: Vec::new(),
            }
        }));
    }
    // A dismissed match stays dismissed while the entry's record is the one
    // the reviewer saw; a changed record is screened afresh.
    let before = matches.len();
    matches.retain(|m| !facts.dismissed.iter().any(|d| d.source == m.source && d.entity_id == m.entity_id && d.fingerprint == m.fingerprint));
    let set_aside = (before - matches.len()) as u32;
    if matches.is_empty() {
        return ScreeningDecision { set_aside, ..unchanged(current) };
    }
    matches.sort_by(|a, b| b.score.total_cmp(&a.score));
    let match_count = matches.len() as u32;
    let highest_score = matches.first().map_or(0.0, |m| m.score);
    matches.truncate(MAX_MATCHES);
    if !matches.iter().any(|m| m.topic == EntryTopic::Sanction) {
        // A PEP or adverse-media match is not a sanctions hit: it asks for
        // enhanced due diligence, holds nothing and changes no status.
        if facts.due_diligence_open {
            return unchanged(current);
        }
        let mut events = Vec::new();
        if matches.iter().any(|m| m.topic == EntryTopic::Pep) {
            events.push(EventKind::ScreeningPepMatch);
        }
        if matches.iter().any(|m| m.topic == EntryTopic::AdverseMedia) {
            events.push(EventKind::ScreeningAdverseMediaMatch);
        }
        return ScreeningDecision {
            opens_case: true,
            case_kind: CaseKind::EnhancedDueDiligence,
            match_count,
            highest_score,
            matches,
            review_due_at: Some(facts.now.saturating_add(REVIEW_TARGET_SECONDS)),
            events,
            set_aside,
            ..unchanged(current)
        };
    }
    ScreeningDecision {
        status: SanctionsStatus::HitReviewPending,
        opens_case: true,
        case_kind: CaseKind::SanctionsHit,
        transactions_held: true,
        match_count,
        highest_score,
        matches,
        review_due_at: Some(facts.now.saturating_add(REVIEW_TARGET_SECONDS)),
        estimated_review_time: Some(ESTIMATED_REVIEW_TIME.to_string()),
        events: alloc::vec![EventKind::SanctionsHit],
        set_aside,
    }
}

/// What a screening status means for the user's transactions.
pub fn describe_sanctions(status: SanctionsStatus) -> SanctionsView {
    SanctionsView { transactions_held: status.holds_transactions() }
}

/// A dismissal clears the user and lifts the holds; a confirmation
/// terminates the account and freezes funds. A decision is final.
pub fn decide_case_review(facts: &CaseReviewFacts) -> CaseReviewDecision {
    let outcome = match (facts.case_kind, facts.action) {
        (CaseKind::SanctionsHit, ReviewAction::Dismiss) => CaseReviewOutcome {
            case_status: CaseStatus::Dismissed,
            user_status: Some(SanctionsStatus::Cleared),
            transactions_held: false,
            events: alloc::vec![EventKind::SanctionsCleared],
            remember_matches: true,
        },
        (CaseKind::SanctionsHit, ReviewAction::Confirm) => CaseReviewOutcome {
            case_status: CaseStatus::Confirmed,
            user_status: Some(SanctionsStatus::Confirmed),
            transactions_held: true,
            events: alloc::vec![EventKind::SanctionsConfirmed, EventKind::SanctionsAccountFrozen],
            remember_matches: false,
        },
        // Due diligence records the team's finding; the user's status and
        // transactions are not the screening's to change.
        (CaseKind::EnhancedDueDiligence, action) => CaseReviewOutcome {
            case_status: if action == ReviewAction::Dismiss { CaseStatus::Dismissed } else { CaseStatus::Confirmed },
            user_status: None,
            transactions_held: false,
            events: Vec::new(),
            remember_matches: action == ReviewAction::Dismiss,
        },
    };
    let case_status = outcome.case_status;
    if facts.case_status == CaseStatus::Open {
        CaseReviewDecision::Apply(outcome)
    } else if facts.case_status == case_status {
        CaseReviewDecision::Repeat(CaseReviewOutcome { events: Vec::new(), ..outcome })
    } else {
        CaseReviewDecision::AlreadyDecided(facts.case_status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(first: &str, current: Option<SanctionsStatus>) -> ScreeningFacts {
        ScreeningFacts {
            now: 1_000,
            environment: Environment::Sandbox,
            first_name: first.into(),
            last_name: "Smith".into(),
            date_of_birth: "1990-01-01".into(),
            nationality: "GB".into(),
            current,
            candidates: Vec::new(),
            hit_threshold: None,
            sources: Vec::new(),
            scope: ScreeningScope::default(),
            due_diligence_open: false,
            dismissed: Vec::new(),
        }
    }

    fn listed(kind: crate::EntryKind, name: &str) -> ListCandidate {
        ListCandidate {
            source: "ofac-sdn".into(),
            entity_id: "22790".into(),
            kind,
            names: alloc::vec![name.to_string()],
            dates_of_birth: alloc::vec!["1962-11-23".into()],
            nationalities: alloc::vec!["VE".into()],
            topic: EntryTopic::Sanction,
            fingerprint: "fp-1".into(),
        }
    }

    #[test]
    fn a_listed_individual_is_a_hit_in_production_and_an_entity_or_a_lower_score_is_not() {
        let mut f = facts("Nicolas", None);
        f.environment = Environment::Production;
        f.last_name = "Maduro Moros".into();
        f.date_of_birth = "1962-11-23".into();
        f.nationality = "VE".into();
        f.candidates = alloc::vec![listed(crate::EntryKind::Individual, "MADURO MOROS, Nicolas")];
        let hit = decide_screening(&f);
        assert!(hit.opens_case && hit.match_count == 1 && hit.highest_score == 1.0, "{hit:?}");
        assert_eq!(hit.matches[0].entity_id, "22790");
        f.candidates = alloc::vec![listed(crate::EntryKind::Entity, "MADURO MOROS, Nicolas")];
        assert!(!decide_screening(&f).opens_case, "an entity matched a person");
        f.candidates = alloc::vec![listed(crate::EntryKind::Individual, "MADURO MOROS, Nicolas")];
        f.last_name = "Madero".into();
        (f.date_of_birth, f.nationality) = (String::new(), String::new());
        f.hit_threshold = Some(0.99);
        assert!(!decide_screening(&f).opens_case, "a score under the environment's threshold was a hit");
    }

    #[test]
    fn the_sandbox_stubs_apply_in_the_sandbox_only() {
        let mut f = facts("SanctionedSam", None);
        assert!(decide_screening(&f).opens_case);
        f.environment = Environment::Production;
        assert!(!decide_screening(&f).opens_case, "a stub trigger decided in production");
    }

    #[test]
    fn a_hit_holds_opens_a_case_and_is_due_in_48_hours() {
        let d = decide_screening(&facts("SanctionedSam", None));
        assert_eq!(d.status, SanctionsStatus::HitReviewPending);
        assert!(d.opens_case && d.transactions_held);
        assert_eq!(d.review_due_at, Some(1_000 + 48 * 3_600));
        assert_eq!(d.events, alloc::vec![EventKind::SanctionsHit]);
        let clear = decide_screening(&facts("Ann", None));
        assert_eq!(clear.status, SanctionsStatus::Clear);
        assert!(!clear.opens_case && !clear.transactions_held && clear.events.is_empty());
    }

    #[test]
    fn users_under_review_or_confirmed_are_not_screened_again() {
        let d = decide_screening(&facts("SanctionedSam", Some(SanctionsStatus::Confirmed)));
        assert!(!d.opens_case);
        assert_eq!(d.status, SanctionsStatus::Confirmed);
        let cleared = decide_screening(&facts("SanctionedSam", Some(SanctionsStatus::Cleared)));
        assert!(cleared.opens_case);
    }

    fn pep(name: &str) -> ListCandidate {
        ListCandidate { topic: EntryTopic::Pep, entity_id: "Q1".into(), source: "opensanctions".into(), ..listed(crate::EntryKind::Individual, name) }
    }

    fn production_maduro(candidates: Vec<ListCandidate>, scope: ScreeningScope) -> ScreeningFacts {
        let mut f = facts("Nicolas", None);
        f.environment = Environment::Production;
        f.last_name = "Maduro Moros".into();
        f.date_of_birth = "1962-11-23".into();
        f.nationality = "VE".into();
        f.candidates = candidates;
        f.scope = scope;
        f
    }

    #[test]
    fn a_dismissed_match_is_set_aside_until_its_entry_changes() {
        let entry = listed(crate::EntryKind::Individual, "MADURO MOROS, Nicolas");
        let mut f = production_maduro(alloc::vec![entry.clone()], ScreeningScope::default());
        f.current = Some(SanctionsStatus::Cleared);
        let first = decide_screening(&f);
        assert!(first.opens_case && first.matches[0].fingerprint == "fp-1", "{first:?}");
        // dismissed with this record: set aside, no case
        f.dismissed = alloc::vec![DismissedMatch { source: "ofac-sdn".into(), entity_id: "22790".into(), fingerprint: "fp-1".into() }];
        let again = decide_screening(&f);
        assert_eq!((again.opens_case, again.status, again.set_aside), (false, SanctionsStatus::Cleared, 1));
        // the entry's record changed: screened afresh
        f.candidates = alloc::vec![ListCandidate { fingerprint: "fp-2".into(), ..entry.clone() }];
        let changed = decide_screening(&f);
        assert_eq!((changed.opens_case, changed.set_aside), (true, 0));
        // another entry of the same list is no dismissed one
        f.candidates = alloc::vec![ListCandidate { entity_id: "22791".into(), ..entry }];
        assert!(decide_screening(&f).opens_case);
    }

    #[test]
    fn only_a_dismissal_remembers_the_matches() {
        let decide = |case_kind, action| match decide_case_review(&CaseReviewFacts { case_status: CaseStatus::Open, action, case_kind }) {
            CaseReviewDecision::Apply(o) => o.remember_matches,
            other => panic!("{other:?}"),
        };
        assert!(decide(CaseKind::SanctionsHit, ReviewAction::Dismiss));
        assert!(!decide(CaseKind::SanctionsHit, ReviewAction::Confirm));
        assert!(decide(CaseKind::EnhancedDueDiligence, ReviewAction::Dismiss));
        assert!(!decide(CaseKind::EnhancedDueDiligence, ReviewAction::Confirm));
    }

    #[test]
    fn a_pep_entry_is_no_match_until_the_tenant_screens_for_peps() {
        let off = decide_screening(&production_maduro(alloc::vec![pep("MADURO MOROS, Nicolas")], ScreeningScope::default()));
        assert!(!off.opens_case && off.matches.is_empty() && off.events.is_empty(), "{off:?}");
        assert_eq!(off.status, SanctionsStatus::Clear);
        // the twin: switched on, the same entry asks for due diligence, and holds nothing
        let on = decide_screening(&production_maduro(alloc::vec![pep("MADURO MOROS, Nicolas")], ScreeningScope { pep: true, adverse_media: false }));
        assert!(on.opens_case && on.case_kind == CaseKind::EnhancedDueDiligence, "{on:?}");
        assert_eq!(on.status, SanctionsStatus::Clear);
        assert!(!on.transactions_held && on.estimated_review_time.is_none());
        assert_eq!(on.events, alloc::vec![EventKind::ScreeningPepMatch]);
        assert_eq!(on.matches[0].topic, EntryTopic::Pep);
        // adverse media is its own switch
        let media = ListCandidate { topic: EntryTopic::AdverseMedia, ..pep("MADURO MOROS, Nicolas") };
        assert!(!decide_screening(&production_maduro(alloc::vec![media.clone()], ScreeningScope { pep: true, adverse_media: false })).opens_case);
        let seen = decide_screening(&production_maduro(alloc::vec![media], ScreeningScope { pep: false, adverse_media: true }));
        assert_eq!(seen.events, alloc::vec![EventKind::ScreeningAdverseMediaMatch]);
    }

    #[test]
    fn a_sanction_beside_a_pep_entry_is_a_hit_and_an_open_due_diligence_case_is_not_repeated() {
        let scope = ScreeningScope { pep: true, adverse_media: true };
        let both = decide_screening(&production_maduro(
            alloc::vec![pep("MADURO MOROS, Nicolas"), listed(crate::EntryKind::Individual, "MADURO MOROS, Nicolas")],
            scope,
        ));
        assert_eq!(both.case_kind, CaseKind::SanctionsHit);
        assert_eq!(both.status, SanctionsStatus::HitReviewPending);
        assert!(both.transactions_held && both.match_count == 2);
        let mut again = production_maduro(alloc::vec![pep("MADURO MOROS, Nicolas")], scope);
        again.due_diligence_open = true;
        assert!(!decide_screening(&again).opens_case);
        // an open due-diligence case never hides a sanctions hit
        again.candidates.push(listed(crate::EntryKind::Individual, "MADURO MOROS, Nicolas"));
        assert!(decide_screening(&again).opens_case);
    }

    #[test]
    fn a_due_diligence_review_changes_no_status() {
        for action in ReviewAction::ALL {
            let d =
                decide_case_review(&CaseReviewFacts { case_status: CaseStatus::Open, action: *action, case_kind: CaseKind::EnhancedDueDiligence });
            match d {
                CaseReviewDecision::Apply(o) => assert!(o.user_status.is_none() && !o.transactions_held && o.events.is_empty(), "{o:?}"),
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn review_is_final() {
        let dismiss =
            decide_case_review(&CaseReviewFacts { case_status: CaseStatus::Open, action: ReviewAction::Dismiss, case_kind: CaseKind::SanctionsHit });
        match dismiss {
            CaseReviewDecision::Apply(o) => {
                assert_eq!(o.user_status, Some(SanctionsStatus::Cleared));
                assert!(!o.transactions_held);
            }
            other => panic!("{other:?}"),
        }
        let confirm =
            decide_case_review(&CaseReviewFacts { case_status: CaseStatus::Open, action: ReviewAction::Confirm, case_kind: CaseKind::SanctionsHit });
        assert!(matches!(confirm, CaseReviewDecision::Apply(ref o) if o.events.len() == 2 && o.transactions_held));
        let repeat = decide_case_review(&CaseReviewFacts {
            case_status: CaseStatus::Confirmed,
            action: ReviewAction::Confirm,
            case_kind: CaseKind::SanctionsHit,
        });
        assert!(matches!(repeat, CaseReviewDecision::Repeat(ref o) if o.events.is_empty()));
        let other = decide_case_review(&CaseReviewFacts {
            case_status: CaseStatus::Dismissed,
            action: ReviewAction::Confirm,
            case_kind: CaseKind::SanctionsHit,
        });
        assert_eq!(other, CaseReviewDecision::AlreadyDecided(CaseStatus::Dismissed));
    }
}
