//! The crate's own source files, for the tests that read the code (the layer order, the one
//! writer of each table). Included by path, so those tests need none of the router helpers.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `src/`: its path relative to `src/` and its text.
pub fn rust_sources() -> Vec<(PathBuf, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    collect(&src, &mut files);
    assert!(files.len() > 50, "read {} files under {}", files.len(), src.display());
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path.strip_prefix(&src).unwrap().to_path_buf(), text)
        })
        .collect()
}

fn collect(dir: &Path, into: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, into);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            into.push(path);
        }
    }
}
