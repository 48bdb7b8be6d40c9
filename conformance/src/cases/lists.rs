//! Production screening against imported sanctions lists. These cases run
//! after every other case, one at a time and in this order (`cases::LISTS`).

use serde_json::{json, Value as Json};

use crate::client::{data, unique, Env};
use crate::{ensure, ensure_eq, CaseResult};

/// What an operator must never see of a match.
const MATCH_DETAILS: &[&str] = &["MADURO", "22790", "ofac", "OFAC", "entity"];

fn person(user: &str, first: &str, last: &str, dob: &str, nationality: &str) -> Json {
    json!({ "user_id": user, "first_name": first, "last_name": last, "date_of_birth": dob, "nationality": nationality,
            "email": format!("{user}@example.com") })
}

/// No list, no screening in production; with OFAC's list imported, a listed
/// individual is a hit with a case (details for the compliance team only),
/// an ordinary name is clear, and the team can search the list.
pub fn production_screens_against_an_imported_list(env: &Env) -> CaseResult {
    let p = env.tenant_with("production", 1000)?;
    let before = p.post("/v1/sanctions/screen", person(&unique("u"), "Nicolas", "Maduro Moros", "1962-11-23", "VE"));
    before.expect_error(503, "vendor_unavailable")?;
    ensure!(before.header("retry-after").is_some(), "503 without Retry-After");
    let summary = env.import_list(&["--environment", "production", "--format", "ofac-csv", &data("ofac-sdn-2022-01")])?;
    ensure!(summary.contains("9044 entries"), "unexpected summary: {summary}");

    let listed = unique("u");
    let hit = p.post("/v1/sanctions/screen", person(&listed, "Nicolas", "Maduro Moros", "1962-11-23", "VE"));
    hit.expect(201)?;
    ensure_eq!(hit.str("status"), "hit_review_pending");
    ensure_eq!(hit.body["transactions_held"], json!(true));
    let score = hit.body["highest_match_score"].as_f64().unwrap_or(0.0);
    ensure!((0.85..=1.0).contains(&score), "highest_match_score {score}");
    for detail in MATCH_DETAILS {
        ensure!(!hit.raw.contains(detail), "the operator saw {detail:?}: {}", hit.raw);
    }
    // The decision names what it was screened against: the imported list's version.
    let lists = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
    lists.expect(200)?;
    let version = lists.body["lists"].as_array().and_then(|l| l.iter().find(|l| l["source"] == "ofac-sdn")).map(|l| l["version"].clone());
    ensure!(version.as_ref().is_some_and(|v| v.is_string()), "no OFAC version in {}", lists.raw);
    let decision_id = hit.header("x-decision-id").ok_or("the screening names no decision")?.to_string();
    let decision = env.admin_production("GET", &format!("/v1/admin/decisions/{decision_id}"), None);
    decision.expect(200)?;
    ensure_eq!(decision.body["input"]["sources"], json!([{ "source": "ofac-sdn", "version": version }]));
    // One of the four required lists: production screens, and is not ready.
    let ready = env.call("GET", "/v1/health/ready", None, None);
    ready.expect(503)?;
    let missing = &ready.body["checks"]["lists"]["missing"];
    ensure!(
        missing.as_array().is_some_and(|m| m.contains(&json!("uk-sanctions")) && !m.contains(&json!("ofac-sdn"))),
        "readiness does not name the missing lists: {}",
        ready.raw
    );
    let ordinary = p.post("/v1/sanctions/screen", person(&unique("u"), "Ann", "Lee", "1990-04-01", "GB"));
    ordinary.expect(201)?;
    ensure_eq!(ordinary.str("status"), "clear");

    let case_id = hit.str("case_id").to_string();
    let case = env.admin_production("GET", &format!("/v1/admin/sanctions/cases/{case_id}"), None);
    case.expect(200)?;
    ensure!(case.raw.contains("22790") && case.raw.contains("ofac-sdn"), "the case lacks the matched entity: {}", case.raw);
    ensure!(case.raw.contains("score_breakdown"), "the case lacks the score breakdown: {}", case.raw);
    p.get(&format!("/v1/admin/sanctions/cases/{case_id}")).expect_error(403, "forbidden")?;

    // Reviewed and dismissed, the user deposits again.
    super::review::decide_with_four_eyes(env, "production", &case_id, "false_positive")?;
    let deposit = p.post("/v1/limits/check", json!({ "user_id": listed, "amount_cents": 1_000, "currency": "USD" }));
    deposit.expect(200)?;
    ensure_eq!(deposit.body["allowed"], json!(true));

    let search = env.admin_production("GET", "/v1/admin/sanctions/search?name=Nicolas%20Maduro%20Moros&date_of_birth=1962-11-23&limit=5", None);
    search.expect(200)?;
    let results = search.body["results"].as_array().cloned().unwrap_or_default();
    ensure!(!results.is_empty() && results.len() <= 5, "search gave {} results", results.len());
    ensure_eq!(results[0]["entity_id"], json!("22790"));
    ensure_eq!(results[0]["source"], json!("ofac-sdn"));
    let scores: Vec<f64> = results.iter().filter_map(|r| r["score"].as_f64()).collect();
    ensure!(scores.windows(2).all(|w| w[0] >= w[1]), "results are not best first: {scores:?}");
    ensure!(scores.iter().all(|s| (0.0..=1.0).contains(s)), "scores out of 0..1: {scores:?}");
    ensure_eq!(search.str("mode"), "screening");
    ensure!(results[0]["score_breakdown"].is_object() && results[0].get("ofac").is_none(), "screening mode: {}", results[0]);

    // OFAC parity mode: the score OFAC's own search gives, 0 to 100, by name alone.
    let ofac = env.admin_production("GET", "/v1/admin/sanctions/search?name=NICOLAS%20MADURO&mode=ofac&min_score=80", None);
    ofac.expect(200)?;
    ensure_eq!(ofac.str("mode"), "ofac");
    let hits = ofac.body["results"].as_array().cloned().unwrap_or_default();
    let first = hits.first().cloned().unwrap_or(Json::Null);
    ensure_eq!(first["entity_id"], json!("22790"), ofac.raw);
    ensure_eq!(first["ofac"]["score"], json!(100), ofac.raw);
    ensure!(first.get("score_breakdown").is_none(), "ofac mode has no screening breakdown: {first}");
    ensure!(hits.iter().all(|h| h["ofac"]["score"].as_u64().is_some_and(|s| s >= 80)), "min_score not applied: {}", ofac.raw);
    // the whole-name technique needs the same first letter: reversed, only word by word counts
    let reversed = env.admin_production("GET", "/v1/admin/sanctions/search?name=MADURO%20NICOLAS&mode=ofac", None);
    let top = reversed.body["results"][0].clone();
    ensure_eq!(top["entity_id"], json!("22790"), reversed.raw);
    ensure!(top["ofac"]["whole_name"].as_f64().is_some_and(|w| w > 0.0), "MADURO... starts as MADURO MOROS does: {top}");
    for bad in ["mode=fuzzy", "min_score=101", "min_score=-1", "min_score=high"] {
        env.admin_production("GET", &format!("/v1/admin/sanctions/search?name=Maduro&{bad}"), None).expect_error(400, "invalid_field")?;
    }
    p.get("/v1/admin/sanctions/search?name=Maduro").expect_error(403, "forbidden")?;
    env.admin_production("GET", "/v1/admin/sanctions/search", None).expect_error(400, "missing_fields")?;
    Ok(())
}

/// A file that is not the format, or a truncated one, replaces nothing.
pub fn a_bad_file_replaces_nothing(env: &Env) -> CaseResult {
    let before = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
    before.expect(200)?;
    let version = before.body["lists"].as_array().and_then(|l| l.iter().find(|l| l["source"] == json!("ofac-sdn"))).map(|l| l["version"].clone());
    ensure!(version.is_some(), "no active ofac-sdn list: {}", before.raw);
    let dir = std::env::temp_dir().join(unique("bad-list"));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    // Not the format at all (beside a good alias file).
    std::fs::copy(data("ofac-sdn-2022-01/alt.csv"), dir.join("alt.csv")).map_err(|e| e.to_string())?;
    std::fs::write(dir.join("sdn.csv"), "<html>Service Unavailable</html>\n").map_err(|e| e.to_string())?;
    let refused = env.import_list(&["--environment", "production", "--format", "ofac-csv", &dir.display().to_string()]);
    ensure!(refused.is_err(), "a page of HTML was imported: {refused:?}");
    // A download cut short: the first 100 lines of the real list.
    let sdn = std::fs::read_to_string(data("ofac-sdn-2022-01/sdn.csv")).map_err(|e| e.to_string())?;
    let truncated: String = sdn.lines().take(100).map(|l| format!("{l}\n")).collect();
    std::fs::write(dir.join("sdn.csv"), truncated).map_err(|e| e.to_string())?;
    let refused = env.import_list(&["--environment", "production", "--format", "ofac-csv", &dir.display().to_string()]);
    ensure!(refused.as_ref().is_err_and(|e| e.contains("truncated")), "a truncated list was imported: {refused:?}");
    let after = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
    let still = after.body["lists"].as_array().and_then(|l| l.iter().find(|l| l["source"] == json!("ofac-sdn"))).map(|l| l["version"].clone());
    ensure_eq!(still, version, "the active list changed");
    // Both refusals are in the admin audit log, beside the import that worked.
    let audit = env.admin_production("GET", "/v1/admin/audit", None);
    audit.expect(200)?;
    let imports: Vec<&Json> = audit.body["entries"]
        .as_array()
        .map(|e| e.iter().filter(|e| e["action"] == json!("sanctions_list.import") && e["resource"] == json!("ofac-sdn")).collect())
        .unwrap_or_default();
    for reason in ["ok", "unreadable_list", "invalid_list"] {
        ensure!(
            imports.iter().any(|e| e["reason"] == json!(reason) && e["actor_key_id"] == json!("cli")),
            "no audited import with reason {reason}: {}",
            audit.raw
        );
    }
    let p = env.tenant_with("production", 1000)?;
    let hit = p.post("/v1/sanctions/screen", person(&unique("u"), "Jong Un", "Kim", "1984-01-08", "KP"));
    ensure_eq!(hit.str("status"), "hit_review_pending", "the list no longer screens");
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A list update screens the environment's users against what changed.
pub fn a_list_update_screens_existing_users(env: &Env) -> CaseResult {
    let p = env.tenant_with("production", 1000)?;
    let user = unique("u");
    let first = p.post("/v1/sanctions/screen", person(&user, "Bartholomew", "Quillingsworth", "1971-03-09", "GB"));
    first.expect(201)?;
    ensure_eq!(first.str("status"), "clear");
    let dir = std::env::temp_dir().join(unique("os-list"));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("targets.simple.csv");
    std::fs::write(
        &file,
        "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n\
         NK-test-1,Person,Bartholomew Quillingsworth,B. Quillingsworth,1971-03-09,gb,,,Test sanctions,,,,test,2026-01-01,2026-01-01,2026-01-01\n\
         NK-test-2,Company,Quillingsworth Holdings,,,gb,,,Test sanctions,,,,test,2026-01-01,2026-01-01,2026-01-01\n",
    )
    .map_err(|e| e.to_string())?;
    let summary =
        env.import_list(&["--environment", "production", "--format", "opensanctions-csv", "--source", "test-update", &file.display().to_string()])?;
    ensure!(summary.contains("2 entries"), "unexpected summary: {summary}");
    let screened = || Ok(p.get(&format!("/v1/sanctions/status?user_id={user}")).str("status") == "hit_review_pending");
    env.schedule_until("production", "the list update did not screen the existing user", screened)?;
    let status = p.get(&format!("/v1/sanctions/status?user_id={user}"));
    status.expect(200)?;
    ensure!(!status.raw.contains("NK-test") && !status.raw.contains("test-update"), "the operator saw the match: {}", status.raw);

    // A screening on a list version that is later replaced still replays:
    // its candidates are facts of the decision, not rows of the old version.
    let screened = p.post("/v1/sanctions/screen", person(&unique("u"), "Bartholomew", "Quillingsworth", "1971-03-09", "GB"));
    screened.expect(201)?;
    ensure_eq!(screened.str("status"), "hit_review_pending");
    let decision_id = screened.header("x-decision-id").ok_or("the screening names no decision")?.to_string();
    let version_of = |env: &Env| -> Result<Json, String> {
        let lists = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
        lists.expect(200)?;
        Ok(lists.body["lists"].as_array().and_then(|l| l.iter().find(|l| l["source"] == "test-update")).map_or(Json::Null, |l| l["version"].clone()))
    };
    let first_version = version_of(env)?;
    std::fs::write(
        &file,
        "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n\
         NK-test-1,Person,Bartholomew Quillingsworth,B. Quillingsworth,1971-03-10,gb,,,Test sanctions,,,,test,2026-01-01,2026-02-01,2026-02-01\n\
         NK-test-2,Company,Quillingsworth Holdings,,,gb,,,Test sanctions,,,,test,2026-01-01,2026-02-01,2026-02-01\n",
    )
    .map_err(|e| e.to_string())?;
    env.import_list(&["--environment", "production", "--format", "opensanctions-csv", "--source", "test-update", &file.display().to_string()])?;
    let second_version = version_of(env)?;
    ensure!(second_version.is_string() && second_version != first_version, "the list was not replaced: {first_version} then {second_version}");
    let decision = env.admin_production("GET", &format!("/v1/admin/decisions/{decision_id}"), None);
    decision.expect(200)?;
    let sources = decision.body["input"]["sources"].as_array().cloned().unwrap_or_default();
    ensure!(
        sources.contains(&json!({ "source": "test-update", "version": first_version })),
        "the decision does not name the replaced version: {}",
        decision.raw
    );
    let replay = env.admin_production("POST", &format!("/v1/admin/decisions/{decision_id}/replay"), None);
    replay.expect(200)?;
    ensure_eq!(replay.body["identical"], json!(true), replay.raw);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The UN consolidated list and an OpenSanctions export import too, each
/// as its own source beside OFAC's.
pub fn un_and_opensanctions_lists_import(env: &Env) -> CaseResult {
    let summary = env.import_list(&["--environment", "production", "--format", "un-xml", &data("un-consolidated-2018-10/consolidated.xml")])?;
    ensure!(summary.contains("1093 entries"), "the UN list of October 2018 has 703 individuals and 390 entities: {summary}");
    let lists = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
    let sources: Vec<&str> = lists.body["lists"].as_array().map(|l| l.iter().filter_map(|l| l["source"].as_str()).collect()).unwrap_or_default();
    ensure!(sources.contains(&"un-consolidated") && sources.contains(&"ofac-sdn"), "sources: {sources:?}");
    let search = env.admin_production("GET", "/v1/admin/sanctions/search?name=Aiman%20al-Zawahiri", None);
    search.expect(200)?;
    let top = search.body["results"].as_array().and_then(|r| r.first()).cloned().unwrap_or(Json::Null);
    ensure!(top["score"].as_f64().unwrap_or(0.0) >= 0.85, "no strong match for a listed name: {}", search.raw);
    ensure!(
        env.import_list(&["--environment", "production", "--format", "un-xml", &data("ofac-sdn-2022-01/sdn.csv")]).is_err(),
        "a CSV read as UN XML"
    );
    Ok(())
}

/// The spec launches with sanctions screening only: a PEP on an imported
/// list is no match for a tenant until it switches PEP screening on; then a
/// PEP match asks for due diligence, holds nothing and tells no detail.
pub fn peps_are_screened_only_where_switched_on(env: &Env) -> CaseResult {
    let dir = std::env::temp_dir().join(unique("pep-list"));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("targets.simple.csv");
    std::fs::write(
        &file,
        "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n\
         Q-pep-1,Person,Wilhelmina Oosterhuizen-Vandersteen,,1958-06-14,nl,,,,,,,peps,2026-01-01,2026-01-01,2026-01-01\n\
         Q-sanc-1,Person,Thaddeus Brackenridge-Holloway,,1966-02-02,gb,,,Test sanctions,,,,test,2026-01-01,2026-01-01,2026-01-01\n",
    )
    .map_err(|e| e.to_string())?;
    env.import_list(&["--environment", "production", "--format", "opensanctions-csv", "--source", "test-peps", &file.display().to_string()])?;
    let pep = |user: &str| person(user, "Wilhelmina", "Oosterhuizen-Vandersteen", "1958-06-14", "NL");

    // Off by default: the PEP is no match, the sanctioned name on the same list is.
    let off = env.tenant_with("production", 1000)?;
    let clear = off.post("/v1/sanctions/screen", pep(&unique("u")));
    clear.expect(201)?;
    ensure_eq!(clear.str("status"), "clear");
    ensure!(clear.body.get("due_diligence_required").is_none() && clear.body.get("case_id").is_none(), "a PEP matched while off: {}", clear.raw);
    let sanctioned = off.post("/v1/sanctions/screen", person(&unique("u"), "Thaddeus", "Brackenridge-Holloway", "1966-02-02", "GB"));
    ensure_eq!(sanctioned.str("status"), "hit_review_pending", sanctioned.raw);

    // Switched on at creation: due diligence, nothing held, no detail told.
    let created = env.admin_production(
        "POST",
        "/v1/admin/tenants",
        Some(&json!({ "name": "conformance", "environment": "production", "screening": { "pep": true } })),
    );
    created.expect(201)?;
    ensure_eq!(created.body["screening"], json!({ "pep": true, "adverse_media": false }));
    let on = crate::client::Tenant {
        env,
        key: created.str("api_key").to_string(),
        tenant_id: created.str("tenant_id").to_string(),
        key_id: created.str("key_id").to_string(),
    };
    let user = unique("u");
    let edd = on.post("/v1/sanctions/screen", pep(&user));
    edd.expect(201)?;
    ensure_eq!(edd.str("status"), "clear");
    ensure_eq!(edd.body["transactions_held"], json!(false));
    ensure_eq!(edd.body["due_diligence_required"], json!(true));
    for detail in ["Q-pep-1", "test-peps", "Oosterhuizen-Vandersteen\",\"score", "case_id"] {
        ensure!(!edd.raw.contains(detail), "the operator saw {detail:?}: {}", edd.raw);
    }
    let deposit = on.post("/v1/limits/check", json!({ "user_id": user, "amount_cents": 1_000, "currency": "USD" }));
    ensure_eq!(deposit.body["allowed"], json!(true), deposit.raw);
    let cases = env.admin_production("GET", "/v1/admin/sanctions/cases?status=open", None);
    cases.expect(200)?;
    let case = cases.body["cases"].as_array().and_then(|c| c.iter().find(|c| c["user_id"] == json!(user))).cloned().ok_or("no case for the PEP")?;
    ensure_eq!(case["case_type"], json!("enhanced_due_diligence"));
    let case_id = case["case_id"].as_str().unwrap_or_default().to_string();
    // Counted apart from the sanctions hits, which hold transactions.
    let metrics = env.admin_production("GET", "/v1/admin/metrics", None);
    ensure!(metrics.int("due_diligence_cases_open") >= 1, "the open due-diligence case is not counted: {}", metrics.raw);
    let detail = env.admin_production("GET", &format!("/v1/admin/sanctions/cases/{case_id}"), None);
    ensure_eq!(detail.body["matches"][0]["topic"], json!("pep"), detail.raw);
    // Its review changes no status.
    super::review::decide_with_four_eyes(env, "production", &case_id, "true_match")?;
    ensure_eq!(on.get(&format!("/v1/sanctions/status?user_id={user}")).str("status"), "clear");
    ensure_eq!(on.get(&format!("/v1/sanctions/status?user_id={user}")).body["transactions_held"], json!(false));

    // Switched on later for the first tenant; bad switches are refused.
    let path = format!("/v1/admin/tenants/{}/screening", off.tenant_id);
    env.admin_production("PUT", &path, Some(&json!({ "pep": "yes" }))).expect_error(400, "invalid_field")?;
    env.admin_production("PUT", "/v1/admin/tenants/ten_unknown/screening", Some(&json!({ "pep": true }))).expect_error(404, "tenant_not_found")?;
    let set = env.admin_production("PUT", &path, Some(&json!({ "pep": true })));
    set.expect(200)?;
    ensure_eq!(set.body["screening"], json!({ "pep": true, "adverse_media": false }));
    let later = off.post("/v1/sanctions/screen", pep(&unique("u")));
    ensure_eq!(later.body["due_diligence_required"], json!(true), later.raw);
    env.admin_production("POST", "/v1/admin/tenants", Some(&json!({ "name": "x", "environment": "production", "screening": { "crypto": true } })))
        .expect_error(400, "invalid_field")?;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The EU Financial Sanctions Files and the UK Sanctions List import as
/// their own sources and screen; a file cut short replaces nothing.
pub fn eu_and_uk_lists_import(env: &Env) -> CaseResult {
    let eu = env.import_list(&["--environment", "production", "--format", "eu-fsf-xml", &data("eu-fsf-sample/eu-fsf.xml")])?;
    ensure!(eu.contains("3 entries") && eu.contains("eu-fsf"), "unexpected summary: {eu}");
    // Three of the four: not ready, naming the fourth.
    let three = env.call("GET", "/v1/health/ready", None, None);
    three.expect(503)?;
    ensure_eq!(three.body["checks"]["lists"]["missing"], json!(["uk-sanctions"]), three.raw);
    let metrics = env.admin_production("GET", "/v1/admin/metrics", None);
    ensure_eq!((metrics.int("sanctions_lists_required"), metrics.int("sanctions_lists_missing")), (4, 1), metrics.raw);
    let uk = env.import_list(&["--environment", "production", "--format", "uk-sanctions-xml", &data("uk-sanctions-sample/UK_Sanctions_List.xml")])?;
    ensure!(uk.contains("3 entries") && uk.contains("uk-sanctions"), "unexpected summary: {uk}");
    let p = env.tenant_with("production", 1000)?;
    for (first, last, dob, nationality) in
        [("Kazimir", "Vrublevsky-Tarnov", "1961-07-04", "RU"), ("Lavrentiy", "Prokhodtsev-Lunin", "1958-12-09", "RU")]
    {
        let hit = p.post("/v1/sanctions/screen", person(&unique("u"), first, last, dob, nationality));
        hit.expect(201)?;
        ensure_eq!(hit.str("status"), "hit_review_pending", format!("{first} {last}: {}", hit.raw));
        let decision_id = hit.header("x-decision-id").ok_or("the screening names no decision")?.to_string();
        let decision = env.admin_production("GET", &format!("/v1/admin/decisions/{decision_id}"), None);
        let sources: Vec<&str> =
            decision.body["input"]["sources"].as_array().map(|s| s.iter().filter_map(|s| s["source"].as_str()).collect()).unwrap_or_default();
        for source in ["ofac-sdn", "un-consolidated", "eu-fsf", "uk-sanctions"] {
            ensure!(sources.contains(&source), "the screening was not run against {source}: {sources:?}");
        }
    }
    // All four: ready, and the admin view shows each with its version.
    let four = env.call("GET", "/v1/health/ready", None, None);
    four.expect(200)?;
    ensure_eq!(four.str("status"), "ready");
    let lists = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
    let coverage = lists.body["coverage"].as_array().cloned().unwrap_or_default();
    ensure_eq!(coverage.len(), 4, lists.raw);
    ensure!(coverage.iter().all(|c| c["version"].is_string() && c["stale"] == json!(false)), "coverage: {}", lists.raw);
    let metrics = env.admin_production("GET", "/v1/admin/metrics", None);
    ensure_eq!((metrics.int("sanctions_lists_missing"), metrics.int("sanctions_lists_stale")), (0, 0), metrics.raw);
    // Cut short, a file replaces nothing.
    let dir = std::env::temp_dir().join(unique("eu-cut"));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let full = std::fs::read(data("eu-fsf-sample/eu-fsf.xml")).map_err(|e| e.to_string())?;
    let cut = dir.join("eu-fsf.xml");
    std::fs::write(&cut, &full[..full.len() * 2 / 3]).map_err(|e| e.to_string())?;
    let before = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
    let version = |lists: &crate::client::Resp| {
        lists.body["lists"].as_array().and_then(|l| l.iter().find(|l| l["source"] == "eu-fsf")).map(|l| l["version"].clone())
    };
    let refused = env.import_list(&["--environment", "production", "--format", "eu-fsf-xml", &cut.display().to_string()]);
    ensure!(refused.is_err(), "a truncated EU file was imported: {refused:?}");
    let after = env.admin_production("GET", "/v1/admin/sanctions/lists", None);
    ensure_eq!(version(&after), version(&before), "the EU list changed");
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// A dismissed match is remembered: re-screens do not open a case for the
/// same user and entry again while the entry's record is unchanged; a
/// changed record is screened afresh.
pub fn a_dismissed_match_stays_dismissed_until_the_entry_changes(env: &Env) -> CaseResult {
    let p = env.tenant_with("production", 1000)?;
    let dir = std::env::temp_dir().join(unique("dismiss-list"));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("targets.simple.csv");
    let header = "id,schema,name,aliases,birth_date,countries,addresses,identifiers,sanctions,phones,emails,program_ids,dataset,first_seen,last_seen,last_change\n";
    let import = |aliases: &str| -> Result<String, String> {
        std::fs::write(
            &file,
            format!("{header}NK-dismiss-1,Person,Cornelius Vantablack,{aliases},1966-05-05,gb,,,Test sanctions,,,,test,2026-01-01,2026-01-01,2026-01-01\n"),
        )
        .map_err(|e| e.to_string())?;
        env.import_list(&["--environment", "production", "--format", "opensanctions-csv", "--source", "test-dismiss", &file.display().to_string()])
    };
    import("")?;
    let user = unique("u");
    let hit = p.post("/v1/sanctions/screen", person(&user, "Cornelius", "Vantablack", "1966-05-05", "GB"));
    hit.expect(201)?;
    ensure_eq!(hit.str("status"), "hit_review_pending", hit.raw);
    let first_case = hit.str("case_id").to_string();
    let case = env.admin_production("GET", &format!("/v1/admin/sanctions/cases/{first_case}"), None);
    ensure!(case.body["matches"][0]["fingerprint"].as_str().is_some_and(|f| f.len() == 64), "the match has no fingerprint: {}", case.raw);
    super::review::decide_with_four_eyes(env, "production", &first_case, "false_positive")?;
    let status = |p: &crate::client::Tenant<'_>| p.get(&format!("/v1/sanctions/status?user_id={user}")).str("status").to_string();
    ensure_eq!(status(&p), "cleared");

    // Re-screened on demand, and after the same record is imported again: set aside.
    let again = env.admin_production("POST", "/v1/admin/sanctions/rescreen", Some(&json!({ "tenant_id": p.tenant_id, "user_id": user })));
    again.expect(200)?;
    ensure_eq!(again.int("new_hits"), 0, again.raw);
    import("")?;
    // every list's re-screens done, whichever run (another case's, another host's) did them
    super::review::settle_rescreens(env, "production")?;
    ensure_eq!(status(&p), "cleared", "a dismissed match opened a case again");

    // The entry's record changes (a new alias): screened afresh, a new case, by whichever run claims the change.
    import("C. Vantablack")?;
    env.schedule_until("production", "a changed entry was not screened afresh", || Ok(status(&p) == "hit_review_pending"))?;
    let reviewed = p.get(&format!("/v1/sanctions/status?user_id={user}"));
    ensure!(!reviewed.raw.contains("NK-dismiss") && !reviewed.raw.contains("test-dismiss"), "the operator saw the match: {}", reviewed.raw);
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
