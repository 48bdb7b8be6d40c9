//! Keeps "nothing the test command runs reads `../shared`": no script, test,
//! bench, build script or source of the workspace names the folder beside the
//! checkout (a fresh clone elsewhere has none). Documentation may cite it.

#![allow(clippy::expect_used, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

/// What the scan skips: build output, dependencies, history.
const SKIPPED: [&str; 5] = ["target", ".git", "node_modules", "build", "__pycache__"];

/// The kinds of file that run (code, scripts, configuration), not prose.
const RUN: [&str; 10] = ["rs", "py", "sh", "js", "mjs", "ts", "toml", "yml", "yaml", "jsonc"];

fn files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if path.is_dir() {
            if !SKIPPED.contains(&name.as_str()) {
                files(&path, found);
            }
        } else if path.extension().is_some_and(|e| RUN.contains(&e.to_string_lossy().as_ref())) {
            found.push(path);
        }
    }
}

/// Whether a line names the shared folder as a path to read.
fn names_shared(line: &str) -> bool {
    let l = line.replace(' ', "");
    ["../shared", "/work/shared", "/\"shared\"", "\"shared\"/", "join(\"shared\")", "CGW_SHARED"].iter().any(|p| l.contains(p))
}

fn readers(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    files(root, &mut found);
    let me = Path::new(file!()).file_name().unwrap();
    let mut hits: Vec<String> = found
        .iter()
        .filter(|f| f.file_name() != Some(me))
        .filter_map(|f| {
            let text = std::fs::read_to_string(f).ok()?;
            let n = text.lines().position(names_shared)?;
            Some(format!("{}:{}", f.strip_prefix(root).unwrap().display(), n + 1))
        })
        .collect();
    hits.sort();
    hits
}

#[test]
fn no_file_that_runs_reads_the_folder_beside_the_checkout() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let hits = readers(&root);
    assert!(hits.is_empty(), "reads outside the repository: {hits:?}");
    assert!(root.join("conformance/data/fincen-bsa-xml-1.2/EFL_SARXBatchSchema.xsd").is_file(), "the FinCEN schemas are committed");
}

#[test]
fn the_scan_catches_planted_reads() {
    for planted in [
        r#"DATA = pathlib.Path(__file__).resolve().parent.parent.parent / "shared" / "data""#,
        r#"const OFAC: &str = "../shared/data/ofac-sdn-2022-01";"#,
        "xsd=/work/shared/data/goaml-4-fiu-lk/goAMLSchema-Version_2.0.xsd",
        r#"let d = root.join("shared").join("data");"#,
    ] {
        assert!(names_shared(planted), "missed: {planted}");
    }
    assert!(!names_shared("let email = format!(\"{}@example.com\", unique(\"shared\"));"));
    let dir = std::env::temp_dir().join(format!("cgw-scan-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("scripts")).unwrap();
    std::fs::write(dir.join("scripts/x.py"), "import os\nDATA = ROOT.parent / \"shared\" / \"data\"\n").unwrap();
    std::fs::write(dir.join("README.md"), "The API is `../shared/SPEC.md`.\n").unwrap();
    let hits = readers(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(hits, ["scripts/x.py:2"]);
}
