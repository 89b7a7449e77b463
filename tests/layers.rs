//! The layers of `src/` import one way only: each folder names only the folders below it
//! (docs/architecture.md). The order is written once, here; a file that names a higher layer,
//! or a folder the order does not know, fails this test with the line that does it.

#[path = "common/sources.rs"]
mod sources;

/// Bottom to top. `main.rs` and `lib.rs` sit above everything.
const LAYERS: &[&str] = &["core", "db", "http", "auth", "crud", "resources", "inbound", "app", "cli"];
const ROOT_FILES: &[&str] = &["main.rs", "lib.rs"];

fn rank(top: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| *layer == top).or(ROOT_FILES.contains(&top).then_some(LAYERS.len()))
}

/// The crate-level modules a source text names (`crate::x`), with their line numbers, the whole
/// file: a file's unit tests keep to its layer too (a test that needs a higher layer's fixtures is
/// an integration test, in `tests/`).
fn named_modules(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let code = line.trim_start();
        if code.starts_with("//") {
            continue;
        }
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let after = &rest[at + "crate::".len()..];
            let name: String =
                after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '{').collect();
            found.push((number + 1, name));
            rest = after;
        }
    }
    found
}

/// Every upward or unknown import of one file, as lines to print.
fn violations(top: &str, file: &str, text: &str) -> Vec<String> {
    let Some(own) = rank(top) else {
        return vec![format!("{file}: the folder `{top}` has no place in the layer order (tests/layers.rs)")];
    };
    named_modules(text)
        .into_iter()
        .filter_map(|(line, name)| match rank(&name) {
            _ if name.starts_with('{') => {
                Some(format!("{file}:{line}: `use crate::{{...}}` hides which layers it names"))
            }
            None => Some(format!("{file}:{line}: names `crate::{name}`, which is not a layer")),
            Some(theirs) if theirs > own => Some(format!("{file}:{line}: `{top}` imports `{name}`, a layer above it")),
            Some(_) => None,
        })
        .collect()
}

#[test]
fn no_layer_imports_a_layer_above_it() {
    let mut found = Vec::new();
    for (relative, text) in sources::rust_sources() {
        let top = relative.components().next().unwrap().as_os_str().to_string_lossy().into_owned();
        found.extend(violations(&top, &relative.display().to_string(), &text));
    }
    assert!(found.is_empty(), "imports against the layer order:\n{}", found.join("\n"));
}

#[test]
fn the_check_sees_an_upward_import_and_lets_a_downward_one_pass() {
    let upward = "use crate::db::Db;\nuse crate::resources::users::USERS;\n";
    assert_eq!(violations("crud", "crud/x.rs", upward), ["crud/x.rs:2: `crud` imports `resources`, a layer above it"]);
    assert!(violations("resources", "resources/x.rs", upward).is_empty());
    // Comments do not count; a file's unit tests do, and a folder outside the order does.
    assert!(violations("core", "core/x.rs", "// crate::app is named here\n").is_empty());
    let in_tests = "#[cfg(test)]\nmod tests { use crate::app::app; }\n";
    assert_eq!(violations("core", "core/x.rs", in_tests).len(), 1);
    assert_eq!(violations("extras", "extras/x.rs", "").len(), 1);
    assert_eq!(violations("auth", "auth/x.rs", "let x = crate::inbound::app::routes();").len(), 1);
}

/// The driver crates only `db` may name: everything else reaches the database through the seam
/// (`db::sql`), so a second engine behind it changes no other module.
const DRIVERS: &[&str] = &["rusqlite", "r2d2_sqlite", "postgres"];

/// The lines of a source text that name a driver crate (as a path, `driver::…`), comments aside.
fn driver_names(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| DRIVERS.iter().any(|driver| line.contains(&format!("{driver}::"))))
        .map(|(number, _)| number + 1)
        .collect()
}

#[test]
fn only_db_names_the_database_driver() {
    let mut found = Vec::new();
    for (relative, text) in sources::rust_sources() {
        if relative.starts_with("db") {
            continue;
        }
        found.extend(driver_names(&text).into_iter().map(|line| format!("{}:{line}", relative.display())));
    }
    assert!(found.is_empty(), "modules outside db naming the driver:\n{}", found.join("\n"));
}

#[test]
fn the_driver_check_sees_a_driver_path_and_not_a_comment() {
    assert_eq!(driver_names("use rusqlite::Connection;\n// rusqlite::Row\nlet x = 1;\n"), [1]);
    assert_eq!(driver_names("fn f(e: postgres::Error) {}\n"), [1]);
    assert!(driver_names("use crate::db::sql::Connection;\n").is_empty());
}
