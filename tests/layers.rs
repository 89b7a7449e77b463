//! The layers of `src/` import one way only: each folder names only the folders below it
//! (docs/architecture.md). The order is written once, here; a file that names a higher layer,
//! or a folder the order does not know, fails this test with the line that does it.

use crate::sources;

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

/// The words by which code asks which engine it runs on. Above `db`, code asks for a capability
/// (`Db::is_shared`, `Db::is_a_file`) or a dialect's answer (`db::dialect`), never the engine.
const ENGINE_TESTS: &[&str] =
    &["is_postgres(", "Dialect::Postgres", "Dialect::Sqlite", "Location::Postgres", "Location::File"];

/// The lines of a source text, comments aside, that ask which engine it runs on.
fn engine_tests(text: &str) -> Vec<usize> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim_start().starts_with("//"))
        .filter(|(_, line)| ENGINE_TESTS.iter().any(|word| line.contains(word)))
        .map(|(number, _)| number + 1)
        .collect()
}

#[test]
fn nothing_above_db_asks_which_engine_it_runs_on() {
    let mut found = Vec::new();
    for (relative, text) in sources::rust_sources() {
        if relative.starts_with("db") {
            continue;
        }
        found.extend(engine_tests(&text).into_iter().map(|line| format!("{}:{line}", relative.display())));
    }
    assert!(found.is_empty(), "modules above db testing the engine:\n{}", found.join("\n"));
    assert_eq!(engine_tests("if db.is_postgres() {\n// db.is_postgres()\nif db.is_shared() {}\n"), [1]);
}

#[test]
fn the_driver_check_sees_a_driver_path_and_not_a_comment() {
    assert_eq!(driver_names("use rusqlite::Connection;\n// rusqlite::Row\nlet x = 1;\n"), [1]);
    assert_eq!(driver_names("fn f(e: postgres::Error) {}\n"), [1]);
    assert!(driver_names("use crate::db::sql::Connection;\n").is_empty());
}

/// Positional row reads the code above `db` may keep: generic code that reads a declared query's
/// columns by place. Everything else reads a row's columns by name (`row.get::<T>("first_name")`,
/// an expression by its alias), so a reordered SELECT cannot shift a value into another field.
const MAX_POSITIONAL_READS: usize = 10;

/// The arguments of a row read at `after` (the text just past a `get` that `before` precedes):
/// `get_ref(…`, or `.get(…` and `.get::<T>(…` (nested generics included).
fn read_arguments<'t>(before: &str, after: &'t str) -> Option<&'t str> {
    if let Some(arguments) = after.strip_prefix("_ref(") {
        return Some(arguments);
    }
    if !before.ends_with('.') {
        return None;
    }
    let Some(generics) = after.strip_prefix("::<") else { return after.strip_prefix('(') };
    let mut depth = 1;
    for (at, c) in generics.char_indices() {
        depth += match c {
            '<' => 1,
            '>' => -1,
            _ => 0,
        };
        if depth == 0 {
            return generics[at + 1..].strip_prefix('(');
        }
    }
    None
}

/// The positional reads in a source text, `.get(<digits>)`, `.get::<…>(<digits>)` and
/// `get_ref(<digits>)`, as (line, code); a range such as `.get(5..7)` is a slice, not a column.
fn positional_reads(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        for (at, _) in line.match_indices("get") {
            let Some(arguments) = read_arguments(&line[..at], &line[at + "get".len()..]) else { continue };
            let arguments = arguments.trim_start();
            let digits = arguments.chars().take_while(char::is_ascii_digit).count();
            if digits > 0 && arguments[digits..].trim_start().starts_with(')') {
                found.push((number + 1, line.trim().to_string()));
            }
        }
    }
    found
}

#[test]
fn rows_above_db_are_read_by_column_name() {
    let mut found = Vec::new();
    for (relative, text) in sources::rust_sources() {
        if relative.starts_with("db") {
            continue;
        }
        for (line, code) in positional_reads(&text) {
            found.push(format!("{}:{line}: {code}", relative.display()));
        }
    }
    found.sort();
    assert!(
        found.len() <= MAX_POSITIONAL_READS,
        "{} positional row reads outside src/db/ (at most {MAX_POSITIONAL_READS}; read the column by its name or alias):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_read_check_sees_positional_reads_and_not_names_or_slices() {
    let text = "let a = r.get(0)?;\nlet b = r.get::<Option<i64>>(12)?;\nlet c = row.get_ref(1)?;\n\
                let d = r.get(\"first_name\")?;\nlet e = key.get(5..7);\nlet f = r.get::<i64>(\"n\")?;\n\
                // r.get(3) in a comment\nlet g = r.get(index)?;\n";
    let lines: Vec<usize> = positional_reads(text).into_iter().map(|(line, _)| line).collect();
    assert_eq!(lines, [1, 2, 3]);
}
