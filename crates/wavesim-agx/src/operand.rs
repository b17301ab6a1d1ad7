//! Operand kinds and their decoding. Each kind is one way AGX packs an operand into bit fields
//! (register number plus size/hint/uniform flags, immediates, enums, register tuples); the bit positions
//! come from the table, the interpretation from applegpu's descriptor classes of the same name
//! (`ALUSrcDesc`, `CmpselSrcDesc`, `MemoryIndexDesc`, ...), which the disassembly goldens check.

use crate::error::DecodeError;
use crate::fields::Fields;
use std::fmt;

/// Register file a register operand names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RegFile {
    /// 16-bit half of a general-purpose register: `r{n/2}l` / `r{n/2}h`.
    R16,
    /// 32-bit general-purpose register `r{n}`.
    R32,
    /// 64-bit pair `r{n}_r{n+1}`.
    R64,
    /// 16-bit uniform half `u{n/2}l` / `u{n/2}h`.
    U16,
    U32,
    U64,
}

impl RegFile {
    pub fn bits(self) -> u32 {
        match self {
            RegFile::R16 | RegFile::U16 => 16,
            RegFile::R32 | RegFile::U32 => 32,
            RegFile::R64 | RegFile::U64 => 64,
        }
    }
    pub fn is_uniform(self) -> bool {
        matches!(self, RegFile::U16 | RegFile::U32 | RegFile::U64)
    }
    /// Number of nameable registers (applegpu's name tables: 128 GPRs, 256 uniforms, in 16-bit halves
    /// for the 16-bit files).
    fn limit(self) -> u16 {
        match self {
            RegFile::R16 => 256,
            RegFile::R32 | RegFile::R64 => 128,
            RegFile::U16 => 512,
            RegFile::U32 | RegFile::U64 => 256,
        }
    }
}

/// A set of [`Flag`]s. Each operand kind adds its flags in the canonical order (hint, sign extension,
/// abs, neg), so printing the set in that order reproduces applegpu's suffix order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags(u8);

impl Flags {
    pub fn one(f: Flag) -> Flags {
        Flags(1 << f as u8)
    }
    pub fn push(&mut self, f: Flag) {
        self.0 |= 1 << f as u8;
    }
    pub fn extend(&mut self, other: Flags) {
        self.0 |= other.0;
    }
    #[inline]
    pub fn contains(&self, f: &Flag) -> bool {
        self.0 >> (*f as u8) & 1 == 1
    }
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }
    /// The flags in printing order.
    pub fn iter(&self) -> impl Iterator<Item = Flag> + '_ {
        [Flag::Cache, Flag::Discard, Flag::Sx, Flag::Abs, Flag::Neg]
            .into_iter()
            .filter(|f| self.contains(f))
    }
}

/// Operand suffix flags, printed in this order after the register (`r1.cache`, `r2l.discard.sx`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    Cache,
    Discard,
    Sx,
    Abs,
    Neg,
}

impl Flag {
    fn text(self) -> &'static str {
        match self {
            Flag::Cache => "cache",
            Flag::Discard => "discard",
            Flag::Sx => "sx",
            Flag::Abs => "abs",
            Flag::Neg => "neg",
        }
    }
}

/// A register reference (number in the units of its file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reg {
    pub file: RegFile,
    pub n: u16,
}

impl Reg {
    fn checked(file: RegFile, n: u64) -> Result<Reg, DecodeError> {
        if n >= file.limit() as u64 {
            return Err(DecodeError::RegisterOutOfRange { n });
        }
        Ok(Reg { file, n: n as u16 })
    }
}

impl fmt::Display for Reg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n;
        let half = if n & 1 == 1 { 'h' } else { 'l' };
        match self.file {
            RegFile::R16 => write!(f, "r{}{}", n / 2, half),
            RegFile::R32 => write!(f, "r{n}"),
            RegFile::R64 => write!(f, "r{}_r{}", n, n + 1),
            RegFile::U16 => write!(f, "u{}{}", n / 2, half),
            RegFile::U32 => write!(f, "u{n}"),
            RegFile::U64 => write!(f, "u{}_u{}", n, n + 1),
        }
    }
}

/// A decoded operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Operand {
    Reg(Reg, Flags),
    /// Consecutive registers of one file, printed joined by `_`.
    Tuple(Vec<Reg>, Flags),
    /// Integer immediate.
    Imm(i64),
    /// 8-bit float immediate, decoded (with its abs/neg modifiers).
    FloatImm(f64, Flags),
    /// Branch target, relative to the instruction; printed as an absolute address.
    Offset(i64),
    /// Anything printed as a word: enum names, `0b...` fields, `lsl 2`, `mask 0xF`, `sr80 (...)`, `ts3`.
    Text(String),
    /// Printed as nothing and dropped from the operand list.
    Empty,
    /// An operand applegpu cannot name; it prints `None`.
    Missing,
}

impl Operand {
    /// Text of the operand in an instruction at `pc`.
    pub fn text(&self, pc: u64) -> String {
        fn with_flags(base: String, flags: &Flags) -> String {
            let mut s = base;
            for fl in flags.iter() {
                s.push('.');
                s.push_str(fl.text());
            }
            s
        }
        match self {
            Operand::Reg(r, fl) => with_flags(r.to_string(), fl),
            Operand::Tuple(rs, fl) => {
                let joined: Vec<String> = rs.iter().map(|r| r.to_string()).collect();
                with_flags(joined.join("_"), fl)
            }
            Operand::Imm(v) => v.to_string(),
            Operand::FloatImm(v, fl) => with_flags(python_float(*v), fl),
            Operand::Offset(v) => {
                // Python prints negative targets as `0x-...`.
                let target = (pc as i128) + (*v as i128);
                if target < 0 {
                    format!("0x-{:X}", -target)
                } else {
                    format!("0x{target:X}")
                }
            }
            Operand::Text(s) => s.clone(),
            Operand::Empty => String::new(),
            Operand::Missing => "None".to_string(),
        }
    }
}

/// Python's `repr` of the float immediates (all are k/64 or small multiples of powers of two, so the
/// shortest round-trip form is Rust's `{:?}`, which also keeps the `.0` and the sign of -0.0).
fn python_float(v: f64) -> String {
    format!("{v:?}")
}

/// The 8-bit float immediate of ALU sources: sign, 3-bit exponent, 4-bit fraction; exponent 0 is
/// fraction/64, otherwise (16 + fraction) * 2^(exponent - 7).
pub fn float_immediate(n: u64) -> f64 {
    let sign = if n & 0x80 != 0 { -1.0 } else { 1.0 };
    let e = ((n >> 4) & 7) as i32;
    let f = (n & 0xF) as f64;
    if e == 0 {
        sign * f / 64.0
    } else {
        sign * (16.0 + f) * 2f64.powi(e - 7)
    }
}

/// Destination register fields (`ALUDst*`, `FloatDst*`, `PairedALUDst`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DstKind {
    pub allow32: bool,
    pub allow64: bool,
    pub paired: bool,
    pub float: bool,
}

/// Source fields (`ALUSrc*`, `MulSrc`, `AddSrc`, `FloatSrc*`, `PairedFloatSrc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SrcKind {
    pub allow32: bool,
    pub allow64: bool,
    pub paired: bool,
    /// Immediates are 8-bit floats and the operand has abs/neg modifiers.
    pub float: bool,
    /// The operand has a sign-extension bit (`{name}s`).
    pub sx: bool,
}

/// How an operand's fields decode; one variant per operand class of applegpu's descriptors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OperandKind {
    ImplicitR0l,
    Dst(DstKind),
    Src(SrcKind),
    CmpselSrc,
    TruthTable,
    Immediate,
    Binary(u8),
    Enum(&'static [(u32, &'static str)]),
    BranchOffset(u8),
    Reg32,
    UReg64,
    Shift,
    Mask,
    StackAdjustment,
    StackReg32,
    ICond,
    FCond,
    MemoryShift,
    MemoryIndex,
    ThreadgroupIndex,
    AsyncMemoryReg,
    AsyncMemoryBase,
    MemoryBase,
    SampleMask(u8),
    DiscardMask,
    Zs,
    MemoryReg,
    ThreadgroupMemoryReg(bool),
    TileToMemoryReg,
    ThreadgroupMemoryBase,
    SReg32,
    ExReg32,
    VarRegister,
    VarTripleRegister,
    UvsIndex,
    Cf,
    CfPerspective,
    IterSampleId,
    TextureStateDest,
    SamplerStateDest,
    SampleUReg,
    Texture,
    Sampler,
    Coords,
    SampleCompareOff,
    Lod,
    AtomicSource,
    AtomicDestination,
    PbeLod,
    Reg32x44,
    PbeSourceReg,
}

/// Integer condition names by `cc | ccn << 3`.
pub const ICOND_NAMES: &[(u64, &str)] = &[
    (0b0000, "ueq"),
    (0b0001, "ult"),
    (0b0010, "ugt"),
    (0b0100, "seq"),
    (0b0101, "slt"),
    (0b0110, "sgt"),
    (0b1000, "nueq"),
    (0b1001, "ugte"),
    (0b1010, "ulte"),
    (0b1100, "nseq"),
    (0b1101, "sgte"),
    (0b1110, "slte"),
];

/// Float condition names by `cc | ccn << 3`.
pub const FCOND_NAMES: &[(u64, &str)] = &[
    (0b000, "eq"),
    (0b001, "lt"),
    (0b010, "gt"),
    (0b011, "ltn"),
    (0b101, "gte"),
    (0b110, "lte"),
    (0b111, "gtn"),
    (0b1000, "neq"),
    (0b1001, "nlt"),
    (0b1011, "nltn"),
    (0b1010, "ngt"),
    (0b1101, "ngte"),
    (0b1110, "nlte"),
    (0b1111, "ngtn"),
];

/// Special register names (applegpu's `SR_NAMES`; 124 is listed twice there and the later name wins).
pub const SR_NAMES: &[(u64, &str)] = &[
    (0, "threadgroup_position_in_grid.x"),
    (1, "threadgroup_position_in_grid.y"),
    (2, "threadgroup_position_in_grid.z"),
    (4, "threads_per_threadgroup.x"),
    (5, "threads_per_threadgroup.y"),
    (6, "threads_per_threadgroup.z"),
    (8, "dispatch_threads_per_threadgroup.x"),
    (9, "dispatch_threads_per_threadgroup.y"),
    (10, "dispatch_threads_per_threadgroup.z"),
    (20, "core_index"),
    (21, "vm_slot"),
    (48, "thread_position_in_threadgroup.x"),
    (49, "thread_position_in_threadgroup.y"),
    (50, "thread_position_in_threadgroup.z"),
    (51, "thread_index_in_threadgroup"),
    (52, "thread_index_in_simdgroup"),
    (53, "simdgroup_index_in_threadgroup"),
    (56, "active_thread_index_in_quadgroup"),
    (58, "active_thread_index_in_simdgroup"),
    (60, "internal_coverage_mask"),
    (62, "backfacing"),
    (63, "is_active_thread"),
    (80, "thread_position_in_grid.x"),
    (81, "thread_position_in_grid.y"),
    (82, "thread_position_in_grid.z"),
    (124, "input_sample_mask"),
    (144, "opfifo_cmd"),
    (146, "opfifo_data_l"),
    (147, "opfifo_data_h"),
];

/// Texture kinds (`n` field): name and (coordinate count, extra components).
pub const TEX_TYPES: &[(u64, &str, u64, u64)] = &[
    (0, "tex_1d", 1, 0),
    (1, "tex_1d_array", 1, 1),
    (2, "tex_2d", 2, 0),
    (3, "tex_2d_array", 2, 1),
    (4, "tex_2d_ms", 2, 1),
    (5, "tex_3d", 3, 0),
    (6, "tex_cube", 3, 0),
    (7, "tex_cube_array", 3, 1),
    (8, "tex_2d_ms_array", 2, 2),
];

fn lookup(table: &[(u64, &'static str)], v: u64) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == v).map(|(_, s)| *s)
}

fn sign_extend(v: u64, bits: u32) -> i64 {
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

/// Decoding context: the word's fields, plus a sink for the diagnostic lines applegpu prints while
/// decoding reserved source encodings (`TODO: 0100`), which its disassembler output carries.
pub struct Ctx<'a> {
    pub fields: &'a Fields,
    pub notes: &'a mut Vec<String>,
}

impl Ctx<'_> {
    fn get(&self, name: &str, suffix: &str) -> Result<u64, DecodeError> {
        let key = format!("{name}{suffix}");
        self.fields
            .get(&key)
            .ok_or(DecodeError::MissingField { field: key })
    }
}

fn hint(flags: u64) -> Flags {
    match flags & 3 {
        0b10 => Flags::one(Flag::Cache),
        0b11 => Flags::one(Flag::Discard),
        _ => Flags::default(),
    }
}

fn tuple(file: RegFile, first: u64, count: u64) -> Result<Vec<Reg>, DecodeError> {
    (0..count).map(|i| Reg::checked(file, first + i)).collect()
}

fn float_mods(op: Operand, m: u64) -> Result<Operand, DecodeError> {
    let mut add = Flags::default();
    if m & 1 != 0 {
        add.push(Flag::Abs);
    }
    if m & 2 != 0 {
        add.push(Flag::Neg);
    }
    Ok(match op {
        Operand::Reg(r, mut fl) => {
            fl.extend(add);
            Operand::Reg(r, fl)
        }
        Operand::Tuple(r, mut fl) => {
            fl.extend(add);
            Operand::Tuple(r, fl)
        }
        Operand::FloatImm(v, mut fl) => {
            fl.extend(add);
            Operand::FloatImm(v, fl)
        }
        Operand::Missing if add.is_empty() => Operand::Missing,
        // applegpu fails here (a modifier on an operand it could not decode).
        _ => {
            return Err(DecodeError::Malformed {
                what: "float modifier on a reserved source",
            })
        }
    })
}

impl OperandKind {
    /// Decode operand `name` of this kind from the word's fields.
    pub fn decode(&self, name: &str, cx: &mut Ctx<'_>) -> Result<Operand, DecodeError> {
        use OperandKind as K;
        Ok(match *self {
            K::ImplicitR0l => {
                let t = cx.get(name, "t")?;
                Operand::Reg(
                    Reg {
                        file: RegFile::R16,
                        n: 0,
                    },
                    if t & 1 != 0 {
                        Flags::one(Flag::Cache)
                    } else {
                        Flags::default()
                    },
                )
            }
            K::Dst(k) => decode_dst(k, name, cx)?,
            K::Src(k) => decode_src(k, name, cx)?,
            K::CmpselSrc => {
                let flags = cx.get(name, "t")?;
                let v = cx.get(name, "")?;
                let is32 = cx.get("Dt", "")? & 2 != 0;
                match flags {
                    0b100 => Operand::Imm(v as i64),
                    1..=3 => {
                        let r = if is32 {
                            if v & 1 != 0 {
                                return Err(DecodeError::Malformed {
                                    what: "odd 32-bit select source",
                                });
                            }
                            Reg::checked(RegFile::R32, v >> 1)?
                        } else {
                            Reg::checked(RegFile::R16, v)?
                        };
                        Operand::Reg(r, hint(flags))
                    }
                    0b110 | 0b111 => {
                        // applegpu's disassembler names the uniform from the 8-bit value alone.
                        let r = if is32 {
                            if v & 1 != 0 {
                                return Err(DecodeError::Malformed {
                                    what: "odd 32-bit select uniform",
                                });
                            }
                            Reg::checked(RegFile::U32, v >> 1)?
                        } else {
                            Reg::checked(RegFile::U16, v)?
                        };
                        Operand::Reg(r, Flags::default())
                    }
                    _ => {
                        cx.notes.push(format!("TODO: {flags:04b}"));
                        Operand::Missing
                    }
                }
            }
            K::TruthTable => {
                let mut s = String::new();
                for i in 0..4 {
                    s.push_str(&cx.get(name, &i.to_string())?.to_string());
                }
                Operand::Text(s)
            }
            K::Immediate => Operand::Imm(cx.get(name, "")? as i64),
            K::Binary(size) => Operand::Text(format!(
                "0b{:0width$b}",
                cx.get(name, "")?,
                width = size as usize
            )),
            K::Enum(values) => {
                let v = cx.get(name, "")?;
                match values.iter().find(|(k, _)| *k as u64 == v) {
                    Some((_, "")) => Operand::Empty,
                    Some((_, s)) => Operand::Text(s.to_string()),
                    None => Operand::Imm(v as i64),
                }
            }
            K::BranchOffset(size) => Operand::Offset(sign_extend(cx.get(name, "")?, size as u32)),
            K::Reg32 | K::ExReg32 => Operand::Reg(
                Reg::checked(RegFile::R32, cx.get(name, "")?)?,
                Flags::default(),
            ),
            K::UReg64 => Operand::Reg(
                Reg::checked(RegFile::U64, cx.get(name, "")?)?,
                Flags::default(),
            ),
            K::Shift => {
                let s = cx.get("s", "")?;
                if s != 0 {
                    Operand::Text(format!("lsl {s}"))
                } else {
                    Operand::Empty
                }
            }
            K::MemoryShift => {
                let s = cx.get(name, "")?;
                if s != 0 {
                    Operand::Text(format!("lsl {s}"))
                } else {
                    Operand::Empty
                }
            }
            K::Mask => {
                let m = cx.get(name, "")?;
                if m != 0 {
                    Operand::Text(format!("mask 0x{:X}", (1u64 << m) - 1))
                } else {
                    Operand::Empty
                }
            }
            K::StackAdjustment => Operand::Imm(sign_extend(cx.get(name, "")?, 16)),
            K::StackReg32 | K::Reg32x44 => Operand::Reg(
                Reg::checked(RegFile::R32, cx.get(name, "")? >> 1)?,
                Flags::default(),
            ),
            K::ICond | K::FCond => {
                let v = cx.get("cc", "")? | cx.fields.get_or_zero("ccn") << 3;
                let names = if *self == K::ICond {
                    ICOND_NAMES
                } else {
                    FCOND_NAMES
                };
                match lookup(names, v) {
                    Some(s) => Operand::Text(s.to_string()),
                    None => Operand::Imm(v as i64),
                }
            }
            K::MemoryIndex => {
                let v = cx.get(name, "")?;
                if cx.get(name, "t")? != 0 {
                    Operand::Imm(sign_extend(v, 16))
                } else {
                    if v & 1 != 0 || v >= 0x100 {
                        return Err(DecodeError::Malformed {
                            what: "memory index register",
                        });
                    }
                    Operand::Reg(Reg::checked(RegFile::R32, v >> 1)?, Flags::default())
                }
            }
            K::ThreadgroupIndex => {
                let v = cx.get(name, "")?;
                if cx.get(name, "t")? != 0 {
                    Operand::Imm(sign_extend(v, 16))
                } else {
                    if v >= 0x100 {
                        return Err(DecodeError::Malformed {
                            what: "threadgroup index register",
                        });
                    }
                    Operand::Reg(Reg::checked(RegFile::R16, v & 0xFF)?, Flags::default())
                }
            }
            K::AsyncMemoryReg => {
                let v = cx.get(name, "")?;
                let file = if cx.get(name, "t")? != 0 {
                    RegFile::U64
                } else {
                    RegFile::R64
                };
                Operand::Reg(Reg::checked(file, v >> 1)?, Flags::default())
            }
            K::AsyncMemoryBase => {
                let v = cx.get(name, "")?;
                let count = if cx.get("F", "")? != 0 { 5 } else { 3 };
                let file = if cx.get(name, "t")? != 0 {
                    RegFile::U32
                } else {
                    RegFile::R32
                };
                Operand::Tuple(tuple(file, v, count)?, Flags::default())
            }
            K::MemoryBase => {
                let v = cx.get(name, "")?;
                if v & 1 != 0 {
                    return Err(DecodeError::Malformed {
                        what: "odd memory base register",
                    });
                }
                let file = if cx.get(name, "t")? != 0 {
                    RegFile::U64
                } else {
                    RegFile::R64
                };
                Operand::Reg(Reg::checked(file, v >> 1)?, Flags::default())
            }
            K::SampleMask(flags_type) => {
                let flags = cx.get(name, "t")?;
                let v = cx.get(name, "")?;
                if flags >= 2 {
                    return Err(DecodeError::Malformed {
                        what: "sample mask flags",
                    });
                }
                if (flags == 0) == (flags_type == 2) {
                    Operand::Imm(v as i64)
                } else {
                    Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default())
                }
            }
            K::DiscardMask | K::UvsIndex | K::PbeLod => {
                let v = cx.get(name, "")?;
                if cx.get(name, "t")? == 0 {
                    Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default())
                } else {
                    Operand::Imm(v as i64)
                }
            }
            K::Zs => {
                let v = cx.get(name, "")?;
                let count = if cx.get("z", "")? != 0 { 2 } else { 0 }
                    + if cx.get("s", "")? != 0 { 1 } else { 0 };
                if count == 0 {
                    return Err(DecodeError::Malformed {
                        what: "zs_emit writes neither depth nor stencil",
                    });
                }
                Operand::Tuple(tuple(RegFile::R16, v, count)?, Flags::default())
            }
            K::MemoryReg => {
                let v = cx.get(name, "")?;
                let count = cx.get("mask", "")?.count_ones() as u64;
                if cx.get(name, "t")? == 0 {
                    Operand::Tuple(tuple(RegFile::R16, v, count)?, Flags::default())
                } else {
                    Operand::Tuple(tuple(RegFile::R32, v >> 1, count)?, Flags::default())
                }
            }
            K::ThreadgroupMemoryReg(optional) => {
                if optional && cx.get(name, "a")? == 0 {
                    Operand::Missing
                } else {
                    let v = cx.get(name, "")?;
                    let count = if optional {
                        1
                    } else {
                        cx.get("mask", "")?.count_ones() as u64
                    };
                    if cx.get(name, "t")? == 0 {
                        Operand::Tuple(tuple(RegFile::R16, v, count)?, Flags::default())
                    } else {
                        Operand::Tuple(tuple(RegFile::R32, v >> 1, count)?, Flags::default())
                    }
                }
            }
            K::TileToMemoryReg => Operand::Reg(
                Reg::checked(RegFile::R16, cx.get(name, "")?)?,
                Flags::default(),
            ),
            K::ThreadgroupMemoryBase => {
                let v = cx.get(name, "")?;
                match cx.get(name, "t")? {
                    0 => Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default()),
                    2 => Operand::Imm(0),
                    f => Operand::Reg(
                        Reg::checked(RegFile::U16, v | ((f >> 1) << 8))?,
                        Flags::default(),
                    ),
                }
            }
            K::SReg32 => {
                let v = cx.get(name, "")?;
                match lookup(SR_NAMES, v) {
                    Some(s) => Operand::Text(format!("sr{v} ({s})")),
                    None => Operand::Text(format!("sr{v}")),
                }
            }
            K::VarRegister | K::VarTripleRegister => {
                let v = cx.get(name, "")?;
                let mut count = cx.get("count", "")?;
                if count == 0 {
                    count = 4;
                }
                if *self == K::VarTripleRegister {
                    count *= 3;
                }
                if cx.get(name, "t")? == 0 {
                    Operand::Tuple(tuple(RegFile::R16, v, count)?, Flags::default())
                } else {
                    Operand::Tuple(tuple(RegFile::R32, v >> 1, count)?, Flags::default())
                }
            }
            K::Cf => {
                let v = cx.get(name, "")?;
                if cx.get(name, "t")? == 0 {
                    Operand::Text(format!("cf{v}"))
                } else {
                    Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default())
                }
            }
            K::CfPerspective => Operand::Text(format!("cf{}", cx.get(name, "")?)),
            K::IterSampleId => {
                let v = cx.get(name, "")?;
                let interp = cx.get("interpolation", "")?;
                if interp & 1 != 0 {
                    if interp & 2 != 0 {
                        Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default())
                    } else {
                        Operand::Imm(v as i64)
                    }
                } else {
                    if v != 0 {
                        return Err(DecodeError::Malformed {
                            what: "sample id without sample interpolation",
                        });
                    }
                    Operand::Empty
                }
            }
            K::TextureStateDest => Operand::Text(format!("ts{}", cx.get(name, "")?)),
            K::SamplerStateDest => Operand::Text(format!("ss{}", cx.get(name, "")?)),
            K::SampleUReg => {
                let v = cx.get(name, "")?;
                if cx.get("Tt", "")? & 2 != 0 {
                    Operand::Reg(Reg::checked(RegFile::U64, v * 2)?, Flags::default())
                } else {
                    Operand::Missing
                }
            }
            K::Texture => {
                let v = cx.get(name, "")?;
                match cx.get(name, "t")? {
                    0 => Operand::Text(format!("ts{v}")),
                    1 => Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default()),
                    2 if v == 0 => Operand::Imm(0),
                    2 => Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default()),
                    _ => Operand::Reg(Reg::checked(RegFile::R32, v >> 1)?, Flags::default()),
                }
            }
            K::Sampler => {
                let v = cx.get(name, "")?;
                if cx.get(name, "t")? == 0 {
                    Operand::Text(format!("ss{v}"))
                } else {
                    Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default())
                }
            }
            K::Coords => {
                let v = cx.get(name, "")?;
                let n = cx.get("n", "")?;
                let &(_, _, count, extra) =
                    TEX_TYPES
                        .iter()
                        .find(|t| t.0 == n)
                        .ok_or(DecodeError::Malformed {
                            what: "texture kind",
                        })?;
                let regs = if cx.get(name, "s")? != 0 {
                    tuple(RegFile::R16, v, count + extra)?
                } else if extra != 0 {
                    tuple(RegFile::R16, v, count * 2 + 1)?
                } else {
                    tuple(RegFile::R32, v >> 1, count)?
                };
                let fl = if cx.get(name, "t")? != 0 {
                    Flags::one(Flag::Discard)
                } else {
                    Flags::default()
                };
                Operand::Tuple(regs, fl)
            }
            K::SampleCompareOff => {
                let mut v = cx.get(name, "")?;
                let mut regs = vec![];
                if cx.get("compare", "")? != 0 {
                    regs.push(Reg::checked(RegFile::R32, v >> 1)?);
                    v += 2;
                }
                if cx.get(name, "t")? != 0 {
                    regs.push(Reg::checked(RegFile::R16, v)?);
                }
                if regs.is_empty() {
                    Operand::Empty
                } else {
                    Operand::Tuple(regs, Flags::default())
                }
            }
            K::Lod => {
                let v = cx.get(name, "")?;
                match cx.get("lod", "")? {
                    0 => Operand::Imm(0),
                    lod @ (0b100 | 0b1100) => {
                        let n = cx.get("n", "")?;
                        let &(_, _, count, _) =
                            TEX_TYPES
                                .iter()
                                .find(|t| t.0 == n)
                                .ok_or(DecodeError::Malformed {
                                    what: "texture kind",
                                })?;
                        let count = count * 2 + u64::from(lod == 0b1100);
                        Operand::Tuple(tuple(RegFile::R32, v >> 1, count)?, Flags::default())
                    }
                    0b010 | 0b001 => Operand::Reg(Reg::checked(RegFile::U16, v)?, Flags::default()),
                    0b110 | 0b101 => Operand::Reg(Reg::checked(RegFile::R16, v)?, Flags::default()),
                    _ => return Err(DecodeError::Malformed { what: "lod mode" }),
                }
            }
            K::AtomicSource => {
                let v = cx.get(name, "")?;
                if v & 1 != 0 {
                    return Err(DecodeError::Malformed {
                        what: "odd atomic source register",
                    });
                }
                let file = if cx.get("op", "")? == 3 {
                    RegFile::R64
                } else {
                    RegFile::R32
                };
                Operand::Reg(Reg::checked(file, v >> 1)?, Flags::default())
            }
            K::AtomicDestination => {
                let v = cx.get(name, "")?;
                if cx.get(name, "t")? == 1 {
                    if v & 1 != 0 {
                        return Err(DecodeError::Malformed {
                            what: "odd atomic destination register",
                        });
                    }
                    Operand::Reg(Reg::checked(RegFile::R32, v >> 1)?, Flags::default())
                } else {
                    Operand::Missing
                }
            }
            K::PbeSourceReg => {
                let v = cx.get(name, "")?;
                if cx.get(name, "t")? == 0 {
                    Operand::Tuple(tuple(RegFile::R16, v, 4)?, Flags::default())
                } else {
                    if v & 1 != 0 {
                        return Err(DecodeError::Malformed {
                            what: "odd image write source",
                        });
                    }
                    Operand::Tuple(tuple(RegFile::R32, v >> 1, 4)?, Flags::default())
                }
            }
        })
    }
}

/// A destination register: the `t` field picks the cache hint and the 16/32/64-bit file.
fn decode_dst(k: DstKind, name: &str, cx: &mut Ctx<'_>) -> Result<Operand, DecodeError> {
    let flags = cx.get(name, "t")?;
    let v = cx.get(name, "")?;
    let fl = if flags & 1 != 0 {
        Flags::one(Flag::Cache)
    } else {
        Flags::default()
    };
    Ok(if flags & 2 != 0 && k.allow32 {
        if v & 1 != 0 && k.allow64 {
            Operand::Reg(Reg::checked(RegFile::R64, v >> 1)?, fl)
        } else if k.paired {
            Operand::Tuple(tuple(RegFile::R32, v >> 1, 2)?, fl)
        } else {
            Operand::Reg(Reg::checked(RegFile::R32, v >> 1)?, fl)
        }
    } else if k.paired {
        Operand::Tuple(tuple(RegFile::R16, v, 2)?, fl)
    } else {
        Operand::Reg(Reg::checked(RegFile::R16, v)?, fl)
    })
}

/// A source: immediate, uniform or register by its `t` field, then sign-extension and float
/// modifiers where the kind has them.
fn decode_src(k: SrcKind, name: &str, cx: &mut Ctx<'_>) -> Result<Operand, DecodeError> {
    let flags = cx.get(name, "t")?;
    let mut v = cx.get(name, "")?;
    let op = if flags == 0 {
        if k.float {
            Operand::FloatImm(float_immediate(v), Flags::default())
        } else {
            Operand::Imm(v as i64)
        }
    } else if flags & 0b1100 == 0b0100 {
        v |= (flags & 1) << 8;
        if flags & 2 != 0 {
            Operand::Reg(Reg::checked(RegFile::U32, v >> 1)?, Flags::default())
        } else {
            Operand::Reg(Reg::checked(RegFile::U16, v)?, Flags::default())
        }
    } else if flags & 3 != 0 {
        let size = flags & 0b1100;
        let fl = hint(flags);
        if k.allow64 && size == 0b1100 {
            if v & 1 != 0 {
                return Err(DecodeError::Malformed {
                    what: "odd 64-bit source register",
                });
            }
            if k.paired {
                return Err(DecodeError::Malformed {
                    what: "64-bit paired source",
                });
            }
            Operand::Reg(Reg::checked(RegFile::R64, v >> 1)?, fl)
        } else if k.allow32 && (size == 0b1000 || size == 0b1100) {
            if k.paired {
                Operand::Tuple(tuple(RegFile::R32, v >> 1, 2)?, fl)
            } else {
                Operand::Reg(Reg::checked(RegFile::R32, v >> 1)?, fl)
            }
        } else if k.paired {
            Operand::Tuple(tuple(RegFile::R16, v, 2)?, fl)
        } else {
            Operand::Reg(Reg::checked(RegFile::R16, v)?, fl)
        }
    } else {
        cx.notes.push(format!("TODO: {flags:04b}"));
        Operand::Missing
    };
    let op = match op {
        Operand::Reg(r, mut fl) if k.sx => {
            if cx.get(name, "s")? & 1 != 0 {
                fl.push(Flag::Sx);
            }
            Operand::Reg(r, fl)
        }
        other => other,
    };
    Ok(if k.float {
        float_mods(op, cx.get(name, "m")?)?
    } else {
        op
    })
}
