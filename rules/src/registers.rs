//! National self-exclusion registers: the identifiers each takes, checked
//! before any register is asked (a typo must never read as "not blocked":
//! Spelpaus answers `isBlocked: false` for a 12-character string that is
//! no personnummer), and what a check's answers mean for play and marketing.

use alloc::string::String;
use alloc::vec::Vec;

pub use rules_model::registers::*;

/// A national identifier as its register takes it, or `None` when its form
/// or check digit is wrong.
/// - personnummer: `YYYYMMDDNNNC` or `YYYYMMDD-NNNC`, a real date (the day
///   plus 60 for a samordningsnummer), the Luhn digit over the last ten;
///   answered as 12 digits.
/// - BSN: 9 digits (8 are read with a leading zero) passing the 11-test.
/// - CPR: `DDMMYYNNNN` or `DDMMYY-NNNN` with a real date; answered as 10
///   digits. The modulus-11 check is not asked: CPR numbers issued since
///   2007 need not pass it.
pub fn read_national_id(kind: NationalIdKind, text: &str) -> Option<String> {
    let text = text.trim();
    match kind {
        NationalIdKind::Personnummer => read_personnummer(text),
        NationalIdKind::Bsn => read_bsn(text),
        NationalIdKind::Cpr => read_cpr(text),
    }
}

/// Digits with at most one `-` at `dash`, or `None`.
fn digits(text: &str, len: usize, dash: usize) -> Option<String> {
    let plain: String = match text.match_indices('-').map(|(at, _)| at).collect::<alloc::vec::Vec<_>>().as_slice() {
        [] => text.into(),
        [at] if *at == dash => text.chars().filter(|c| *c != '-').collect(),
        _ => return None,
    };
    (plain.len() == len && plain.bytes().all(|b| b.is_ascii_digit())).then_some(plain)
}

fn number(digits: &str) -> u32 {
    digits.bytes().fold(0, |n, b| n * 10 + u32::from(b - b'0'))
}

fn is_date(year: u32, month: u32, day: u32) -> bool {
    let leap = (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

fn read_personnummer(text: &str) -> Option<String> {
    let plain = digits(text, 12, 8)?;
    let (year, month, day) = (number(&plain[0..4]), number(&plain[4..6]), number(&plain[6..8]));
    let day = if day > 60 { day - 60 } else { day };
    if !(1800..=2999).contains(&year) || !is_date(year, month, day) {
        return None;
    }
    let luhn: u32 = plain[2..]
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            match i % 2 {
                1 if d * 2 > 9 => d * 2 - 9,
                1 => d * 2,
                _ => d,
            }
        })
        .sum();
    luhn.is_multiple_of(10).then_some(plain)
}

fn read_bsn(text: &str) -> Option<String> {
    let plain = match text.len() {
        8 => alloc::format!("0{text}"),
        _ => text.into(),
    };
    if plain.len() != 9 || !plain.bytes().all(|b| b.is_ascii_digit()) || plain.bytes().all(|b| b == b'0') {
        return None;
    }
    let sum: i64 = plain
        .bytes()
        .enumerate()
        .map(|(i, b)| {
            let d = i64::from(b - b'0');
            if i == 8 {
                -d
            } else {
                d * (9 - i as i64)
            }
        })
        .sum();
    (sum % 11 == 0).then_some(plain)
}

fn read_cpr(text: &str) -> Option<String> {
    let plain = digits(text, 10, 6)?;
    let (day, month, year, seventh) = (number(&plain[0..2]), number(&plain[2..4]), number(&plain[4..6]), number(&plain[6..7]));
    // the century is read from the seventh digit (the CPR office's table), so that 29 February is a date only in a leap year
    let century = match seventh {
        0..=3 => 1900,
        4 | 9 if year <= 36 => 2000,
        4 | 9 => 1900,
        _ if year <= 57 => 2000,
        _ => 1800,
    };
    is_date(century + year, month, day).then_some(plain)
}

/// A check's verdict. The shared register excludes while one of its
/// exclusions is active. The player is excluded when any register found
/// them excluded, or when a register is unavailable and its policy is
/// `refuse` (the check is not complete). Marketing is allowed only when
/// every register answered and none found the player excluded, now or before.
///
/// A registration, login or deposit check sets the player's standing at each
/// register that answered; a marketing check does not (its API answers
/// whether the player may be marketed to, not whether they may play). A
/// register that now excludes a player whose standing there was anything but
/// excluded is newly excluding: the operator is told (`exclusion.created`).
pub fn decide_register_check(facts: &RegisterCheckFacts) -> RegisterCheckDecision {
    let shared = match crate::exclusions::exclusion_status_of(facts.now, &facts.exclusions).most_restrictive {
        Some(_) => RegisterStatus::Excluded,
        None => RegisterStatus::NotExcluded,
    };
    let excluded = shared == RegisterStatus::Excluded
        || facts.answers.iter().any(|a| match a.status {
            RegisterStatus::Excluded => true,
            RegisterStatus::Unavailable => a.on_outage == OutagePolicy::Refuse,
            RegisterStatus::NotExcluded | RegisterStatus::PreviouslyExcluded => false,
        });
    let marketing_allowed = !excluded && facts.answers.iter().all(|a| a.status == RegisterStatus::NotExcluded);
    let sets_standing = facts.purpose != CheckPurpose::Marketing;
    let newly_excluded = match sets_standing {
        true => facts
            .answers
            .iter()
            .filter(|a| a.status == RegisterStatus::Excluded && a.standing != RegisterStatus::Excluded)
            .map(|a| a.register)
            .collect(),
        false => Vec::new(),
    };
    RegisterCheckDecision { shared, excluded, marketing_allowed, sets_standing, newly_excluded }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules_model::ExclusionTerm;

    #[test]
    fn a_personnummer_needs_its_date_and_its_luhn_digit() {
        // 811228-9874 is the Swedish Tax Agency's example
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "19811228-9874").as_deref(), Some("198112289874"));
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "198112289874").as_deref(), Some("198112289874"));
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "198112289875"), None, "a wrong check digit");
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "198113289874"), None, "month 13");
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "8112289874"), None, "ten digits: the register takes twelve");
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "1981122-89874"), None, "a dash elsewhere");
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "19811228-98-74"), None, "two dashes");
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "19811228 9874"), None);
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "１９８１１２２８９８７４"), None, "full-width digits");
    }

    #[test]
    fn a_samordningsnummer_has_its_day_plus_60() {
        // 701063-2391 is the Tax Agency's example of a co-ordination number
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "197010632391").as_deref(), Some("197010632391"));
        assert_eq!(read_national_id(NationalIdKind::Personnummer, "197010922391"), None, "day 32");
    }

    #[test]
    fn a_bsn_passes_the_eleven_test() {
        assert_eq!(read_national_id(NationalIdKind::Bsn, "111222333").as_deref(), Some("111222333"));
        assert_eq!(read_national_id(NationalIdKind::Bsn, "123456782").as_deref(), Some("123456782"));
        assert_eq!(read_national_id(NationalIdKind::Bsn, "12345678").as_deref(), None, "012345678 fails the test");
        assert_eq!(read_national_id(NationalIdKind::Bsn, "111222334"), None);
        assert_eq!(read_national_id(NationalIdKind::Bsn, "000000000"), None);
        assert_eq!(read_national_id(NationalIdKind::Bsn, "11122233a"), None);
    }

    #[test]
    fn a_cpr_needs_a_real_date() {
        assert_eq!(read_national_id(NationalIdKind::Cpr, "010190-1234").as_deref(), Some("0101901234"));
        assert_eq!(read_national_id(NationalIdKind::Cpr, "2902004234").as_deref(), Some("2902004234"), "29 February 2000 (serial 4…)");
        assert_eq!(read_national_id(NationalIdKind::Cpr, "2902001234"), None, "29 February 1900 (serial 1…) was no date");
        assert_eq!(read_national_id(NationalIdKind::Cpr, "2902961234").as_deref(), Some("2902961234"), "29 February 1996");
        assert_eq!(read_national_id(NationalIdKind::Cpr, "3002901234"), None, "30 February");
        assert_eq!(read_national_id(NationalIdKind::Cpr, "0113901234"), None, "month 13");
        assert_eq!(read_national_id(NationalIdKind::Cpr, "010190123"), None);
    }

    fn answer(status: RegisterStatus, on_outage: OutagePolicy) -> RegisterAnswer {
        RegisterAnswer { register: NationalRegister::Gamstop, status, on_outage, standing: RegisterStatus::Unavailable }
    }

    fn decide(shared: RegisterStatus, answers: &[RegisterAnswer]) -> (bool, bool) {
        let now = 1_000;
        let exclusions = match shared {
            RegisterStatus::Excluded => alloc::vec![ExclusionTerm { expires_at: Some(now + 1) }],
            // an exclusion that ran out counts for nothing
            _ => alloc::vec![ExclusionTerm { expires_at: Some(now) }],
        };
        let d = decide_register_check(&RegisterCheckFacts { now, purpose: CheckPurpose::Login, exclusions, answers: answers.to_vec() });
        assert_eq!(d.shared, if shared == RegisterStatus::Excluded { shared } else { RegisterStatus::NotExcluded });
        (d.excluded, d.marketing_allowed)
    }

    #[test]
    fn every_answer_counts_and_an_outage_is_never_not_excluded() {
        use OutagePolicy::*;
        use RegisterStatus::*;
        assert_eq!(decide(NotExcluded, &[]), (false, true));
        assert_eq!(decide(Excluded, &[]), (true, false));
        assert_eq!(decide(NotExcluded, &[answer(NotExcluded, Refuse)]), (false, true));
        assert_eq!(decide(NotExcluded, &[answer(Excluded, AllowFlagged)]), (true, false));
        assert_eq!(decide(NotExcluded, &[answer(PreviouslyExcluded, Refuse)]), (false, false), "lapsed: play, no marketing");
        assert_eq!(decide(NotExcluded, &[answer(Unavailable, Refuse)]), (true, false));
        assert_eq!(decide(NotExcluded, &[answer(Unavailable, AllowFlagged)]), (false, false), "flagged: no marketing");
        assert_eq!(decide(NotExcluded, &[answer(NotExcluded, Refuse), answer(Excluded, Refuse)]), (true, false));
    }

    fn found(purpose: CheckPurpose, answers: &[(NationalRegister, RegisterStatus, RegisterStatus)]) -> (bool, Vec<NationalRegister>) {
        let answers = answers
            .iter()
            .map(|(register, status, standing)| RegisterAnswer {
                register: *register,
                status: *status,
                on_outage: OutagePolicy::Refuse,
                standing: *standing,
            })
            .collect();
        let d = decide_register_check(&RegisterCheckFacts { now: 1_000, purpose, exclusions: alloc::vec![], answers });
        (d.sets_standing, d.newly_excluded)
    }

    #[test]
    fn a_register_newly_excluding_the_player_is_told_once() {
        use CheckPurpose::*;
        use NationalRegister::*;
        use RegisterStatus::*;
        for purpose in [Registration, Login, Deposit] {
            assert_eq!(found(purpose, &[(Gamstop, Excluded, Unavailable)]), (true, alloc::vec![Gamstop]), "first found");
            assert_eq!(found(purpose, &[(Gamstop, Excluded, NotExcluded)]), (true, alloc::vec![Gamstop]), "found since");
            assert_eq!(found(purpose, &[(Gamstop, Excluded, PreviouslyExcluded)]), (true, alloc::vec![Gamstop]), "excluded again");
            // the twins: already excluded there, or not excluded now
            assert_eq!(found(purpose, &[(Gamstop, Excluded, Excluded)]), (true, alloc::vec![]), "already known");
            for now in [NotExcluded, PreviouslyExcluded, Unavailable] {
                assert_eq!(found(purpose, &[(Gamstop, now, Unavailable)]), (true, alloc::vec![]), "{now:?}");
            }
            assert_eq!(
                found(purpose, &[(Spelpaus, Excluded, Excluded), (Rofus, Excluded, NotExcluded), (Cruks, Excluded, Unavailable)]),
                (true, alloc::vec![Rofus, Cruks])
            );
        }
        // a marketing API answers another question: no standing, no exclusion told
        assert_eq!(found(Marketing, &[(Spelpaus, Excluded, NotExcluded)]), (false, alloc::vec![]));
    }
}
