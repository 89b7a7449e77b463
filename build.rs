//! Builds the React admin panel into frontend/dist so `cargo build` yields a complete binary.
//! PERKDESK_SKIP_FRONTEND=1 skips it (the binary then says the UI was not built).

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=PERKDESK_SKIP_FRONTEND");
    let frontend = Path::new("frontend");
    let dist = frontend.join("dist");
    for input in ["src", "public", "index.html", "package.json", "package-lock.json", "vite.config.ts", "tsconfig.json"]
    {
        println!("cargo:rerun-if-changed=frontend/{input}");
    }
    let skip = std::env::var("PERKDESK_SKIP_FRONTEND").is_ok_and(|v| v == "1");
    if skip || !frontend.join("package.json").exists() {
        if let Err(error) = std::fs::create_dir_all(&dist) {
            panic!("cannot create {}: {error}", dist.display());
        }
        return;
    }
    let installed = frontend.join("node_modules/.package-lock.json");
    let lock = frontend.join("package-lock.json");
    let stale = match (std::fs::metadata(&installed), std::fs::metadata(&lock)) {
        (Ok(i), Ok(l)) => match (i.modified(), l.modified()) {
            (Ok(i), Ok(l)) => l > i,
            _ => true,
        },
        _ => true,
    };
    // A debug binary does not embed the UI: rust-embed reads frontend/dist from disk at run time.
    // So a UI that does not build yet (work in progress) only warns there, and the Rust side
    // still builds and tests; a release binary, which embeds it, fails.
    let embeds_ui = std::env::var("PROFILE").is_ok_and(|profile| profile == "release");
    let built = (!stale || npm(frontend, &["ci", "--no-audit", "--no-fund"])) && npm(frontend, &["run", "build"]);
    if !built && embeds_ui {
        panic!("the frontend did not build (see above); set PERKDESK_SKIP_FRONTEND=1 to build without the UI");
    }
    if !built {
        println!("cargo:warning=the frontend did not build; this debug binary serves whatever frontend/dist holds");
    }
}

/// Runs npm in `dir`; false when it fails.
fn npm(dir: &Path, args: &[&str]) -> bool {
    match Command::new("npm").args(args).current_dir(dir).status() {
        Ok(status) if status.success() => true,
        Ok(status) => {
            eprintln!("`npm {}` in frontend/ failed ({status})", args.join(" "));
            false
        }
        Err(error) => panic!("cannot run npm ({error}); install Node.js and npm, or set PERKDESK_SKIP_FRONTEND=1"),
    }
}
