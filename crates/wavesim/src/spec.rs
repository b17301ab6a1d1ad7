//! The argument spec language of `wavesim run --arg SPEC` (and of the corpus run files):
//!
//! ```text
//! u8:V u16:V u32:V u64:V i8:V i16:V i32:V i64:V f16:V f32:V f64:V   a scalar by value
//! f32x4:A,B,C,D  i32x2:A,B  (any scalar kind, x2 x3 x4 x8 x16)      a vector by value
//! bytes:HEX         raw bytes by value (a struct), e.g. bytes:0100000000004040
//! buf:PATH          a global buffer holding PATH's bytes
//! buf:PATH:OUT      the same, written to OUT after the dispatch
//! zeros:N           a global buffer of N zero bytes
//! zeros:N:OUT       the same, written to OUT after the dispatch
//! local:N           N bytes of dynamic LDS (an OpenCL __local pointer argument)
//! image:FMT:WxH:FILE       an OpenCL image2d_t of format FMT (r8, rg8, rgba8, srgba8, rgba8ui,
//!                          r32f, r32ui, r32i, rgba16f, rgba32f, rgba32ui) holding FILE's texels
//!                          (raw bytes, or a PNG for the 8-bit formats when FILE ends in .png);
//!                          FILE `zeros` is an image of zero bytes
//! image:FMT:WxH:FILE:OUT   the same, its texels written to OUT after the dispatch (a PNG when
//!                          OUT ends in .png, raw bytes otherwise)
//! sampler:COORDS:ADDRESS:FILTER   an OpenCL sampler_t: COORDS normalized or unnormalized,
//!                          ADDRESS none, clamp_to_edge, clamp, repeat or mirrored_repeat,
//!                          FILTER nearest or linear
//! ```
//!
//! Integers are decimal or `0x` hex (`i*` may be negative); floats are decimal, `inf`, `nan`, or
//! `0x` followed by the raw bit pattern.

use std::path::PathBuf;

/// What kind of number a by-value spec gave, for the check against the kernel's argument type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemKind {
    Unsigned,
    Signed,
    Float,
    /// `bytes:HEX`: no type, only a size.
    Bytes,
}

/// The type a by-value spec was written with: `u32` is (Unsigned, 4, 1), `f32x4` (Float, 4, 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValueType {
    pub kind: ElemKind,
    pub elem_bytes: u32,
    pub lanes: u32,
}

impl ValueType {
    /// Parses an OpenCL C type name as kernel metadata gives it (`.type_name`: `uint`, `float4`,
    /// `unsigned int`, `size_t`); `None` for pointers, structs and anything else.
    pub fn from_c_type(name: &str) -> Option<ValueType> {
        let name = name.trim();
        let (base, lanes) = match name.find(|c: char| c.is_ascii_digit()) {
            Some(i) => (&name[..i], name[i..].parse::<u32>().ok()?),
            None => (name, 1),
        };
        if ![1, 2, 3, 4, 8, 16].contains(&lanes) {
            return None;
        }
        use ElemKind::*;
        let (kind, elem_bytes) = match base {
            "char" | "signed char" => (Signed, 1),
            "uchar" | "unsigned char" | "bool" => (Unsigned, 1),
            "short" => (Signed, 2),
            "ushort" | "unsigned short" => (Unsigned, 2),
            "int" => (Signed, 4),
            "uint" | "unsigned int" | "unsigned" => (Unsigned, 4),
            "long" | "ptrdiff_t" | "intptr_t" => (Signed, 8),
            "ulong" | "unsigned long" | "size_t" | "uintptr_t" => (Unsigned, 8),
            "half" => (Float, 2),
            "float" => (Float, 4),
            "double" => (Float, 8),
            _ => return None,
        };
        Some(ValueType {
            kind,
            elem_bytes,
            lanes,
        })
    }

    /// How a spec names this type: `u32`, `f32x4`.
    pub fn spec_name(&self) -> String {
        let k = match self.kind {
            ElemKind::Unsigned => "u",
            ElemKind::Signed => "i",
            ElemKind::Float => "f",
            ElemKind::Bytes => return "bytes".into(),
        };
        let lanes = if self.lanes > 1 {
            format!("x{}", self.lanes)
        } else {
            String::new()
        };
        format!("{k}{}{lanes}", self.elem_bytes * 8)
    }
}

/// One parsed argument spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgSpec {
    /// A by-value argument: the type it was written with and its little-endian bytes.
    Value {
        ty: ValueType,
        bytes: Vec<u8>,
    },
    Buf {
        path: PathBuf,
        out: Option<PathBuf>,
    },
    Zeros {
        size: u64,
        out: Option<PathBuf>,
    },
    Local(u32),
    /// An OpenCL `image2d_t`: `format` is a name of `exec::image::host::HOST_FORMATS`; `path`
    /// `None` is an image of zero bytes.
    Image {
        format: String,
        width: u32,
        height: u32,
        path: Option<PathBuf>,
        out: Option<PathBuf>,
    },
    /// An OpenCL `sampler_t` (`exec::image::host::opencl_sampler`).
    Sampler {
        normalized: bool,
        addressing: String,
        linear: bool,
    },
}

impl ArgSpec {
    /// The output file, if the spec names one.
    pub fn output(&self) -> Option<&PathBuf> {
        match self {
            ArgSpec::Buf { out, .. } | ArgSpec::Zeros { out, .. } | ArgSpec::Image { out, .. } => {
                out.as_ref()
            }
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
            ArgSpec::Image {
                format,
                width,
                height,
                path,
                out,
            } => ArgSpec::Image {
                format: format.clone(),
                width: *width,
                height: *height,
                path: path.as_ref().map(j),
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

/// Parses one scalar of kind `kind` (`u32`, `f16`, ...) into its little-endian bytes.
fn parse_scalar(kind: &str, v: &str) -> Result<(ValueType, Vec<u8>), String> {
    let int = |lo: i128, hi: i128, size: u32, signed: bool| {
        let x = parse_int(v).ok_or("not an integer")?;
        if x < lo || x > hi {
            return Err(format!("{} is out of range for {kind}", v.trim()));
        }
        let kind = if signed {
            ElemKind::Signed
        } else {
            ElemKind::Unsigned
        };
        Ok((
            ValueType {
                kind,
                elem_bytes: size,
                lanes: 1,
            },
            (x as i64 as u64).to_le_bytes()[..size as usize].to_vec(),
        ))
    };
    let float = |size: u32| {
        let r = v.trim();
        let bits = if let Some(h) = r.strip_prefix("0x") {
            let b = u64::from_str_radix(h, 16).map_err(|_| "not a number")?;
            if size < 8 && b >> (size * 8) != 0 {
                return Err(format!("{r} has more bits than {kind}"));
            }
            b
        } else {
            let f: f64 = r.parse().map_err(|_| "not a number")?;
            match size {
                2 => half::f16::from_f64(f).to_bits() as u64,
                4 => (f as f32).to_bits() as u64,
                _ => f.to_bits(),
            }
        };
        Ok((
            ValueType {
                kind: ElemKind::Float,
                elem_bytes: size,
                lanes: 1,
            },
            bits.to_le_bytes()[..size as usize].to_vec(),
        ))
    };
    match kind {
        "u8" => int(0, u8::MAX as i128, 1, false),
        "u16" => int(0, u16::MAX as i128, 2, false),
        "u32" => int(0, u32::MAX as i128, 4, false),
        "u64" => int(0, u64::MAX as i128, 8, false),
        "i8" => int(i8::MIN as i128, i8::MAX as i128, 1, true),
        "i16" => int(i16::MIN as i128, i16::MAX as i128, 2, true),
        "i32" => int(i32::MIN as i128, i32::MAX as i128, 4, true),
        "i64" => int(i64::MIN as i128, i64::MAX as i128, 8, true),
        "f16" => float(2),
        "f32" => float(4),
        "f64" => float(8),
        _ => Err("unknown kind".into()),
    }
}

/// Parses one spec; the error says what is wrong and what is expected.
pub fn parse_spec(s: &str) -> Result<ArgSpec, String> {
    let (kind, rest) = s.split_once(':').ok_or_else(|| {
        format!("argument `{s}`: expected KIND:VALUE (e.g. u32:5, f32x4:1,2,3,4, buf:in.bin, zeros:64, local:256)")
    })?;
    let bad = |what: &str| format!("argument `{s}`: {what}");
    let path_out = |rest: &str| -> (PathBuf, Option<PathBuf>) {
        match rest.split_once(':') {
            Some((p, o)) => (PathBuf::from(p), Some(PathBuf::from(o))),
            None => (PathBuf::from(rest), None),
        }
    };
    // A vector: the element kind, `x`, the lane count; one comma-separated value per lane.
    if let Some((elem, lanes)) = kind.split_once('x') {
        let lanes: u32 = lanes
            .parse()
            .ok()
            .filter(|n| [2, 3, 4, 8, 16].contains(n))
            .ok_or_else(|| bad("vectors have 2, 3, 4, 8 or 16 lanes (e.g. f32x4)"))?;
        let values: Vec<&str> = rest.split(',').collect();
        if values.len() != lanes as usize {
            return Err(bad(&format!(
                "{kind} takes {lanes} comma-separated values, got {}",
                values.len()
            )));
        }
        let mut bytes = Vec::new();
        let mut ty = None;
        for v in values {
            let (t, b) = parse_scalar(elem, v).map_err(|e| bad(&e))?;
            ty = Some(t);
            bytes.extend(b);
        }
        let ty = ty.map(|t| ValueType { lanes, ..t });
        return Ok(ArgSpec::Value {
            ty: ty.ok_or_else(|| bad("no values"))?,
            bytes,
        });
    }
    match kind {
        "u8" | "u16" | "u32" | "u64" | "i8" | "i16" | "i32" | "i64" | "f16" | "f32" | "f64" => {
            let (ty, bytes) = parse_scalar(kind, rest).map_err(|e| bad(&e))?;
            Ok(ArgSpec::Value { ty, bytes })
        }
        "bytes" => {
            let hex: String = rest.chars().filter(|c| *c != '_').collect();
            if hex.is_empty() || !hex.len().is_multiple_of(2) {
                return Err(bad("expected bytes:HEX with an even number of hex digits"));
            }
            let bytes = (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16))
                .collect::<Result<Vec<u8>, _>>()
                .map_err(|_| bad("expected bytes:HEX (hex digits, in memory order)"))?;
            Ok(ArgSpec::Value {
                ty: ValueType {
                    kind: ElemKind::Bytes,
                    elem_bytes: 1,
                    lanes: bytes.len() as u32,
                },
                bytes,
            })
        }
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
            wavesim_core::limits::check_bytes(
                "zeros:N",
                size,
                wavesim_core::limits::MAX_BUFFER_BYTES,
            )
            .map_err(|e| bad(&e.to_string()))?;
            Ok(ArgSpec::Zeros { size, out })
        }
        "local" => {
            let n = parse_uint(rest)
                .and_then(|v| u32::try_from(v).ok())
                .ok_or_else(|| bad("expected local:N with N a byte count"))?;
            Ok(ArgSpec::Local(n))
        }
        "image" => parse_image(rest).map_err(|e| bad(&e)),
        "sampler" => parse_sampler(rest).map_err(|e| bad(&e)),
        _ => Err(bad(
            "unknown kind; use u8/u16/u32/u64/i8/i16/i32/i64/f16/f32/f64:V, a vector such as \
             f32x4:A,B,C,D, bytes:HEX, buf:PATH[:OUT], zeros:N[:OUT], local:N, \
             image:FMT:WxH:FILE[:OUT] or sampler:COORDS:ADDRESS:FILTER",
        )),
    }
}

/// `FMT:WxH:FILE[:OUT]` of an `image:` spec.
fn parse_image(rest: &str) -> Result<ArgSpec, String> {
    const FORM: &str =
        "expected image:FMT:WxH:FILE or image:FMT:WxH:FILE:OUT (FILE `zeros` for a blank image)";
    let parts: Vec<&str> = rest.splitn(4, ':').collect();
    let [format, dims, file, rest @ ..] = parts.as_slice() else {
        return Err(FORM.into());
    };
    let (w, h) = dims
        .split_once('x')
        .and_then(|(w, h)| Some((parse_uint(w)?, parse_uint(h)?)))
        .filter(|&(w, h)| (1..=16384).contains(&w) && (1..=16384).contains(&h))
        .ok_or("WxH is the image's width and height, each 1 to 16384 (e.g. 64x32)")?;
    let f = wavesim_rdna3::exec::image::host::host_format(format)?;
    let bytes = wavesim_rdna3::exec::image::host::host_image_bytes(&f, w as u32, h as u32);
    wavesim_core::limits::check_bytes(
        &format!("a {w}x{h} {format} image"),
        bytes,
        wavesim_core::limits::MAX_IMAGE_BYTES,
    )
    .map_err(|e| e.to_string())?;
    let out = match rest.first() {
        Some(&"") => return Err(FORM.into()),
        Some(o) => Some(PathBuf::from(o)),
        None => None,
    };
    if file.is_empty() {
        return Err(FORM.into());
    }
    Ok(ArgSpec::Image {
        format: format.to_string(),
        width: w as u32,
        height: h as u32,
        path: (*file != "zeros").then(|| PathBuf::from(file)),
        out,
    })
}

/// `COORDS:ADDRESS:FILTER` of a `sampler:` spec.
fn parse_sampler(rest: &str) -> Result<ArgSpec, String> {
    let form =
        "expected sampler:COORDS:ADDRESS:FILTER, e.g. sampler:normalized:clamp_to_edge:linear";
    let parts: Vec<&str> = rest.split(':').collect();
    let [coords, addressing, filter] = parts.as_slice() else {
        return Err(form.into());
    };
    let normalized = match *coords {
        "normalized" => true,
        "unnormalized" => false,
        _ => return Err(format!("COORDS is normalized or unnormalized; {form}")),
    };
    let linear = match *filter {
        "linear" => true,
        "nearest" => false,
        _ => return Err(format!("FILTER is nearest or linear; {form}")),
    };
    // The addressing mode's name is checked where the S# is built.
    wavesim_rdna3::exec::image::host::opencl_sampler(normalized, addressing, linear)?;
    Ok(ArgSpec::Sampler {
        normalized,
        addressing: addressing.to_string(),
        linear,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_of(s: &str) -> Vec<u8> {
        match parse_spec(s).unwrap() {
            ArgSpec::Value { bytes, .. } => bytes,
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn scalars() {
        assert_eq!(bytes_of("u32:5"), vec![5, 0, 0, 0]);
        assert_eq!(bytes_of("i16:-2"), vec![0xfe, 0xff]);
        assert_eq!(bytes_of("u8:0xff"), vec![0xff]);
        assert!(parse_spec("u8:256").is_err());
        assert!(parse_spec("i8:-129").is_err());
        assert!(parse_spec("u32:-1").is_err());
        // 1.5f = 0x3fc00000; half 1.5 = 0x3e00; -0.0 keeps its sign.
        assert_eq!(bytes_of("f32:1.5"), vec![0, 0, 0xc0, 0x3f]);
        assert_eq!(bytes_of("f16:1.5"), vec![0x00, 0x3e]);
        assert_eq!(bytes_of("f32:-0.0"), vec![0, 0, 0, 0x80]);
        assert_eq!(bytes_of("f32:0x7fc00001"), vec![1, 0, 0xc0, 0x7f]);
        assert_eq!(bytes_of("f64:inf"), f64::INFINITY.to_le_bytes().to_vec());
        assert!(parse_spec("f32:abc").is_err());
        assert!(parse_spec("f32:0x100000000").is_err());
    }

    #[test]
    fn vectors_and_bytes() {
        // f32x4:1,2,3,4 is four little-endian IEEE singles: 1.0f = 0x3f800000, 2.0f = 0x40000000,
        // 3.0f = 0x40400000, 4.0f = 0x40800000.
        assert_eq!(
            bytes_of("f32x4:1,2,3,4"),
            [0x3f80_0000u32, 0x4000_0000, 0x4040_0000, 0x4080_0000]
                .iter()
                .flat_map(|w| w.to_le_bytes())
                .collect::<Vec<u8>>()
        );
        assert_eq!(
            bytes_of("i32x2:-1,7"),
            vec![0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0]
        );
        assert_eq!(
            parse_spec("i32x2:-1,7").unwrap(),
            ArgSpec::Value {
                ty: ValueType {
                    kind: ElemKind::Signed,
                    elem_bytes: 4,
                    lanes: 2
                },
                bytes: vec![0xff, 0xff, 0xff, 0xff, 7, 0, 0, 0]
            }
        );
        assert!(parse_spec("f32x4:1,2,3").is_err());
        assert!(parse_spec("f32x5:1,2,3,4,5").is_err());
        assert!(parse_spec("u8x2:1,300").is_err());
        assert_eq!(bytes_of("bytes:01ff_0a"), vec![0x01, 0xff, 0x0a]);
        assert!(parse_spec("bytes:123").is_err());
        assert!(parse_spec("bytes:zz").is_err());
    }

    #[test]
    fn c_type_names() {
        let t = |s| ValueType::from_c_type(s);
        assert_eq!(t("uint").unwrap().spec_name(), "u32");
        assert_eq!(t("float4").unwrap().spec_name(), "f32x4");
        assert_eq!(t("int2").unwrap().spec_name(), "i32x2");
        assert_eq!(t("unsigned int").unwrap().spec_name(), "u32");
        assert_eq!(t("half").unwrap().spec_name(), "f16");
        assert!(t("float*").is_none());
        assert!(t("struct pair").is_none());
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

    #[test]
    fn images() {
        assert_eq!(
            parse_spec("image:rgba8:8x4:in.png:out.png").unwrap(),
            ArgSpec::Image {
                format: "rgba8".into(),
                width: 8,
                height: 4,
                path: Some("in.png".into()),
                out: Some("out.png".into())
            }
        );
        assert_eq!(
            parse_spec("image:r32f:13x7:zeros").unwrap(),
            ArgSpec::Image {
                format: "r32f".into(),
                width: 13,
                height: 7,
                path: None,
                out: None
            }
        );
        assert!(parse_spec("image:bgra8:8x4:a.bin").is_err());
        assert!(parse_spec("image:rgba8:8:a.bin").is_err());
        assert!(parse_spec("image:rgba8:0x4:a.bin").is_err());
        assert!(parse_spec("image:rgba8:8x4").is_err());
        assert!(parse_spec("image:rgba8:8x4:a.bin:").is_err());
    }

    #[test]
    fn samplers() {
        assert_eq!(
            parse_spec("sampler:normalized:clamp_to_edge:linear").unwrap(),
            ArgSpec::Sampler {
                normalized: true,
                addressing: "clamp_to_edge".into(),
                linear: true
            }
        );
        assert!(parse_spec("sampler:unnormalized:repeat:nearest").is_ok());
        assert!(parse_spec("sampler:normalised:repeat:nearest").is_err());
        assert!(parse_spec("sampler:normalized:wrap:nearest").is_err());
        assert!(parse_spec("sampler:normalized:repeat:cubic").is_err());
        assert!(parse_spec("sampler:normalized:repeat").is_err());
    }
}
