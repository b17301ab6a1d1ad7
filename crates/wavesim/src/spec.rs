//! The argument spec language of `wavesim run --arg SPEC` (and of the corpus run files):
//!
//! ```text
//! u8:V u16:V u32:V u64:V i8:V i16:V i32:V i64:V f16:V f32:V f64:V   a scalar by value
//! buf:PATH          a global buffer holding PATH's bytes
//! buf:PATH:OUT      the same, written to OUT after the dispatch
//! zeros:N           a global buffer of N zero bytes
//! zeros:N:OUT       the same, written to OUT after the dispatch
//! local:N           N bytes of dynamic LDS (an OpenCL __local pointer argument)
//! ```
//!
//! Integers are decimal or `0x` hex (`i*` may be negative); floats are decimal, `inf`, `nan`, or
//! `0x` followed by the raw bit pattern.

use std::path::PathBuf;

/// One parsed argument spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSpec {
    /// A scalar's little-endian bytes.
    Value(Vec<u8>),
    Buf {
        path: PathBuf,
        out: Option<PathBuf>,
    },
    Zeros {
        size: u64,
        out: Option<PathBuf>,
    },
    Local(u32),
}

impl ArgSpec {
    /// The output file, if the spec names one.
    pub fn output(&self) -> Option<&PathBuf> {
        match self {
            ArgSpec::Buf { out, .. } | ArgSpec::Zeros { out, .. } => out.as_ref(),
            _ => None,
        }
    }

    /// Resolves relative paths against `dir` (for run files that name files next to them).
    pub fn relative_to(&self, dir: &std::path::Path) -> ArgSpec {
        let j = |p: &PathBuf| {
            if p.is_absolute() {
                p.clone()
            } else {
                dir.join(p)
            }
        };
        match self {
            ArgSpec::Buf { path, out } => ArgSpec::Buf {
                path: j(path),
                out: out.as_ref().map(j),
            },
            ArgSpec::Zeros { size, out } => ArgSpec::Zeros {
                size: *size,
                out: out.as_ref().map(j),
            },
            s => s.clone(),
        }
    }
}

fn parse_uint(v: &str) -> Option<u64> {
    let v = v.trim();
    if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        v.parse().ok()
    }
}

fn parse_int(v: &str) -> Option<i128> {
    let v = v.trim();
    match v.strip_prefix('-') {
        Some(rest) => parse_uint(rest).map(|u| -(u as i128)),
        None => parse_uint(v).map(|u| u as i128),
    }
}

/// Parses one spec; the error says what is wrong and what is expected.
pub fn parse_spec(s: &str) -> Result<ArgSpec, String> {
    let (kind, rest) = s.split_once(':').ok_or_else(|| {
        format!("argument `{s}`: expected KIND:VALUE (e.g. u32:5, buf:in.bin, zeros:64, local:256)")
    })?;
    let bad = |what: &str| format!("argument `{s}`: {what}");
    let int = |lo: i128, hi: i128, size: usize| -> Result<ArgSpec, String> {
        let v = parse_int(rest).ok_or_else(|| bad("not an integer"))?;
        if v < lo || v > hi {
            return Err(bad(&format!("out of range for {kind}")));
        }
        Ok(ArgSpec::Value(
            (v as i64 as u64).to_le_bytes()[..size].to_vec(),
        ))
    };
    let float_bits = |size: usize| -> Option<u64> {
        let r = rest.trim();
        if let Some(h) = r.strip_prefix("0x") {
            let b = u64::from_str_radix(h, 16).ok()?;
            return (size == 8 || b >> (size * 8) == 0).then_some(b);
        }
        let f: f64 = r.parse().ok()?;
        Some(match size {
            2 => half::f16::from_f64(f).to_bits() as u64,
            4 => (f as f32).to_bits() as u64,
            _ => f.to_bits(),
        })
    };
    let float = |size: usize| -> Result<ArgSpec, String> {
        let b = float_bits(size).ok_or_else(|| bad("not a number"))?;
        Ok(ArgSpec::Value(b.to_le_bytes()[..size].to_vec()))
    };
    let path_out = |rest: &str| -> (PathBuf, Option<PathBuf>) {
        match rest.split_once(':') {
            Some((p, o)) => (PathBuf::from(p), Some(PathBuf::from(o))),
            None => (PathBuf::from(rest), None),
        }
    };
    match kind {
        "u8" => int(0, u8::MAX as i128, 1),
        "u16" => int(0, u16::MAX as i128, 2),
        "u32" => int(0, u32::MAX as i128, 4),
        "u64" => int(0, u64::MAX as i128, 8),
        "i8" => int(i8::MIN as i128, i8::MAX as i128, 1),
        "i16" => int(i16::MIN as i128, i16::MAX as i128, 2),
        "i32" => int(i32::MIN as i128, i32::MAX as i128, 4),
        "i64" => int(i64::MIN as i128, i64::MAX as i128, 8),
        "f16" => float(2),
        "f32" => float(4),
        "f64" => float(8),
        "buf" => {
            let (path, out) = path_out(rest);
            if path.as_os_str().is_empty() || out.as_ref().is_some_and(|o| o.as_os_str().is_empty())
            {
                return Err(bad("expected buf:PATH or buf:PATH:OUT"));
            }
            Ok(ArgSpec::Buf { path, out })
        }
        "zeros" => {
            let (n, out) = match rest.split_once(':') {
                Some((n, o)) if !o.is_empty() => (n, Some(PathBuf::from(o))),
                Some(_) => return Err(bad("expected zeros:N or zeros:N:OUT")),
                None => (rest, None),
            };
            let size = parse_uint(n).ok_or_else(|| bad("expected zeros:N with N a byte count"))?;
            Ok(ArgSpec::Zeros { size, out })
        }
        "local" => {
            let n = parse_uint(rest)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| bad("expected local:N with N a byte count"))?;
            Ok(ArgSpec::Local(n))
        }
        _ => Err(bad(
            "unknown kind; use u8/u16/u32/u64/i8/i16/i32/i64/f16/f32/f64:V, buf:PATH[:OUT], \
             zeros:N[:OUT] or local:N",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars() {
        assert_eq!(
            parse_spec("u32:5").unwrap(),
            ArgSpec::Value(vec![5, 0, 0, 0])
        );
        assert_eq!(
            parse_spec("i16:-2").unwrap(),
            ArgSpec::Value(vec![0xfe, 0xff])
        );
        assert_eq!(parse_spec("u8:0xff").unwrap(), ArgSpec::Value(vec![0xff]));
        assert!(parse_spec("u8:256").is_err());
        assert!(parse_spec("i8:-129").is_err());
        assert!(parse_spec("u32:-1").is_err());
        // 1.5f = 0x3fc00000; half 1.5 = 0x3e00; -0.0 keeps its sign.
        assert_eq!(
            parse_spec("f32:1.5").unwrap(),
            ArgSpec::Value(vec![0, 0, 0xc0, 0x3f])
        );
        assert_eq!(
            parse_spec("f16:1.5").unwrap(),
            ArgSpec::Value(vec![0x00, 0x3e])
        );
        assert_eq!(
            parse_spec("f32:-0.0").unwrap(),
            ArgSpec::Value(vec![0, 0, 0, 0x80])
        );
        assert_eq!(
            parse_spec("f32:0x7fc00001").unwrap(),
            ArgSpec::Value(vec![1, 0, 0xc0, 0x7f])
        );
        assert_eq!(
            parse_spec("f64:inf").unwrap(),
            ArgSpec::Value(f64::INFINITY.to_le_bytes().to_vec())
        );
        assert!(parse_spec("f32:abc").is_err());
    }

    #[test]
    fn buffers() {
        assert_eq!(
            parse_spec("buf:a.bin:b.bin").unwrap(),
            ArgSpec::Buf {
                path: "a.bin".into(),
                out: Some("b.bin".into())
            }
        );
        assert_eq!(
            parse_spec("zeros:64").unwrap(),
            ArgSpec::Zeros {
                size: 64,
                out: None
            }
        );
        assert_eq!(parse_spec("local:256").unwrap(), ArgSpec::Local(256));
        assert!(parse_spec("zeros:x").is_err());
        assert!(parse_spec("buf:").is_err());
        assert!(parse_spec("what:1").is_err());
        assert!(parse_spec("5").is_err());
    }
}
