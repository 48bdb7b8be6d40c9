//! A list load leaves the Postgres planner's statistics current before the
//! new version is switched in. A planner that still took the freshly loaded
//! keys for a handful of rows once chose, for the screening's ranked read,
//! a plan that scanned them once per entry: screenings ran for minutes
//! until autovacuum analysed the tables (a minute or more after the load).
#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

mod support;

use gateway::auth::Environment;
use gateway::lists::{ListEntry, ListFormat};
use gateway::{Config, Gateway};
use host_native::{open_store, OsIds, SystemClock};
use rules_library::LibraryRules;

fn entry(n: usize) -> ListEntry {
    ListEntry {
        entity_id: n.to_string(),
        kind: rules::EntryKind::Individual,
        names: vec![format!("Person{n} Listedname{n} Othername{}", n % 97)],
        dates_of_birth: vec!["1961-07-04".into()],
        nationalities: vec!["RU".into()],
        programs: "TEST".into(),
        topic: rules::EntryTopic::Sanction,
    }
}

/// The planner's estimate of a list's index keys, and their true count.
async fn keys_estimated_and_counted(client: &tokio_postgres::Client, list_id: &str) -> (f64, i64) {
    let plan = client.query(&format!("EXPLAIN SELECT entry_no FROM sanctions_keys WHERE list_id = '{list_id}'"), &[]).await.unwrap();
    // the top node's line: "… (cost=… rows=N width=…)"
    let top: String = plan[0].get(0);
    let rows = top.split("rows=").nth(1).and_then(|r| r.split(' ').next()).unwrap();
    let estimated: f64 = rows.parse().unwrap();
    let counted = client.query_one("SELECT COUNT(*) FROM sanctions_keys WHERE list_id = $1", &[&list_id]).await.unwrap();
    (estimated, counted.get(0))
}

#[tokio::test]
async fn a_loaded_list_is_known_to_the_planner_before_it_is_screened_against() {
    let Some(url) = support::postgres_database("cgw_list_statistics").await else { return };
    let gateway = Gateway::new(open_store(&url).await.unwrap(), Box::new(LibraryRules), Box::new(SystemClock), Box::new(OsIds), Config::default());
    gateway.migrate().await.unwrap();
    let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls).await.unwrap();
    tokio::spawn(connection);
    // only the load may analyse the tables here
    client
        .batch_execute("ALTER TABLE sanctions_keys SET (autovacuum_enabled = false); ALTER TABLE sanctions_entries SET (autovacuum_enabled = false);")
        .await
        .unwrap();
    gateway::lists::import(&gateway, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, vec![entry(0)], "cli").await.unwrap();
    // the twin: rows written without a load stay unknown to the planner (so the measure below can tell)
    client
        .batch_execute(
            "INSERT INTO sanctions_keys (list_id, index_key, entry_no) SELECT 'lst_unanalysed', 'k' || n, n FROM generate_series(1, 20000) n",
        )
        .await
        .unwrap();
    let (estimated, counted) = keys_estimated_and_counted(&client, "lst_unanalysed").await;
    assert_eq!(counted, 20_000);
    assert!(estimated < 2_000.0, "the planner knew rows no load analysed ({estimated} estimated): the test cannot tell");
    client.batch_execute("DELETE FROM sanctions_keys WHERE list_id = 'lst_unanalysed'").await.unwrap();

    let entries: Vec<ListEntry> = (1..=3_000).map(entry).collect();
    gateway::lists::import(&gateway, Environment::Production, "ofac-sdn", ListFormat::OfacCsv, entries, "cli").await.unwrap();
    let active = client
        .query_one("SELECT list_id FROM sanctions_lists WHERE source = 'ofac-sdn' AND environment = 'production' AND status = 'active'", &[])
        .await
        .unwrap();
    let list_id: String = active.get(0);
    let (estimated, counted) = keys_estimated_and_counted(&client, &list_id).await;
    assert!(counted > 6_000, "{counted} keys");
    assert!(estimated > counted as f64 / 2.0, "the planner takes {counted} loaded keys for {estimated}");
}
