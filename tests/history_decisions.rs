//! Every table has a history decision: the activity log records it as a resource's
//! (`Resource::history`), or its owner says why it does not (`Resource::unrecorded`, and each lower
//! layer's own tables). A new table, or a new resource's table, fails here until it has one.

use std::collections::BTreeMap;

#[test]
fn every_table_is_recorded_or_declared_unrecorded_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let db = perkdesk::app::open_db(&dir.path().join("decisions.db")).unwrap();
    let conn = db.conn().unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")
        .unwrap()
        .query_map([], |row| row.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut decisions: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for resource in perkdesk::resources::all() {
        for recorded in resource.history {
            decisions.entry(recorded.table.to_string()).or_default().push(format!("recorded as {}", resource.path));
        }
        for (table, why) in resource.unrecorded {
            assert!(!why.is_empty(), "{table}: a reason");
            decisions.entry(table.to_string()).or_default().push(format!("unrecorded ({})", resource.path));
        }
    }
    for (table, why) in perkdesk::app::unrecorded_tables() {
        assert!(!why.is_empty(), "{table}: a reason");
        decisions.entry(table).or_default().push("unrecorded (its layer)".into());
    }
    let undecided: Vec<&String> = tables.iter().filter(|table| !decisions.contains_key(*table)).collect();
    assert!(undecided.is_empty(), "tables without a history decision: {undecided:?}");
    let stale: Vec<&String> = decisions.keys().filter(|table| !tables.contains(table)).collect();
    assert!(stale.is_empty(), "decisions about tables that do not exist: {stale:?}");
    let torn: Vec<(&String, &Vec<String>)> = decisions
        .iter()
        .filter(|(_, said)| {
            said.iter().any(|s| s.starts_with("recorded")) && said.iter().any(|s| s.starts_with("unrecorded"))
        })
        .collect();
    assert!(torn.is_empty(), "tables both recorded and not: {torn:?}");
}
