//! Every command example in README.md and docs/*.md runs: the fenced `sh` blocks are read, and
//! each `wavesim ...` or `cargo run --release -- ...` line runs against the built binary (in the
//! repository root, with `/tmp/` paths moved into a private directory) and must exit 0; a
//! `cmp A B` line checks that the two files are equal (the README states the example's result
//! that way). A block whose first line is `# not run in CI: REASON` needs tools CI does not
//! have (clang, hipcc, the user's own files) and is listed with its reason. The README's test
//! command and `pip install ./python` are what `.ci/run` itself runs. Any other command in an
//! `sh` block fails this test: mark the block, or teach the test the command.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The marker a block's first line carries when CI cannot run it.
const SKIP: &str = "# not run in CI:";

/// Commands `.ci/run` runs itself (running them here would recurse or install packages).
const RUN_BY_CI: &[&str] = &["cargo test --workspace --release", "pip install ./python"];

struct Block {
    file: String,
    line: usize,
    lines: Vec<(usize, String)>,
}

/// The fenced `sh` blocks of a Markdown file, backslash-continued lines joined.
fn sh_blocks(file: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut cur: Option<Block> = None;
    let mut pending = String::new();
    for (n, l) in text.lines().enumerate() {
        let n = n + 1;
        match cur.as_mut() {
            None if l.trim_start().starts_with("```") => {
                if l.trim_start().trim_start_matches('`').trim() == "sh" {
                    cur = Some(Block {
                        file: file.into(),
                        line: n,
                        lines: Vec::new(),
                    });
                } else {
                    // Another language: skip to its closing fence.
                    cur = Some(Block {
                        file: String::new(),
                        line: n,
                        lines: Vec::new(),
                    });
                }
            }
            None => {}
            Some(b) if l.trim_start().starts_with("```") => {
                if !b.file.is_empty() {
                    out.push(cur.take().unwrap());
                }
                cur = None;
                pending.clear();
            }
            Some(b) => {
                if let Some(head) = l.strip_suffix('\\') {
                    pending.push_str(head);
                    continue;
                }
                pending.push_str(l);
                b.lines
                    .push((n, std::mem::take(&mut pending).trim().to_string()));
            }
        }
    }
    out
}

/// Splits a command line as sh does for the simple quoting docs use ('...', "...").
fn words(line: &str) -> Vec<String> {
    let (mut out, mut w, mut quote, mut any) = (Vec::new(), String::new(), None, false);
    for c in line.chars() {
        match (quote, c) {
            (None, '#') if !any => break,
            (None, '\'' | '"') => {
                quote = Some(c);
                any = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if any {
                    out.push(std::mem::take(&mut w));
                    any = false;
                }
            }
            (_, c) => {
                w.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(w);
    }
    out
}

fn run_block(b: &Block, tmp: &Path, ran: &mut usize) -> Vec<String> {
    let mut failures = Vec::new();
    let tmp_arg = |a: &str| a.replace("/tmp/", &format!("{}/", tmp.display()));
    for (n, line) in &b.lines {
        let at = format!("{}:{n}", b.file);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let w = words(line);
        if RUN_BY_CI.contains(&w.join(" ").as_str()) {
            continue;
        }
        let args: Vec<String> = if w.first().map(String::as_str) == Some("wavesim") {
            w[1..].iter().map(|a| tmp_arg(a)).collect()
        } else if w.len() > 3 && w[..4] == ["cargo", "run", "--release", "--"] {
            w[4..].iter().map(|a| tmp_arg(a)).collect()
        } else if w.len() == 3 && w[0] == "cmp" {
            let (a, b) = (root().join(tmp_arg(&w[1])), root().join(tmp_arg(&w[2])));
            match (std::fs::read(&a), std::fs::read(&b)) {
                (Ok(x), Ok(y)) if x == y => *ran += 1,
                (x, y) => failures.push(format!(
                    "{at}: `{line}`: the files differ or are missing ({} / {})",
                    x.map_or_else(|e| e.to_string(), |v| format!("{} bytes", v.len())),
                    y.map_or_else(|e| e.to_string(), |v| format!("{} bytes", v.len()))
                )),
            }
            continue;
        } else {
            failures.push(format!(
                "{at}: `{line}` is not a wavesim command; mark its block `{SKIP} REASON` \
                 if CI cannot run it"
            ));
            continue;
        };
        let o = Command::new(env!("CARGO_BIN_EXE_wavesim"))
            .current_dir(root())
            .args(&args)
            .env("WAVESIM_NO_PROGRESS", "1")
            .output()
            .expect("the wavesim binary runs");
        *ran += 1;
        if !o.status.success() {
            failures.push(format!(
                "{at}: `{line}` exited with {}: {}",
                o.status,
                String::from_utf8_lossy(&o.stderr).trim()
            ));
        }
    }
    failures
}

#[test]
fn every_sh_example_in_the_docs_runs() {
    let mut files = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    let tmp = std::env::temp_dir().join(format!("wavesim-doc-examples-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let (mut ran, mut skipped, mut failures) = (0usize, Vec::new(), Vec::new());
    for f in &files {
        let rel = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        for b in sh_blocks(&rel, &text) {
            match b.lines.first() {
                Some((_, first)) if first.starts_with(SKIP) => skipped.push(format!(
                    "{}:{}: {}",
                    b.file,
                    b.line,
                    first[SKIP.len()..].trim()
                )),
                _ => failures.extend(run_block(&b, &tmp, &mut ran)),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    for s in &skipped {
        eprintln!("skipped (needs tools CI does not have) {s}");
    }
    eprintln!(
        "{ran} documented commands ran, {} blocks skipped",
        skipped.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The README's example, graphics, R700 and AGX commands at least.
    assert!(ran >= 8, "only {ran} commands found in the docs' sh blocks");
}

#[test]
fn the_block_reader_joins_continuations_and_splits_quotes() {
    let md = "text\n```sh\n# c\nwavesim run a \\\n    --arg 'x y'\n```\n```rust\nwavesim no\n```\n";
    let b = sh_blocks("f.md", md);
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].lines.len(), 2);
    assert_eq!(
        words(&b[0].lines[1].1),
        ["wavesim", "run", "a", "--arg", "x y"]
    );
    assert_eq!(words("corpus/x.sh   # comment"), ["corpus/x.sh"]);
}
