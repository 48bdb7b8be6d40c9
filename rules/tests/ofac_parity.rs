//! Our test set for parity with OFAC's Sanctions List Search, built from its
//! documented behaviour (FAQ 249: Jaro-Winkler and Soundex over characters and
//! words; word order, case and punctuation do not matter; a name whose words
//! are all found scores 100). Each listed pair carries the score OFAC's
//! method gives it; pairs OFAC does not list at 80 must stay below 0.80. An
//! independent set is used for acceptance; this one keeps us honest meanwhile.

use rules::{score_candidates, EntryKind, EntryTopic, ListCandidate, NameQuery};

/// (query, listed name, OFAC-style score 0–100)
const LISTED: &[(&str, &str, f64)] = &[
    ("Vladimir Putin", "PUTIN, Vladimir Vladimirovich", 100.0),
    ("Nicolas Maduro Moros", "MADURO MOROS, Nicolas", 100.0),
    ("Nicolás Maduro Moros", "MADURO MOROS, Nicolas", 100.0),
    ("Kim Jong Un", "KIM, Jong Un", 100.0),
    ("Jong Un Kim", "KIM, Jong Un", 100.0),
    ("Muammar Qadhafi", "QADHAFI, Muammar", 100.0),
    ("Moammar Qadhafi", "QADHAFI, Muammar", 95.0),
    ("Muammar Gadhafi", "QADHAFI, Muammar", 93.0),
    ("Usama bin Ladin", "BIN LADIN, Usama", 100.0),
    ("Osama bin Ladin", "BIN LADIN, Usama", 94.0),
    ("Osama bin Laden", "BIN LADIN, Usama", 90.0),
    ("Robert Mugabe", "MUGABE, Robert Gabriel", 100.0),
    ("Ali Khamenei", "KHAMENEI, Ali", 100.0),
    ("Ali Khamenei", "KHAMENEI, Sayyid Ali Hosseini", 100.0),
    ("Bashar al-Assad", "AL-ASAD, Bashar", 96.0),
    ("Ramzan Kadyrov", "KADYROV, Ramzan Akhmatovich", 100.0),
    ("Ramzan Kadirov", "KADYROV, Ramzan Akhmatovich", 94.0),
    ("Joaquin Guzman Loera", "GUZMAN LOERA, Joaquin", 100.0),
    ("Joaquín Guzmán Loera", "GUZMAN LOERA, Joaquin", 100.0),
    ("Joaquin Guzman", "GUZMAN LOERA, Joaquin", 100.0),
    ("Dawood Ibrahim Kaskar", "KASKAR, Dawood Ibrahim", 100.0),
    ("Dawood Ibrahim", "KASKAR, Dawood Ibrahim", 100.0),
    ("Aleksandr Lukashenko", "LUKASHENKO, Alexander Grigoryevich", 94.0),
    ("Alexander Lukashenko", "LUKASHENKO, Alexander Grigoryevich", 100.0),
    ("V. Putin", "PUTIN, Vladimir Vladimirovich", 94.0),
    ("Владимир Путин", "PUTIN, Vladimir Vladimirovich", 100.0),
];

/// (query, listed name): different people OFAC's search does not list at 80.
const UNLISTED: &[(&str, &str)] = &[
    ("Ann Lee", "PUTIN, Vladimir Vladimirovich"),
    ("John Smith", "KIM, Jong Un"),
    ("Maria Gonzalez", "GUZMAN LOERA, Joaquin"),
    ("Peter Jones", "JONES, Patricia Anne Marie"),
    ("Michael Brown", "OBRIEN, Patrick"),
    ("Anna Schmidt", "SCHMITZ, Hans Peter"),
    ("Ali Reza", "KHAMENEI, Sayyid Ali Hosseini"),
    ("Nicolas Martin", "MADURO MOROS, Nicolas"),
    ("Robert Miller", "MUGABE, Robert Gabriel"),
    ("Vladimir Ivanov", "PUTIN, Vladimir Vladimirovich"),
];

fn score(query: &str, listed: &str) -> f64 {
    let candidate = ListCandidate {
        source: "ofac-sdn".into(),
        entity_id: "1".into(),
        kind: EntryKind::Individual,
        names: vec![listed.into()],
        dates_of_birth: vec![],
        nationalities: vec![],
        topic: EntryTopic::Sanction,
        fingerprint: String::new(),
    };
    let query = NameQuery { name: query.into(), date_of_birth: String::new(), nationality: String::new() };
    score_candidates(&query, &[candidate]).first().map_or(0.0, |s| s.score)
}

#[test]
fn listed_pairs_land_within_five_points_of_ofac_for_nine_in_ten() {
    let misses: Vec<String> = LISTED
        .iter()
        .filter_map(|(q, l, ofac)| {
            let ours = score(q, l) * 100.0;
            ((ours - ofac).abs() > 5.0).then(|| format!("{q:?} vs {l:?}: ours {ours:.1}, OFAC {ofac}"))
        })
        .collect();
    let share = 1.0 - misses.len() as f64 / LISTED.len() as f64;
    assert!(share >= 0.9, "{:.0}% within ±5 points; misses:\n{}", share * 100.0, misses.join("\n"));
}

#[test]
fn pairs_ofac_does_not_list_stay_below_080() {
    let listed: Vec<String> =
        UNLISTED.iter().filter(|(q, l)| score(q, l) >= 0.80).map(|(q, l)| format!("{q:?} vs {l:?}: {:.3}", score(q, l))).collect();
    assert!(listed.is_empty(), "scored at 0.80 or more:\n{}", listed.join("\n"));
}
