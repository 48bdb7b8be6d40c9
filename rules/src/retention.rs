//! Erasure and retention dates: each class of a player's records dated from
//! its profile's retention table, and the cutoffs of the sweeps.

#[allow(unused_imports)]
use alloc::{
    string::{String, ToString},
    vec::Vec,
};

use crate::jurisdictions::{
    find_retention, ClassPlan, CutoffFacts, ErasureFacts, ErasurePlan, RecordClass, RetentionCutoffs, RetentionStart, UnaskedCutoff,
};
use crate::RuleError;

/// The basis of an exclusion in force: never erased (GDPR Art. 17(3)(b)).
pub const EXCLUSION_IN_FORCE_BASIS: &str = "gdpr_17_3_b_exclusion_in_force";

/// Dates each class of the player's records at `now`; a class whose date has
/// come is erased now. A request ends the relationship; unasked, a player
/// idle for the profile's inactivity period has ended it.
pub fn plan_erasure(facts: &ErasureFacts) -> Result<ErasurePlan, RuleError> {
    let table = find_retention(&facts.jurisdiction).ok_or(RuleError::UnknownJurisdiction)?;
    let now = facts.now;
    let relationship_end = match (facts.ended_at, facts.asked) {
        (Some(ended), _) => ended,
        (None, true) => now,
        (None, false) => facts.last_active_at.saturating_add(table.inactivity_seconds),
    };
    let classes = table
        .rules
        .iter()
        .map(|rule| {
            let (until, basis) = if !rule.required {
                (Some(now), rule.basis.clone())
            } else if rule.class == RecordClass::Exclusions {
                if facts.exclusions.is_empty() {
                    (Some(now), rule.basis.clone())
                } else {
                    let in_force = facts.exclusions.iter().any(|e| e.expires_at.is_none_or(|end| end > now));
                    let end = facts.exclusions.iter().try_fold(i64::MIN, |latest, e| e.expires_at.map(|end| latest.max(end)));
                    let basis = if in_force { EXCLUSION_IN_FORCE_BASIS.to_string() } else { rule.basis.clone() };
                    (end.map(|e| e.saturating_add(rule.keep_seconds)), basis)
                }
            } else {
                let start = match rule.from {
                    RetentionStart::Record => facts.last_record_at.unwrap_or(relationship_end),
                    RetentionStart::RelationshipEnd | RetentionStart::RecordEnd => relationship_end,
                };
                let mut until = start.saturating_add(rule.keep_seconds);
                if let (Some(cap), Some(last)) = (rule.record_cap_seconds, facts.last_record_at) {
                    until = until.min(last.saturating_add(cap));
                }
                (Some(until), rule.basis.clone())
            };
            let erased_at = until.filter(|u| *u <= now).map(|_| now);
            ClassPlan { class: rule.class, until, basis, erased_at }
        })
        .collect();
    Ok(ErasurePlan { relationship_end, classes, filings_before: filings_before(&table, now) })
}

fn filings_before(table: &crate::jurisdictions::RetentionTable, now: i64) -> Option<i64> {
    table.rule(RecordClass::AmlRecords).filter(|r| r.from == RetentionStart::Record).map(|r| now.saturating_sub(r.keep_seconds))
}

/// A profile's cutoffs at `now`: whom the sweep erases unasked, which filings
/// and AML records are past their period, which ended exclusions are redacted.
pub fn retention_cutoffs(facts: &CutoffFacts) -> Result<RetentionCutoffs, RuleError> {
    let table = find_retention(&facts.jurisdiction).ok_or(RuleError::UnknownJurisdiction)?;
    let now = facts.now;
    let required: Vec<_> = table.rules.iter().filter(|r| r.required && r.from == RetentionStart::RelationshipEnd).collect();
    let unasked = (!required.is_empty() && table.rules.iter().filter(|r| r.required).all(|r| r.then_delete)).then(|| {
        let first = required.iter().map(|r| r.keep_seconds).min().unwrap_or(i64::MAX);
        let ended_before = now.saturating_sub(first);
        UnaskedCutoff { ended_before, idle_before: ended_before.saturating_sub(table.inactivity_seconds) }
    });
    let records_before = table.rule(RecordClass::AmlRecords).and_then(|rule| {
        let period = match rule.from {
            RetentionStart::Record => Some(rule.keep_seconds),
            _ => rule.record_cap_seconds,
        }?;
        Some(now.saturating_sub(period))
    });
    let ended_exclusions_before = table
        .rule(RecordClass::Exclusions)
        .filter(|r| r.then_delete && r.from == RetentionStart::RecordEnd)
        .map(|r| now.saturating_sub(r.keep_seconds));
    Ok(RetentionCutoffs { unasked, filings_before: filings_before(&table, now), records_before, ended_exclusions_before })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jurisdictions::ExclusionSpan;
    use alloc::vec;

    const DAY: i64 = 86_400;

    fn facts(jurisdiction: &str, end: i64, last_record_at: Option<i64>, exclusions: Vec<ExclusionSpan>, now: i64) -> ErasureFacts {
        ErasureFacts { now, jurisdiction: jurisdiction.into(), ended_at: Some(end), asked: true, last_active_at: end, last_record_at, exclusions }
    }

    fn plan(f: &ErasureFacts) -> Vec<ClassPlan> {
        plan_erasure(f).map(|p| p.classes).unwrap_or_default()
    }

    fn at(plans: &[ClassPlan], class: RecordClass) -> Option<i64> {
        plans.iter().find(|p| p.class == class).and_then(|p| p.until)
    }

    #[test]
    fn classes_are_dated_from_the_relationship_end_under_each_profile() {
        let end = 10_000 * DAY;
        let gb = plan(&facts("GB", end, Some(end - 30 * DAY), vec![], end));
        let five = (5 * 365 + 2) * DAY;
        assert_eq!(at(&gb, RecordClass::IdentityScreening), Some(end + five));
        assert_eq!(at(&gb, RecordClass::AmlRecords), Some(end + five), "the ten-year cap is further away");
        let capped = plan(&facts("GB", end, Some(end - 8 * 365 * DAY), vec![], end));
        assert!(at(&capped, RecordClass::AmlRecords).is_some_and(|u| u < end + five), "never beyond ten years from the transaction");
        let table = find_retention("GB");
        for p in &gb {
            let required = table.as_ref().and_then(|t| t.rule(p.class)).is_some_and(|r| r.required);
            assert_eq!(p.erased_at.is_some(), !required || p.class == RecordClass::Exclusions, "{:?}", p.class);
        }
        let us = plan(&facts("default", end, Some(end - 30 * DAY), vec![], end));
        assert_eq!(at(&us, RecordClass::AmlRecords), Some(end - 30 * DAY + five));
    }

    #[test]
    fn an_exclusion_in_force_is_held_with_its_basis_and_an_ended_one_by_the_profile() {
        let now = 10_000 * DAY;
        let span = |from: i64, to: Option<i64>| ExclusionSpan { effective_from: from, expires_at: to };
        let de = plan(&facts("DE", now, None, vec![span(now - DAY, Some(now + 100 * DAY))], now));
        let row = de.iter().find(|p| p.class == RecordClass::Exclusions).cloned();
        assert_eq!(row.as_ref().map(|r| r.basis.as_str()), Some(EXCLUSION_IN_FORCE_BASIS));
        assert_eq!(row.and_then(|r| r.until), Some(now + 100 * DAY + (6 * 365 + 2) * DAY), "six years after it ends (GlüStV § 23)");
        let permanent = plan(&facts("GB", now, None, vec![span(now - DAY, None)], now));
        let row = permanent.into_iter().find(|p| p.class == RecordClass::Exclusions).map(|r| (r.until, r.erased_at, r.basis));
        assert_eq!(row, Some((None, None, EXCLUSION_IN_FORCE_BASIS.to_string())));
        let ended = plan(&facts("DE", now, None, vec![span(0, Some(DAY))], now));
        let row = ended.into_iter().find(|p| p.class == RecordClass::Exclusions);
        assert!(row.is_some_and(|r| r.erased_at.is_some() && r.basis == "de_gluestv_23"));
    }

    #[test]
    fn the_relationship_ends_with_a_request_or_after_the_profiles_inactivity() {
        let now = 10_000 * DAY;
        let asked = ErasureFacts { ended_at: None, ..facts("GB", 0, None, vec![], now) };
        assert_eq!(plan_erasure(&asked).map(|p| p.relationship_end), Ok(now));
        let unasked = ErasureFacts { asked: false, last_active_at: now - 100 * DAY, ..asked.clone() };
        assert_eq!(plan_erasure(&unasked).map(|p| p.relationship_end), Ok(now - 100 * DAY + (2 * 365 + 1) * DAY));
        let closed = ErasureFacts { ended_at: Some(now - DAY), ..unasked };
        assert_eq!(plan_erasure(&closed).map(|p| p.relationship_end), Ok(now - DAY));
    }

    #[test]
    fn an_unknown_profile_is_refused_never_the_default_table() {
        let now = 10_000 * DAY;
        for name in ["XX", "gb", "", "GB "] {
            assert_eq!(plan_erasure(&facts(name, now, None, vec![], now)), Err(RuleError::UnknownJurisdiction), "{name:?}");
            assert_eq!(retention_cutoffs(&CutoffFacts { now, jurisdiction: name.into() }), Err(RuleError::UnknownJurisdiction));
        }
        // the twin: every profile the rules know is dated
        for p in crate::jurisdictions() {
            assert!(plan_erasure(&facts(&p.name, now, None, vec![], now)).is_ok(), "{}", p.name);
            assert!(retention_cutoffs(&CutoffFacts { now, jurisdiction: p.name.clone() }).is_ok(), "{}", p.name);
        }
    }

    #[test]
    fn cutoffs_follow_each_profiles_table() {
        let now = 10_000 * DAY;
        let cut = |j: &str| retention_cutoffs(&CutoffFacts { now, jurisdiction: j.into() }).ok();
        let five = (5 * 365 + 2) * DAY;
        // US: records and filings from each record, no deletion unasked
        let us = cut("default");
        assert_eq!(us.as_ref().and_then(|c| c.filings_before), Some(now - five));
        assert_eq!(us.as_ref().and_then(|c| c.records_before), Some(now - five));
        assert_eq!(us.and_then(|c| c.unasked), None);
        // GB: unasked after five years, records capped at ten, no filings' own period
        let gb = cut("GB");
        assert_eq!(gb.as_ref().and_then(|c| c.unasked).map(|u| u.ended_before), Some(now - five));
        assert_eq!(gb.as_ref().and_then(|c| c.filings_before), None);
        assert_eq!(gb.and_then(|c| c.records_before), Some(now - (10 * 365 + 3) * DAY));
        // DE: ended exclusions after six years
        assert_eq!(cut("DE").and_then(|c| c.ended_exclusions_before), Some(now - (6 * 365 + 2) * DAY));
    }
}
