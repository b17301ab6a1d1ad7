//! OpenCL `printf` the way the ROCm runtime provides it: a device buffer given to the kernel in
//! `hidden_printf_buffer`, records appended to it by the kernel, and format strings in the code
//! object's `amdhsa.printf` metadata (AMDGPUUsage, "Code Object V3+ Metadata": `amdhsa.printf`
//! entries `ID:N:SIZE_1:...:SIZE_N:FORMAT`; LLVM's AMDGPU printf runtime binding pass writes
//! them).
//!
//! Buffer layout, as the device library's `__printf_alloc` (ockl) reads it: dword 0 is the
//! number of record bytes used so far (the kernel advances it with a compare-and-swap), dword 1
//! is the size of the whole buffer, and records start at byte 8. A record is the format's ID
//! (one dword) followed by each argument in its metadata size (scalars 4 or 8 bytes, constant
//! strings inline with their terminating NUL, padded to 4, vectors their full size). The host
//! prints the records in buffer order, each conversion as C's `printf` prints it, vectors as
//! their elements joined by `,` (OpenCL C 2.0, 6.13.13.2 "Vector specifier").

use super::HsaError;
use std::collections::HashMap;

/// Bytes of the printf buffer a dispatch gets (the records; the 8-byte header comes on top).
pub const PRINTF_BUFFER_BYTES: u64 = 1 << 20;
/// The header before the first record: bytes used, buffer size.
pub const PRINTF_HEADER_BYTES: u64 = 8;

/// One `amdhsa.printf` entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrintfFormat {
    pub id: u32,
    /// Bytes of each argument in a record.
    pub arg_sizes: Vec<u32>,
    /// The format string, escapes resolved.
    pub format: String,
}

/// Resolves the C escapes LLVM writes into the metadata's format strings (`\n`, `\t`, `\72`
/// for the `:` that separates fields, ...).
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 == b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        i += 2;
        out.push(match c {
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'v' => 11,
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                v as u8
            }
            other => other,
        });
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Parses the `amdhsa.printf` entries.
pub fn parse_formats(entries: &[String]) -> Result<HashMap<u32, PrintfFormat>, HsaError> {
    let mut map = HashMap::new();
    for e in entries {
        let bad = || HsaError::Args(format!("malformed amdhsa.printf entry `{e}`"));
        let mut parts = e.splitn(3, ':');
        let id: u32 = parts.next().and_then(|v| v.parse().ok()).ok_or_else(bad)?;
        let n: usize = parts.next().and_then(|v| v.parse().ok()).ok_or_else(bad)?;
        let mut rest = parts.next().ok_or_else(bad)?;
        let mut arg_sizes = Vec::with_capacity(n);
        for _ in 0..n {
            let (size, r) = rest.split_once(':').ok_or_else(bad)?;
            arg_sizes.push(size.parse().map_err(|_| bad())?);
            rest = r;
        }
        map.insert(
            id,
            PrintfFormat {
                id,
                arg_sizes,
                format: unescape(rest),
            },
        );
    }
    Ok(map)
}

/// One conversion specification: `%[flags][width][.precision][vN][length]conv`.
struct Spec {
    flags: String,
    width: String,
    precision: String,
    vector: u32,
    length: String,
    conv: u8,
}

/// Parses the conversion at `f[i..]` (just after the `%`); returns it and the index after it.
fn parse_spec(f: &[u8], mut i: usize) -> Option<(Spec, usize)> {
    let take = |i: &mut usize, ok: &dyn Fn(u8) -> bool| {
        let s = *i;
        while *i < f.len() && ok(f[*i]) {
            *i += 1;
        }
        String::from_utf8_lossy(&f[s..*i]).into_owned()
    };
    let flags = take(&mut i, &|c| b"-+ #0".contains(&c));
    let width = take(&mut i, &|c| c.is_ascii_digit());
    let mut precision = String::new();
    if f.get(i) == Some(&b'.') {
        i += 1;
        precision = format!(".{}", take(&mut i, &|c| c.is_ascii_digit()));
    }
    let mut vector = 0;
    if f.get(i) == Some(&b'v') {
        i += 1;
        vector = take(&mut i, &|c| c.is_ascii_digit()).parse().ok()?;
    }
    let length = take(&mut i, &|c| b"hlLjztq".contains(&c));
    let conv = *f.get(i)?;
    Some((
        Spec {
            flags,
            width,
            precision,
            vector,
            length,
            conv,
        },
        i + 1,
    ))
}

extern "C" {
    // The host C library's formatter: ROCm's runtime prints every conversion with it, so using
    // it gives the same digits, rounding and padding.
    fn snprintf(buf: *mut std::ffi::c_char, n: usize, fmt: *const std::ffi::c_char, ...) -> i32;
}

/// Formats one value with the C conversion `spec` (already rewritten for the value's C type).
fn c_format(spec: &str, value: CValue) -> String {
    String::from_utf8_lossy(&c_format_stars(spec, &[], &value)).into_owned()
}

/// Formats `value` with the C conversion `spec`, whose `*` width and precision (at most two)
/// take `stars` in order; the bytes C's `snprintf` writes (empty when it fails).
pub(super) fn c_format_stars(spec: &str, stars: &[i32], value: &CValue) -> Vec<u8> {
    let Ok(fmt) = std::ffi::CString::new(spec) else {
        return Vec::new();
    };
    let mut buf = vec![0u8; 512];
    loop {
        let p = buf.as_mut_ptr() as *mut std::ffi::c_char;
        let f = fmt.as_ptr();
        let n = buf.len();
        // SAFETY: `fmt` is a NUL-terminated conversion whose `*`s take the leading `int`s and
        // whose length modifier matches the one value passed (l/ll for 64-bit integers, none
        // for doubles and ints, s for a NUL-terminated string, p for a pointer); snprintf
        // writes at most `buf.len()` bytes.
        let r = unsafe {
            macro_rules! call {
                ($($a:expr),*) => {
                    match stars {
                        [] => snprintf(p, n, f, $($a),*),
                        [w] => snprintf(p, n, f, *w, $($a),*),
                        [w, pr, ..] => snprintf(p, n, f, *w, *pr, $($a),*),
                    }
                };
            }
            match value {
                CValue::I64(v) => call!(*v),
                CValue::U64(v) => call!(*v),
                CValue::F64(v) => call!(*v),
                CValue::Int(v) => call!(*v),
                CValue::Str(s) => call!(s.as_ptr()),
                CValue::Ptr(v) => call!(*v as *const u8),
            }
        };
        if r < 0 {
            return Vec::new();
        }
        if (r as usize) < buf.len() {
            buf.truncate(r as usize);
            return buf;
        }
        buf.resize(r as usize + 1, 0);
    }
}

pub(super) enum CValue {
    I64(i64),
    U64(u64),
    F64(f64),
    Int(i32),
    Str(std::ffi::CString),
    Ptr(u64),
}

/// One element (of `size` bytes) of an argument, formatted by `s`.
fn format_element(s: &Spec, bytes: &[u8]) -> String {
    let mut raw = [0u8; 8];
    let n = bytes.len().min(8);
    raw[..n].copy_from_slice(&bytes[..n]);
    let u = u64::from_le_bytes(raw);
    let head = format!("%{}{}{}", s.flags, s.width, s.precision);
    // The element width the OpenCL length modifier names (vectors) or the stored size.
    let bits = match (s.vector, s.length.as_str()) {
        (_, "hh") => 8,
        (_, "h") if !b"fFeEgGaA".contains(&s.conv) => 16,
        (_, "h") => 16,
        (_, "hl") => 32,
        (_, "l" | "ll") => 64,
        _ => 8 * n as u32,
    };
    let trunc = |v: u64| {
        if bits >= 64 {
            v
        } else {
            v & ((1u64 << bits) - 1)
        }
    };
    let sext = |v: u64| {
        let v = trunc(v);
        if bits >= 64 {
            v as i64
        } else {
            ((v << (64 - bits)) as i64) >> (64 - bits)
        }
    };
    match s.conv {
        b'd' | b'i' => c_format(&format!("{head}ll{}", s.conv as char), CValue::I64(sext(u))),
        b'u' | b'o' | b'x' | b'X' => c_format(
            &format!("{head}ll{}", s.conv as char),
            CValue::U64(trunc(u)),
        ),
        b'c' => c_format(&format!("{head}c"), CValue::Int(u as i32)),
        b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
            let v = match bits {
                16 => half::f16::from_bits(u as u16).to_f64(),
                32 => f32::from_bits(u as u32) as f64,
                _ => f64::from_bits(u),
            };
            c_format(&format!("{head}{}", s.conv as char), CValue::F64(v))
        }
        b'p' => c_format(&format!("{head}p"), CValue::Ptr(u)),
        _ => String::new(),
    }
}

/// Decodes the records of a printf buffer (header included) into the text the program prints.
pub fn decode(buffer: &[u8], formats: &HashMap<u32, PrintfFormat>) -> Result<String, HsaError> {
    let bad = |why: String| HsaError::Args(format!("printf buffer: {why}"));
    let used = buffer
        .get(0..4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap_or_default()) as usize)
        .ok_or_else(|| bad("no header".into()))?;
    let header = PRINTF_HEADER_BYTES as usize;
    let records = buffer
        .get(header..header + used)
        .ok_or_else(|| bad(format!("{used} bytes used overrun the buffer")))?;
    let mut out = String::new();
    let mut at = 0;
    while at + 4 <= records.len() {
        let id = u32::from_le_bytes(records[at..at + 4].try_into().unwrap_or_default());
        at += 4;
        let f = formats
            .get(&id)
            .ok_or_else(|| bad(format!("record with unknown format id {id} at byte {at}")))?;
        let mut args = Vec::with_capacity(f.arg_sizes.len());
        for &size in &f.arg_sizes {
            let a = records.get(at..at + size as usize).ok_or_else(|| {
                bad(format!(
                    "record of format {id} ends early (needs {size} more bytes)"
                ))
            })?;
            args.push(a);
            at += size as usize;
        }
        out += &render(&f.format, &args);
    }
    Ok(out)
}

/// Prints `format` with the record's arguments, conversion by conversion.
fn render(format: &str, args: &[&[u8]]) -> String {
    let f = format.as_bytes();
    let mut out = Vec::new();
    let mut next = args.iter();
    let mut i = 0;
    while i < f.len() {
        if f[i] != b'%' {
            out.push(f[i]);
            i += 1;
            continue;
        }
        if f.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let Some((spec, end)) = parse_spec(f, i + 1) else {
            out.extend_from_slice(&f[i..]);
            break;
        };
        let Some(arg) = next.next() else {
            // More conversions than arguments: print the rest as it is.
            out.extend_from_slice(&f[i..]);
            break;
        };
        let text = if spec.conv == b's' {
            let end = arg.iter().position(|&c| c == 0).unwrap_or(arg.len());
            let s = std::ffi::CString::new(&arg[..end]).unwrap_or_default();
            c_format(
                &format!("%{}{}{}s", spec.flags, spec.width, spec.precision),
                CValue::Str(s),
            )
        } else if spec.vector > 0 {
            let lanes = spec.vector as usize;
            let elem = (arg.len() / lanes.next_power_of_two().max(1)).max(1);
            (0..lanes)
                .map(|l| format_element(&spec, arg.get(l * elem..(l + 1) * elem).unwrap_or(&[])))
                .collect::<Vec<_>>()
                .join(",")
        } else {
            format_element(&spec, arg)
        };
        out.extend_from_slice(text.as_bytes());
        i = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metadata_entries_and_escapes() {
        let m = parse_formats(&["4:2:4:8:x\\72 %d %ld\\n".to_string()]).unwrap();
        let f = &m[&4];
        assert_eq!(f.arg_sizes, vec![4, 8]);
        assert_eq!(f.format, "x: %d %ld\n");
        assert!(parse_formats(&["1:2:4:fmt".to_string()]).is_err());
    }

    #[test]
    fn records_in_buffer_order() {
        let m = parse_formats(&[
            "1:2:4:4:%d|%5.2f\\n".to_string(),
            "2:2:16:4:%v4hld %s\\n".to_string(),
        ])
        .unwrap();
        let mut buf = vec![0u8; 8];
        let mut rec = Vec::new();
        rec.extend(1u32.to_le_bytes());
        rec.extend((-7i32).to_le_bytes());
        rec.extend(2.5f32.to_le_bytes());
        rec.extend(2u32.to_le_bytes());
        for v in [1i32, -2, 3, -4] {
            rec.extend(v.to_le_bytes());
        }
        rec.extend(b"ok\0\0");
        buf[0..4].copy_from_slice(&(rec.len() as u32).to_le_bytes());
        buf.extend(rec);
        // C printf: "%d" of -7 is "-7", "%5.2f" of 2.5 is " 2.50"; OpenCL vectors join with ','.
        assert_eq!(decode(&buf, &m).unwrap(), "-7| 2.50\n1,-2,3,-4 ok\n");
    }
}
