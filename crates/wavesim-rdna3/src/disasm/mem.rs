//! Printing the memory and export formats: DS, FLAT/GLOBAL/SCRATCH, MUBUF/MTBUF, MIMG and EXP.

use super::*;

impl Printer<'_> {
    pub(super) fn ds(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let name = self.name();
        let mut ops: Vec<String> = Vec::new();
        if sig.dst[0] != Ty::None {
            ops.push(vreg(i.dst[0], ty_dwords(sig.dst[0], false)));
        }
        if decode::ds_has_addr(i.op) {
            ops.push(vreg(i.src[0], 1));
        }
        for k in 0..sig.num_src() {
            ops.push(vreg(i.src[1 + k], ty_dwords(sig.src[k], false)));
        }
        let mut s = join(name, &ops);
        let off = i.imm as u32;
        if i.op.facts().two_addr {
            let (o0, o1) = (off & 0xff, off >> 8 & 0xff);
            if o0 != 0 {
                let _ = write!(s, " offset0:{o0}");
            }
            if o1 != 0 {
                let _ = write!(s, " offset1:{o1}");
            }
        } else if i.op == Op::DS_SWIZZLE_B32 {
            s.push_str(&swizzle(off as u16));
        } else if off != 0 {
            let _ = write!(s, " offset:{off}");
        }
        if i.flags & iflags::GDS != 0 {
            s.push_str(" gds");
        }
        s
    }

    pub(super) fn flat(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let name = self.name();
        let mut ops: Vec<String> = Vec::new();
        if sig.dst[0] != Ty::None && decode::returns_data(i) {
            ops.push(vreg(i.dst[0], ty_dwords(sig.dst[0], false)));
        }
        let saddr = i.src[2];
        let addr = match i.enc {
            Enc::Scratch => {
                if i.flags & iflags::SVE != 0 {
                    vreg(i.src[0], 1)
                } else {
                    "off".into()
                }
            }
            Enc::Global if saddr != opnd::NULL => vreg(i.src[0], 1),
            _ => vreg(i.src[0], 2),
        };
        if decode::flat_has_vaddr(i.op) {
            ops.push(addr);
        }
        if sig.num_src() > 0 {
            ops.push(vreg(i.src[1], ty_dwords(sig.src[0], false)));
        }
        match i.enc {
            Enc::Global => ops.push(if saddr == opnd::NULL {
                "off".into()
            } else {
                sreg(saddr, 2)
            }),
            Enc::Scratch => ops.push(if saddr == opnd::NULL {
                "off".into()
            } else if saddr == opnd::EXEC_HI {
                format!("exec_hi{}", invalid_reg("SReg_32_XEXEC_HI"))
            } else {
                sreg(saddr, 1)
            }),
            _ => {}
        }
        let mut s = join(name, &ops);
        if i.imm != 0 {
            let _ = write!(s, " offset:{}", i.imm);
        }
        cache_bits(&mut s, i.flags);
        s
    }

    pub(super) fn buffer(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let name = self.name();
        let data_ty = if sig.dst[0] != Ty::None {
            sig.dst[0]
        } else {
            sig.src[0]
        };
        if sig.dst[0] == Ty::None && sig.num_src() == 0 && !i.op.facts().lds {
            return name.to_string();
        }
        let mut ops: Vec<String> = Vec::new();
        let mut dwd = ty_dwords(data_ty, false);
        if sig.src[0] != Ty::None && sig.dst[0] != Ty::None {
            // Atomics print the (wider) data operand.
            dwd = ty_dwords(sig.src[0], false);
        }
        if i.flags & iflags::TFE != 0 {
            dwd += 1;
        }
        if data_ty != Ty::None {
            ops.push(vreg(i.src[1], dwd));
        }
        let addr = match (i.flags & iflags::OFFEN != 0, i.flags & iflags::IDXEN != 0) {
            (true, true) => vreg(i.src[0], 2),
            (false, false) => "off".into(),
            _ => vreg(i.src[0], 1),
        };
        ops.push(addr);
        ops.push(sreg(i.src[2], 4));
        let mut soffset = src(i.src[3], Ty::B32, self.lit(), false);
        if i.src[3] == opnd::LDS_DIRECT {
            // LDS_DIRECT is a source code but not a register of soffset's class.
            soffset.push_str(&invalid_reg("SReg_32"));
        }
        ops.push(soffset);
        let mut s = join(name, &ops);
        if i.enc == Enc::Mtbuf && i.imm2 != 1 {
            match BUF_FORMATS.get(i.imm2 as usize) {
                Some(n) => {
                    let _ = write!(s, " format:[BUF_FMT_{n}]");
                }
                None => {
                    let _ = write!(s, " format:{}", i.imm2);
                }
            }
        }
        if i.flags & iflags::IDXEN != 0 {
            s.push_str(" idxen");
        }
        if i.flags & iflags::OFFEN != 0 {
            s.push_str(" offen");
        }
        if i.imm != 0 {
            let _ = write!(s, " offset:{}", i.imm);
        }
        cache_bits(&mut s, i.flags);
        if i.flags & iflags::TFE != 0 {
            s.push_str(" tfe");
        }
        s
    }

    pub(super) fn mimg(&self) -> String {
        let i = self.i;
        let name = self.name();
        let info = decode::MimgOpInfo::of(i.op);
        let dmask = i.imm2 & 0xf;
        let dim = i.imm2 >> 4 & 7;
        let nsa = i.flags & iflags::NSA != 0;
        let a16 = i.flags & iflags::A16 != 0;
        let nsa_reg = |k: u32| opnd::vgpr(i.lit >> (8 * (k - 1)) & 0xff);
        if let decode::MimgKind::Bvh { is64 } = info.kind {
            let addr = if nsa {
                let v: Vec<String> = decode::bvh_nsa_widths(is64, a16)
                    .iter()
                    .enumerate()
                    .map(|(k, &n)| {
                        let r = if k == 0 { i.src[0] } else { nsa_reg(k as u32) };
                        vreg(r, n)
                    })
                    .collect();
                format!("[{}]", v.join(", "))
            } else {
                vreg(i.src[0], i.imm as u32)
            };
            let mut s = join(name, &[vreg(i.dst[0], 4), addr, sreg(i.src[1], 4)]);
            if a16 {
                s.push_str(" a16");
            }
            return s;
        }
        let (data, addr) = mimg_llvm_widths(i, &info);
        let mut ops: Vec<String> = vec![vreg(i.dst[0], info.llvm_data_regs(data))];
        if nsa {
            // Up to five address operands; the fifth holds all remaining address VGPRs.
            let n = addr.min(5);
            let mut v = vec![vreg(i.src[0], 1)];
            for k in 1..n {
                let width = if k == 4 { addr - 4 } else { 1 };
                v.push(vreg(nsa_reg(k), width));
            }
            ops.push(format!("[{}]", v.join(", ")));
        } else {
            ops.push(vreg(i.src[0], addr));
        }
        ops.push(sreg(i.src[1], 8));
        if info.sampler() {
            ops.push(sreg(i.src[2], 4));
        }
        // LLVM's NSA sampler syntax has an extra space after the mnemonic.
        let mut s = if info.sampler() && nsa {
            format!("{name}  {}", ops.join(", "))
        } else {
            join(name, &ops)
        };
        if dmask != 0 {
            let _ = write!(s, " dmask:{dmask:#x}");
        }
        let _ = write!(s, " dim:SQ_RSRC_IMG_{}", DIMS[dim as usize & 7]);
        if i.flags & iflags::UNORM != 0 {
            s.push_str(" unorm");
        }
        cache_bits(&mut s, i.flags);
        if i.flags & iflags::R128 != 0 {
            s.push_str(" r128");
        }
        if a16 {
            s.push_str(" a16");
        }
        if i.flags & iflags::TFE != 0 {
            s.push_str(" tfe");
        }
        if i.flags & iflags::LDS != 0 {
            s.push_str(" lwe");
        }
        if i.flags & iflags::D16 != 0 {
            s.push_str(" d16");
        }
        s
    }

    pub(super) fn exp(&self) -> String {
        let i = self.i;
        let tgt = i.imm as u32;
        let t = exp_target(tgt);
        let mut ops = Vec::new();
        for k in 0..4 {
            ops.push(if i.imm2 >> k & 1 != 0 {
                vreg(i.src[k], 1)
            } else {
                "off".into()
            });
        }
        let mut s = format!("exp {t} {}", ops.join(", "));
        if i.flags & iflags::DONE != 0 {
            s.push_str(" done");
        }
        if i.flags & iflags::ROW != 0 {
            s.push_str(" row_en");
        }
        s
    }
}

/// The data and address widths LLVM 19 prints for an image instruction (its `convertMIMGInst`):
/// the decoder tables hold one form per opcode (default widths); it is widened to the sizes the
/// dmask/d16/tfe and dimension/a16 fields call for only if LLVM has a variant of exactly those
/// sizes and the widened register tuples stay within v0-v255. Otherwise the default widths are
/// printed, whatever the hardware reads.
pub(super) fn mimg_llvm_widths(i: &Inst, info: &decode::MimgOpInfo) -> (u32, u32) {
    let nsa = i.flags & iflags::NSA != 0;
    let def_data = info.llvm_default_data();
    let def_addr = info.llvm_default_addr(nsa);
    let data = i.imm2 >> 8 & 0xff;
    let mut addr = i.imm as u32;
    if !nsa && addr > 12 {
        addr = 16;
    }
    // With non-sequential addresses, more than the default count means the last address
    // operand becomes a tuple ("partial NSA").
    let partial = nsa && addr > def_addr;
    if data == def_data && addr == def_addr {
        return (def_data, def_addr);
    }
    if info.llvm_data_variants() >> data & 1 == 0 || info.llvm_addr_variants(nsa) >> addr & 1 == 0 {
        return (def_data, def_addr);
    }
    let vdata = (i.dst[0] - opnd::VGPR0) as u32;
    if data != def_data && vdata + info.llvm_data_regs(data) - 1 > 255 {
        return (def_data, def_addr);
    }
    if addr != def_addr && (!nsa || partial) {
        let (first, width) = if partial {
            (i.lit >> 24 & 0xff, addr - 4)
        } else {
            ((i.src[0] - opnd::VGPR0) as u32, addr)
        };
        if first + width - 1 > 255 {
            return (def_data, def_addr);
        }
    }
    (data, addr)
}

/// gfx11 unified buffer formats 0-63 (MTBUF `format`); 1 is the default and not printed.
pub(super) const BUF_FORMATS: [&str; 64] = [
    "INVALID",
    "8_UNORM",
    "8_SNORM",
    "8_USCALED",
    "8_SSCALED",
    "8_UINT",
    "8_SINT",
    "16_UNORM",
    "16_SNORM",
    "16_USCALED",
    "16_SSCALED",
    "16_UINT",
    "16_SINT",
    "16_FLOAT",
    "8_8_UNORM",
    "8_8_SNORM",
    "8_8_USCALED",
    "8_8_SSCALED",
    "8_8_UINT",
    "8_8_SINT",
    "32_UINT",
    "32_SINT",
    "32_FLOAT",
    "16_16_UNORM",
    "16_16_SNORM",
    "16_16_USCALED",
    "16_16_SSCALED",
    "16_16_UINT",
    "16_16_SINT",
    "16_16_FLOAT",
    "10_11_11_FLOAT",
    "11_11_10_FLOAT",
    "10_10_10_2_UNORM",
    "10_10_10_2_SNORM",
    "10_10_10_2_UINT",
    "10_10_10_2_SINT",
    "2_10_10_10_UNORM",
    "2_10_10_10_SNORM",
    "2_10_10_10_USCALED",
    "2_10_10_10_SSCALED",
    "2_10_10_10_UINT",
    "2_10_10_10_SINT",
    "8_8_8_8_UNORM",
    "8_8_8_8_SNORM",
    "8_8_8_8_USCALED",
    "8_8_8_8_SSCALED",
    "8_8_8_8_UINT",
    "8_8_8_8_SINT",
    "32_32_UINT",
    "32_32_SINT",
    "32_32_FLOAT",
    "16_16_16_16_UNORM",
    "16_16_16_16_SNORM",
    "16_16_16_16_USCALED",
    "16_16_16_16_SSCALED",
    "16_16_16_16_UINT",
    "16_16_16_16_SINT",
    "16_16_16_16_FLOAT",
    "32_32_32_UINT",
    "32_32_32_SINT",
    "32_32_32_FLOAT",
    "32_32_32_32_UINT",
    "32_32_32_32_SINT",
    "32_32_32_32_FLOAT",
];

pub(super) const DIMS: [&str; 8] = [
    "1D",
    "2D",
    "3D",
    "CUBE",
    "1D_ARRAY",
    "2D_ARRAY",
    "2D_MSAA",
    "2D_MSAA_ARRAY",
];
