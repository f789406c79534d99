//! Every committed fuzz input (`fuzz/corpus/TARGET/*` and the crashes found, `fuzz/regressions/
//! TARGET/*`) run through its target's check on the stable toolchain, so the normal `cargo test`
//! guards what the fuzzers found without nightly or libFuzzer.

use std::path::Path;

#[path = "../../../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod checks;

#[test]
fn every_committed_fuzz_input_passes_its_check() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut total = 0;
    for (target, check) in checks::TARGETS {
        let mut files = Vec::new();
        for dir in ["corpus", "regressions"] {
            let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(target)) else {
                continue;
            };
            files.extend(entries.map(|e| e.expect("a readable directory").path()));
        }
        files.sort();
        assert!(
            !files.is_empty(),
            "fuzz target {target} has no committed corpus"
        );
        for f in &files {
            let data = std::fs::read(f).expect("a readable corpus file");
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(outcome.is_ok(), "{target}: {} fails its check", f.display());
        }
        total += files.len();
    }
    assert!(total > 0);
}
