//! The documentation describes the product as it is, from inside the repository: no file points
//! to a folder beside the clone (a reader of a clone has only what is in it), the operators' pages
//! (README.md, docs/operations.md) read by topic without issue numbers or "in progress" notes,
//! docs/performance.md opens with today's figures before the history of measurements, and the
//! README still opens with the two commands that build, run and test everything.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(relative: &str) -> String {
    let path = root().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()))
}

/// Folders never walked: dependencies, build output, generated code and local scratch (any
/// folder whose name starts with a dot, such as bench/.tmp).
const SKIPPED_DIRS: &[&str] = &["node_modules", "target", "dist", "generated", "test-results", "playwright-report"];

/// Lock files and other machine-written files.
const SKIPPED_FILES: &[&str] = &["Cargo.lock", "package-lock.json", "tsconfig.tsbuildinfo"];

/// What counts as text to check: source, scripts, configuration and documentation.
const TEXT_EXTENSIONS: &[&str] = &[
    "md", "rs", "sh", "py", "ts", "tsx", "js", "mjs", "cjs", "json", "toml", "sql", "cfg", "conf", "yml", "yaml",
    "html", "css", "txt",
];

fn is_text(path: &Path) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some(extension) => TEXT_EXTENSIONS.contains(&extension),
        // Scripts without an extension (scripts/test, scripts/bench, ...).
        None => true,
    }
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if path.is_dir() {
            if !name.starts_with('.') && !SKIPPED_DIRS.contains(&name.as_str()) {
                walk(&path, found);
            }
        } else if !SKIPPED_FILES.contains(&name.as_str()) && is_text(&path) {
            found.push(path);
        }
    }
}

/// The project's own files: the README and every text file of the folders a clone holds.
fn project_files() -> Vec<PathBuf> {
    let root = root();
    let mut found = vec![root.join("README.md")];
    for dir in ["docs", "src", "tests", "scripts", "bench", "e2e", "frontend", "deploy", "migrations"] {
        walk(&root.join(dir), &mut found);
    }
    found
}

fn relative(path: &Path) -> String {
    path.strip_prefix(root()).unwrap_or(path).display().to_string()
}

/// Each line of `text` that holds `needle` (in any case when `needle` is lower case), as
/// `file:line: text`.
fn lines_with(file: &str, text: &str, needle: &str) -> Vec<String> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| line.contains(needle) || line.to_lowercase().contains(needle))
        .map(|(number, line)| format!("{file}:{}: {}", number + 1, line.trim()))
        .collect()
}

/// Each place in `text` that names an issue by number: `issue 24`, `Issue 15`, `issues 23`,
/// `issue #7`, as `file:line: text`.
fn issue_numbers(file: &str, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let lower = line.to_lowercase();
        let mut rest = lower.as_str();
        while let Some(at) = rest.find("issue") {
            let after = rest[at + "issue".len()..].strip_prefix('s').unwrap_or(&rest[at + "issue".len()..]);
            let spaced = after.trim_start_matches([' ', '\u{a0}']);
            let digits = spaced.strip_prefix('#').unwrap_or(spaced);
            if spaced.len() < after.len() && digits.starts_with(|c: char| c.is_ascii_digit()) {
                found.push(format!("{file}:{}: {}", number + 1, line.trim()));
                break;
            }
            rest = &rest[at + "issue".len()..];
        }
    }
    found
}

#[test]
fn the_issue_scanner_finds_issue_numbers_and_nothing_else() {
    assert_eq!(issue_numbers("f", "as issue 24 says").len(), 1);
    assert_eq!(issue_numbers("f", "(Issue 15)").len(), 1);
    assert_eq!(issue_numbers("f", "issues 23 and 24").len(), 1);
    assert_eq!(issue_numbers("f", "see issue #7").len(), 1);
    assert!(issue_numbers("f", "an issue with 24 rows").is_empty());
    assert!(issue_numbers("f", "the issue's target").is_empty());
    assert!(issue_numbers("f", "issue24").is_empty());
}

#[test]
fn no_file_points_outside_the_repository() {
    // The folder beside a working copy, and the files of it that were once named here, each
    // spelled in two pieces so this file does not name them itself.
    let outside =
        [concat!("..", "/shared"), concat!("/work", "/shared"), concat!("design", ".md"), concat!("RUN", ".md")];
    let files = project_files();
    assert!(files.len() > 100, "the walk found only {} files", files.len());
    let mut found = Vec::new();
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else { continue };
        for needle in outside {
            found.extend(lines_with(&relative(path), &text, needle));
        }
    }
    assert!(
        found.is_empty(),
        "these lines point to a folder beside the repository; put what the reader needs into docs/ and point there:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_operators_pages_describe_the_product_as_it_is() {
    let mut found = Vec::new();
    for file in ["README.md", "docs/operations.md"] {
        let text = read(file);
        for phrase in ["in progress", "not there yet", "not yet"] {
            found.extend(lines_with(file, &text, phrase));
        }
        found.extend(issue_numbers(file, &text));
    }
    assert!(
        found.is_empty(),
        "README.md and docs/operations.md describe what is there, by topic, without issue numbers or \
         work-in-progress notes:\n{}",
        found.join("\n")
    );
}

#[test]
fn performance_opens_with_todays_figures_then_the_history() {
    let text = read("docs/performance.md");
    let headings: Vec<(usize, &str)> =
        text.lines().enumerate().filter(|(_, line)| line.starts_with("## ")).map(|(n, l)| (n, &l[3..])).collect();
    let (first_line, first) = headings.first().copied().expect("docs/performance.md has sections");
    assert!(
        first.to_lowercase().starts_with("today's figures"),
        "the first section of docs/performance.md is \"{first}\", not today's figures"
    );
    let history = headings.get(1).map(|(_, h)| h.to_lowercase()).unwrap_or_default();
    assert!(
        history.contains("history"),
        "today's figures are followed by the history of measurements, not \"{history}\""
    );
    let end = headings.get(1).map_or(text.lines().count(), |(n, _)| *n);
    let today: String = text.lines().skip(first_line).take(end - first_line).collect::<Vec<_>>().join("\n");
    let found = issue_numbers("docs/performance.md (today's figures)", &today);
    assert!(found.is_empty(), "today's figures name no issues:\n{}", found.join("\n"));
    assert!(today.contains('|') || today.contains("\n- "), "today's figures hold figures");
}

#[test]
fn the_readme_opens_with_the_two_commands() {
    let text = read("README.md");
    let mut lines = text.lines().filter(|line| !line.trim().is_empty());
    assert_eq!(lines.next(), Some("# perkdesk"));
    let opening: Vec<&str> = lines.take(4).collect();
    assert_eq!(
        opening,
        ["```sh", "cargo run --release -- demo", "./scripts/test", "```"],
        "README.md opens with the two commands that run the demo and every test"
    );
}
