//! Printing the scalar formats: SOP1, SOP2, SOPC, SOPK, SOPP and SMEM.

use super::*;

/// The type a SALU source prints as. LLVM 19 (gfx1150) gives the RDNA3.5 f16 instructions
/// operand classes other than f16 in its printer: the SOP1 ones print their source as a 32-bit
/// operand, the s_cmp_*_f16 ones as a 16-bit integer operand (inline float constants in hex,
/// `0xbc00`); the SOP2 f16 ones print as f16. Execution uses the table's f16 type.
pub(super) fn salu_print_ty(op: Op, t: Ty) -> Ty {
    if t != Ty::F16 {
        return t;
    }
    match op.fmt() {
        Fmt::Sop1 => Ty::B32,
        Fmt::Sopc => Ty::I16,
        _ => t,
    }
}

impl Printer<'_> {
    pub(super) fn salu(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let mut ops: Vec<String> = Vec::new();
        if sig.dst[0] != Ty::None {
            ops.push(sreg(i.dst[0], ty_dwords(sig.dst[0], self.w64)));
        }
        for k in 0..sig.num_src() {
            let t = sig.src[k];
            if t == Ty::Sendmsg {
                ops.push(sendmsg(i.imm as u16));
                continue;
            }
            let c = i.src[k];
            let facts = i.op.facts();
            if (facts.fmak == Fmak::Mk && k == 1) || (facts.fmak == Fmak::Ak && k == 2) {
                // The K constant prints in hex, as v_fmamk/v_fmaak's.
                ops.push(hex(self.lit() as u64));
                continue;
            }
            let mut s = src(c, salu_print_ty(i.op, t), self.lit(), self.w64);
            if is_const(c) && facts.src_class[k] == RegClass::SReg {
                s = if c == opnd::LITERAL {
                    imm32(self.lit())
                } else {
                    constant(c, Ty::B32, 0)
                };
                s.push_str(INVALID_IMM);
            } else if c == opnd::LDS_DIRECT {
                s.push_str(&invalid_reg("SReg_32"));
            }
            ops.push(s);
        }
        join(self.name(), &ops)
    }

    pub(super) fn sopk(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let imm = i.imm as u16;
        let name = self.name();
        match op {
            Op::S_VERSION => format!("{name} {}", version(imm)),
            Op::S_GETREG_B32 => format!("{name} {}, {}", sreg(i.dst[0], 1), hwreg(imm)),
            Op::S_SETREG_B32 => format!("{name} {}, {}", hwreg(imm), sreg(i.src[1], 1)),
            Op::S_SETREG_IMM32_B32 => format!("{name} {}, {}", hwreg(imm), imm32(self.lit())),
            _ => {
                let r = if sig.dst[0] != Ty::None {
                    sreg(i.dst[0], ty_dwords(sig.dst[0], self.w64))
                } else {
                    sreg(i.src[0], ty_dwords(sig.src[0], self.w64))
                };
                let v = if sig.src.contains(&Ty::Label) {
                    imm.to_string()
                } else {
                    hex(imm as u64)
                };
                format!("{name} {r}, {v}")
            }
        }
    }

    pub(super) fn sopp(&self) -> String {
        let i = self.i;
        let imm = i.imm as u16;
        let name = self.name();
        match i.op.sig().src[0] {
            Ty::None => {
                if i.op == Op::S_ENDPGM && imm != 0 {
                    format!("{name} {imm}")
                } else {
                    name.to_string()
                }
            }
            Ty::Label => format!("{name} {imm}"),
            Ty::Imm16 => format!("{name} {}", hex(imm as u64)),
            Ty::Imm16Inline | Ty::Simm16 => format!("{name} {}", imm32(imm as u32)),
            Ty::Waitcnt => format!("{name} {}", waitcnt(imm)),
            Ty::DelayAlu => format!("{name} {}", delay_alu(imm)),
            Ty::Sendmsg => format!("{name} {}", sendmsg(imm)),
            Ty::Depctr => format!("{name} {}", depctr(imm)),
            Ty::Hwreg => format!("{name} {}", hwreg(imm)),
            _ => format!("{name} {}", hex(imm as u64)),
        }
    }

    pub(super) fn smem(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let name = self.name();
        if sig.num_src() == 0 {
            return name.to_string();
        }
        let mut ops = Vec::new();
        let base_ty = if sig.src[0] == Ty::Simm16 {
            ops.push(imm32(i.imm2));
            sig.src[1]
        } else {
            let dwd = ty_dwords(sig.dst[0], false);
            let mut d = sreg(i.dst[0], dwd);
            d.push_str(&smem_dst_remark(i.dst[0], dwd));
            ops.push(d);
            sig.src[0]
        };
        let bd = base_ty.dwords() as u32;
        let mut b = sreg(i.src[0], bd);
        if bd == 4
            && !(i.src[0] <= 105 || (108..=123).contains(&i.src[0]) || i.src[0] == opnd::NULL)
        {
            b.push_str(&invalid_reg("SReg_128"));
        }
        ops.push(b);
        let off = i.imm;
        let soff = i.src[1];
        let offs = if off < 0 {
            format!("-{:#x}", -(off as i64))
        } else {
            format!("{off:#x}")
        };
        let mut last = if soff == opnd::NULL {
            if off == 0 {
                "null".to_string()
            } else {
                offs
            }
        } else {
            let mut t = sreg(soff, 1);
            if off != 0 {
                let _ = write!(t, " offset:{offs}");
            }
            t
        };
        if i.flags & iflags::GLC != 0 {
            last.push_str(" glc");
        }
        if i.flags & iflags::DLC != 0 {
            last.push_str(" dlc");
        }
        ops.push(last);
        join(name, &ops)
    }
}
