//! Every command example in README.md and docs/*.md runs: the fenced `sh` blocks are read, and
//! each `wavesim ...` or `cargo run --release -- ...` line runs against the built binary (in the
//! repository root, with `/tmp/` paths moved into a private directory) and must exit 0; a
//! `cmp A B` line checks that the two files are equal (the README states the example's result
//! that way). A block whose first line is `# needs: TOOL ...` (commands on PATH, or files such
//! as `target/release/libwavesim_drm_amdgpu.so`) runs as a whole under `bash -e -o pipefail`
//! with `wavesim` on PATH, `/tmp/` moved likewise and `target/release/lib*.so` read where this
//! test build left the libraries; `cargo build` lines in it are what this test's own build
//! already did. When a needed tool is missing the block is listed as skipped, or fails when
//! `WAVESIM_DOCS_NEED_ALL=1` (`.ci/run` sets it and installs the tools, so CI runs every block).
//! A block whose first line is `# not run in CI: REASON` is listed with its reason (kept for
//! what no machine can run unattended). The README's test command and `pip install ./python`
//! are what `.ci/run` itself runs. Any other command in an `sh` block fails this test: mark the
//! block, or teach the test the command.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The marker a block's first line carries when CI cannot run it.
const SKIP: &str = "# not run in CI:";

/// The marker of a block that runs whole under bash once the tools it names are present.
const NEEDS: &str = "# needs:";

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

/// Where this test build left a workspace library: `cargo test` keeps cdylibs in deps/,
/// `cargo build` copies them up to target/release.
fn lib_path(file: &str) -> PathBuf {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_wavesim"));
    let release = bin.parent().map(Path::to_path_buf).unwrap_or_default();
    let deps = release.join("deps").join(file);
    if deps.exists() {
        deps
    } else {
        release.join(file)
    }
}

/// `text` with every `$PWD/target/release/libNAME.so` and `target/release/libNAME.so` read where
/// this build left that library.
fn move_libs(text: &str) -> String {
    let text = text.replace("$PWD/target/release/lib", "target/release/lib");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(i) = rest.find("target/release/lib") {
        out.push_str(&rest[..i]);
        let name_start = i + "target/release/".len();
        let name_len = rest[name_start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
            .unwrap_or(rest.len() - name_start);
        let name = &rest[name_start..name_start + name_len];
        out.push_str(&lib_path(name).display().to_string());
        rest = &rest[name_start + name_len..];
    }
    out.push_str(rest);
    out
}

/// A `# needs:` block's text with the documented paths moved to this run's.
fn bash_script(b: &Block, tmp: &Path) -> String {
    let lib_dir = lib_path("libwavesim.so")
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    b.lines
        .iter()
        .map(|(_, l)| l.as_str())
        .filter(|l| !l.starts_with("cargo build"))
        .map(|l| {
            move_libs(&l.replace("/tmp/", &format!("{}/", tmp.display())))
                .replace("-Ltarget/release", &format!("-L{}", lib_dir.display()))
                .replace(
                    "rpath,$PWD/target/release",
                    &format!("rpath,{}", lib_dir.display()),
                )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The tools a `# needs:` line names that this machine lacks.
fn missing_tools(needs: &str) -> Vec<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    needs
        .split_whitespace()
        .filter(|tool| {
            if tool.contains('/') {
                let p = move_libs(tool);
                !Path::new(&p).exists() && !root().join(&p).exists()
            } else {
                !std::env::split_paths(&path).any(|d| d.join(tool).is_file())
            }
        })
        .map(str::to_string)
        .collect()
}

/// Runs a `# needs:` block under bash; `Err` carries what failed.
fn run_bash_block(b: &Block, tmp: &Path) -> Result<(), String> {
    let bin_dir = PathBuf::from(env!("CARGO_BIN_EXE_wavesim"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .map_err(|e| e.to_string())?;
    let o = Command::new("bash")
        .args(["-e", "-o", "pipefail", "-c", &bash_script(b, tmp)])
        .current_dir(root())
        .env("PATH", path)
        .env("WAVESIM_NO_PROGRESS", "1")
        .output()
        .map_err(|e| format!("{}:{}: bash does not start: {e}", b.file, b.line))?;
    if o.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{}:{}: the block exited with {}: {}{}",
            b.file,
            b.line,
            o.status,
            String::from_utf8_lossy(&o.stdout).trim(),
            String::from_utf8_lossy(&o.stderr).trim()
        ))
    }
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
    let need_all = std::env::var("WAVESIM_DOCS_NEED_ALL").is_ok_and(|v| v == "1");
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
                Some((_, first)) if first.starts_with(NEEDS) => {
                    let missing = missing_tools(&first[NEEDS.len()..]);
                    if missing.is_empty() {
                        match run_bash_block(&b, &tmp) {
                            Ok(()) => ran += 1,
                            Err(e) => failures.push(e),
                        }
                    } else if need_all {
                        failures.push(format!(
                            "{}:{}: WAVESIM_DOCS_NEED_ALL=1 but {} missing",
                            b.file,
                            b.line,
                            missing.join(", ")
                        ));
                    } else {
                        skipped.push(format!(
                            "{}:{}: {} missing",
                            b.file,
                            b.line,
                            missing.join(", ")
                        ));
                    }
                }
                _ => failures.extend(run_block(&b, &tmp, &mut ran)),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    for s in &skipped {
        eprintln!("skipped {s}");
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
    assert!(move_libs("a $PWD/target/release/libx_y.so b")
        .ends_with(&format!("{} b", lib_path("libx_y.so").display())));
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
