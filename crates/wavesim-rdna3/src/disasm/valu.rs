//! Printing the vector ALU formats: VOP1/VOP2/VOPC (e32, DPP), VOP3, VOP3P (WMMA, fma_mix), VOPD,
//! VINTERP and LDSDIR.

use super::*;

impl Printer<'_> {
    /// A VALU source with float input modifiers.
    pub(super) fn src_fmods(&self, k: usize, t: Ty, code: u16) -> String {
        let base = src(code, t, self.lit(), self.w64);
        self.wrap_mods(k, base, is_const(code))
    }

    /// A VALU source with integer input modifiers (`sext`).
    pub(super) fn src_imods(&self, k: usize, t: Ty, code: u16) -> String {
        let base = src(code, t, self.lit(), self.w64);
        if self.i.neg >> k & 1 != 0 {
            format!("sext({base})")
        } else {
            base
        }
    }

    pub(super) fn vop_e32(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        if op == Op::V_MOV_B16 {
            return self.mov_b16();
        }
        let single = op.info().flags & crate::isa::flags::NO_VOP3 != 0
            || is_fmak(op)
            || matches!(op, Op::V_NOP | Op::V_PIPEFLUSH);
        let dpp = i.dpp != Dpp::None;
        let mut name = self.name().to_string();
        if dpp {
            if i.enc != Enc::Vopc {
                name.push_str("_dpp");
            }
        } else if !single {
            name.push_str("_e32");
        }
        let n = sig.num_src();
        if sig.dst[0] == Ty::None && n == 0 && sig.dst[1] == Ty::None {
            return name;
        }
        let sixteen = |t: Ty| t.is_16bit();
        let mut ops: Vec<String> = Vec::new();
        // Destinations.
        match i.enc {
            Enc::Vopc => {
                if sig.dst[0] == Ty::Mask {
                    ops.push(sreg(opnd::VCC_LO, ty_dwords(Ty::Mask, self.w64)));
                }
            }
            _ => {
                if sig.dst[0] != Ty::None {
                    ops.push(if op == Op::V_READFIRSTLANE_B32 {
                        lane_read_dst(i.dst[0])
                    } else {
                        reg(i.dst[0], ty_dwords(sig.dst[0], self.w64))
                    });
                }
                if sig.dst[1] == Ty::Mask {
                    ops.push(sreg(opnd::VCC_LO, ty_dwords(Ty::Mask, self.w64)));
                }
            }
        }
        // Sources.
        let kpos = match op.facts().fmak {
            Fmak::Mk => 1,
            Fmak::Ak => 2,
            Fmak::None => usize::MAX,
        };
        for k in 0..n {
            let t = sig.src[k];
            let code = i.src[k];
            if t == Ty::Mask {
                ops.push(sreg(opnd::VCC_LO, ty_dwords(Ty::Mask, self.w64)));
                continue;
            }
            if k == kpos {
                // The K constant prints as the raw 32-bit literal.
                ops.push(hex(self.lit() as u64));
                continue;
            }
            let class = op
                .facts()
                .src_class
                .get(k)
                .copied()
                .unwrap_or(RegClass::Any);
            if class == RegClass::VRegOrLds {
                ops.push(reg_class_src(code, self.lit(), "VRegOrLds_32"));
                continue;
            }
            if class == RegClass::Vgpr {
                ops.push(reg_class_src(code, self.lit(), "VGPR_32"));
                continue;
            }
            let mut s = if dpp && k < 2 {
                if decode::dpp_e32_mods(op).1 >> k & 1 != 0 {
                    self.src_imods(k, t, code)
                } else {
                    self.src_fmods(k, t, code)
                }
            } else {
                src(code, t, self.lit(), self.w64)
            };
            // 16-bit compares (incl. v_cmp_class_f16's u32 mask operand) are Lo128 throughout.
            let lo = if i.enc == Enc::Vopc { sig.src[0] } else { t };
            if sixteen(lo) && lo128_bad(code) {
                let class = if k == 0 && !dpp {
                    "VS_32_Lo128"
                } else {
                    "VGPR_32_Lo128"
                };
                // The remark goes inside |...| of an abs source.
                let r = invalid_reg(class);
                if s.ends_with('|') {
                    s.pop();
                    s.push_str(&r);
                    s.push('|');
                } else {
                    s.push_str(&r);
                }
            }
            ops.push(s);
        }
        let mut s = join(&name, &ops);
        s.push_str(&self.dpp_suffix());
        s
    }

    /// v_mov_b16 is a true16 instruction: 16-bit register halves print as `vN.l` / `vN.h`
    /// (bit 7 of an 8-bit VGPR field selects the high half).
    pub(super) fn mov_b16(&self) -> String {
        let i = self.i;
        let dpp = i.dpp != Dpp::None;
        let half = |code: u16| {
            let n = code - opnd::VGPR0;
            format!("v{}.{}", n & 0x7f, if n & 0x80 != 0 { 'h' } else { 'l' })
        };
        let d = half(i.dst[0]);
        let code = i.src[0];
        let sv = if opnd::is_vgpr(code) {
            let h = half(code);
            if dpp && i.neg & 1 != 0 {
                format!("sext({h})")
            } else {
                h
            }
        } else if dpp {
            self.src_imods(0, Ty::B16, code)
        } else {
            src(code, Ty::B16, self.lit(), self.w64)
        };
        let name = if dpp {
            "v_mov_b16_dpp"
        } else {
            "v_mov_b16_e32"
        };
        let mut s = format!("{name} {d}, {sv}");
        s.push_str(&self.dpp_suffix());
        s
    }

    /// Applies src k's neg/abs modifiers to already-printed operand text.
    pub(super) fn wrap_mods(&self, k: usize, base: String, is_imm: bool) -> String {
        let neg = self.i.neg >> k & 1 != 0;
        let abs = self.i.abs >> k & 1 != 0;
        mods_text(base, neg, abs, is_imm)
    }

    pub(super) fn dpp_suffix(&self) -> String {
        match self.i.dpp {
            Dpp::None => String::new(),
            Dpp::Dpp8 { sel, fi } => {
                let mut s = String::from(" dpp8:[");
                for k in 0..8 {
                    if k > 0 {
                        s.push(',');
                    }
                    let _ = write!(s, "{}", sel >> (3 * k) & 7);
                }
                s.push(']');
                if fi {
                    s.push_str(" fi:1");
                }
                s
            }
            Dpp::Dpp16 {
                ctrl,
                row_mask,
                bank_mask,
                bound_ctrl,
                fi,
            } => {
                let mut s = String::from(" ");
                s.push_str(&dpp_ctrl(ctrl));
                let _ = write!(s, " row_mask:{row_mask:#x} bank_mask:{bank_mask:#x}");
                if bound_ctrl {
                    s.push_str(" bound_ctrl:1");
                }
                if fi {
                    s.push_str(" fi:1");
                }
                s
            }
        }
    }

    pub(super) fn vop3(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let m = decode::vop3_mods(op);
        let promoted = matches!(op.fmt(), Fmt::Vop1 | Fmt::Vop2 | Fmt::Vopc);
        let dpp = i.dpp != Dpp::None;
        let mut name = self.name().to_string();
        if (promoted || dpp) && !matches!(op, Op::V_NOP | Op::V_PIPEFLUSH) {
            name.push_str("_e64");
        }
        if dpp {
            name.push_str("_dpp");
        }
        let n = sig.num_src();
        let mut ops: Vec<String> = Vec::new();
        if op.fmt() == Fmt::Vopc {
            if sig.dst[0] == Ty::Mask {
                ops.push(self.mask_dst(i.dst[1]));
            }
        } else {
            if sig.dst[0] != Ty::None {
                let dwd = ty_dwords(sig.dst[0], self.w64);
                ops.push(if op == Op::V_READLANE_B32 {
                    lane_read_dst(i.dst[0])
                } else {
                    reg(i.dst[0], dwd)
                });
            }
            if sig.dst[1] == Ty::Mask {
                ops.push(self.mask_reg(i.dst[1]));
            }
        }
        for k in 0..n {
            let mut t = sig.src[k];
            // The exponent of v_ldexp_f16_e64 prints constants as f16.
            if op == Op::V_LDEXP_F16 {
                t = Ty::F16;
            }
            let code = i.src[k];
            let s = if let Some(class) = vop3_vgpr_class(op, k) {
                reg_class_src(code, self.lit(), class)
            } else if let Some(class) = vop3_sgpr_class(op, k) {
                let mut s = src(code, t, self.lit(), self.w64);
                if opnd::is_vgpr(code) {
                    s.push_str(&invalid_reg(class));
                }
                s
            } else if t.dwords() > 2 && is_const(code) {
                // VGPR tuples wider than 64 bits take no constants.
                format!("{}{INVALID_IMM}", src(code, Ty::B32, self.lit(), self.w64))
            } else if t == Ty::Mask {
                self.mask_src(code)
            } else if m.fmods >> k & 1 != 0 {
                self.src_fmods(k, t, code)
            } else if m.imods >> k & 1 != 0 || (dpp && m.ign_mods) {
                self.src_imods(k, t, code)
            } else {
                src(code, t, self.lit(), self.w64)
            };
            ops.push(s);
        }
        let mut s = join(&name, &ops);
        if m.op_sel != 0 {
            s.push_str(&self.op_sel_text(&m));
        }
        if i.clamp {
            s.push_str(" clamp");
        }
        match i.omod {
            1 => s.push_str(" mul:2"),
            2 => s.push_str(" mul:4"),
            3 => s.push_str(" div:2"),
            _ => {}
        }
        s.push_str(&self.dpp_suffix());
        s
    }

    /// A lane-mask source (carry-in, v_cndmask select): an SGPR (pair) other than EXEC;
    /// anything else prints with LLVM's remark.
    pub(super) fn mask_src(&self, code: u16) -> String {
        if is_const(code) {
            let v = if code == opnd::LITERAL {
                imm32(self.lit())
            } else {
                constant(code, Ty::B32, 0)
            };
            return format!("{v}{INVALID_IMM}");
        }
        let mut s = if opnd::is_vgpr(code) {
            reg(code, ty_dwords(Ty::Mask, self.w64))
        } else {
            self.mask_reg(code)
        };
        if opnd::is_vgpr(code) || matches!(code, opnd::EXEC_LO | opnd::EXEC_HI) {
            s.push_str(&invalid_reg("SReg_1_XEXEC"));
        }
        s
    }

    /// A scalar lane-mask register: one SGPR in wave32, an SGPR pair in wave64, where LLVM
    /// decodes the field as a 64-bit register and drops bit 0 of an odd SGPR/TTMP number.
    pub(super) fn mask_reg(&self, code: u16) -> String {
        let code = match code {
            0..=105 if self.w64 => code & !1,
            108..=123 if self.w64 => opnd::TTMP0 + ((code - opnd::TTMP0) & !1),
            _ => code,
        };
        sreg(code, ty_dwords(Ty::Mask, self.w64))
    }

    /// A lane-mask destination of VOPC e64 / VOP3SD: constants print with a remark.
    pub(super) fn mask_dst(&self, code: u16) -> String {
        if is_const(code) {
            format!("{}{INVALID_IMM}", constant(code, Ty::B32, 0))
        } else {
            self.mask_reg(code)
        }
    }

    pub(super) fn op_sel_text(&self, m: &decode::Vop3Mods) -> String {
        let i = self.i;
        let n = i.op.sig().num_src();
        // The decoder keeps every encoded op_sel bit; LLVM prints only the ones the op has.
        let sel = i.op_sel & m.op_sel;
        if sel == 0 {
            return String::new();
        }
        if matches!(i.op, Op::V_PERMLANE16_B32 | Op::V_PERMLANEX16_B32) {
            return format!(" op_sel:[{},{}]", sel & 1, sel >> 1 & 1);
        }
        // v_fmac_f16's op_sel also has a slot for its tied accumulator.
        let n = if i.op == Op::V_FMAC_F16 { 3 } else { n };
        let mut s = String::from(" op_sel:[");
        for k in 0..n {
            let _ = write!(s, "{},", sel >> k & 1);
        }
        if m.op_sel & 8 != 0 {
            let _ = write!(s, "{}", sel >> 3 & 1);
        } else {
            s.pop();
        }
        s.push(']');
        s
    }

    pub(super) fn vop3p(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let n = sig.num_src();
        let dpp = i.dpp != Dpp::None;
        let mut name = self.name().to_string();
        if dpp {
            name.push_str("_e64_dpp");
        }
        let mix = decode::is_fma_mix(op);
        let wmma = decode::is_wmma(op);
        let dst_dwords = if wmma {
            decode::wmma_acc_dwords(self.w64) as u32
        } else {
            ty_dwords(sig.dst[0], self.w64)
        };
        let mut ops: Vec<String> = vec![reg(i.dst[0], dst_dwords)];
        for k in 0..n {
            let t = sig.src[k];
            let code = i.src[k];
            let text = if mix {
                // v_fma_mix*: VOP3-style modifiers (neg_lo = neg, neg_hi = abs). Their DPP form
                // takes a VGPR src1.
                let mut base = src(code, t, self.lit(), self.w64);
                if dpp && k == 1 {
                    if code == opnd::LITERAL {
                        // Not an operand of the (VGPR) class: printed as a plain 32-bit value.
                        base = imm32(self.lit());
                    }
                    if is_const(code) {
                        base.push_str(INVALID_IMM);
                    } else if !opnd::is_vgpr(code) && !is_inline_value(code) {
                        base.push_str(&invalid_reg("VGPR_32"));
                    }
                }
                let neg = i.neg >> k & 1 != 0;
                let abs = i.neg_hi >> k & 1 != 0;
                mods_text(base, neg, abs, is_const(code))
            } else if wmma {
                self.wmma_src(k, t, code)
            } else {
                src(code, t, self.lit(), self.w64)
            };
            ops.push(text);
        }
        let mut s = join(&name, &ops);
        let mask = (1u8 << n) - 1;
        let list = |v: u8| {
            let mut t = String::from("[");
            for k in 0..n {
                if k > 0 {
                    t.push(',');
                }
                let _ = write!(t, "{}", v >> k & 1);
            }
            t.push(']');
            t
        };
        if i.op_sel & mask != 0 {
            let _ = write!(s, " op_sel:{}", list(i.op_sel));
        }
        // Packed math defaults op_sel_hi to all ones; the mix ops (not packed) to zeros; the
        // 32-bit-accumulator WMMAs have no op_sel_hi at all.
        let hi_default = if mix { 0 } else { mask };
        if (!wmma || decode::wmma_has_op_sel(op)) && i.op_sel_hi & mask != hi_default {
            let _ = write!(s, " op_sel_hi:{}", list(i.op_sel_hi));
        }
        if !mix {
            if i.neg & mask != 0 {
                let _ = write!(s, " neg_lo:{}", list(i.neg));
            }
            if i.neg_hi & mask != 0 {
                let _ = write!(s, " neg_hi:{}", list(i.neg_hi));
            }
        }
        if i.clamp {
            s.push_str(" clamp");
        }
        s.push_str(&self.dpp_suffix());
        s
    }

    /// A WMMA source: matrices live in VGPR tuples, so constants and SGPRs get remarks (src2, the
    /// accumulator, also accepts inline constants).
    pub(super) fn wmma_src(&self, k: usize, t: Ty, code: u16) -> String {
        let dwd = ty_dwords(t, self.w64);
        if k == 2 {
            if code == opnd::LITERAL {
                // LLVM's wave32 decoder does not attach the literal to the accumulator operand
                // (it prints 0); the wave64 one does.
                return if self.w64 {
                    imm32(self.lit())
                } else {
                    "0x0".into()
                };
            }
            if code == opnd::INV_2PI && !self.w64 {
                // The 256-bit wave32 accumulator prints 1/(2*pi) with 64-bit precision.
                return constant(code, Ty::F64, 0);
            }
            if is_const(code) {
                return constant(code, wmma_acc_ty(self.i.op), self.lit());
            }
            let acc = decode::wmma_acc_dwords(self.w64) as u32;
            let mut r = reg(code, acc);
            if !opnd::is_vgpr(code) && !is_inline_value(code) {
                r.push_str(&invalid_reg(&format!("VReg_{}", acc * 32)));
            }
            return r;
        }
        if is_const(code) {
            let v = if code == opnd::LITERAL {
                imm32(self.lit())
            } else {
                constant(code, Ty::B32, 0)
            };
            return format!("{v}{INVALID_IMM}");
        }
        let mut r = reg(code, dwd);
        if !opnd::is_vgpr(code) && !is_inline_value(code) {
            r.push_str(&invalid_reg(&format!("VReg_{}", dwd * 32)));
        }
        r
    }

    pub(super) fn vopd(&self) -> String {
        let i = self.i;
        let half = |op: Op, d: u16, s0: u16, s1: u16| -> String {
            let name = format!("v_dual_{}", &op.name()[2..]);
            let lit = self.lit();
            // With a K-constant op in the pair LLVM decodes the shared literal as a 32-bit
            // value for both halves; otherwise it follows the op's type (packed f16 for dot2acc).
            let has_k = [i.op, i.op_y].iter().any(|o| o.facts().fmak != Fmak::None);
            let t = if has_k { Ty::B32 } else { op.sig().src[0] };
            let a = src(s0, t, lit, self.w64);
            let k = hex(lit as u64);
            let b = vreg(s1, 1);
            let d = vreg(d, 1);
            match (op, op.facts().fmak) {
                (Op::V_MOV_B32, _) => format!("{name} {d}, {a}"),
                (_, Fmak::Mk) => format!("{name} {d}, {a}, {k}, {b}"),
                (_, Fmak::Ak) => format!("{name} {d}, {a}, {b}, {k}"),
                _ => format!("{name} {d}, {a}, {b}"),
            }
        };
        format!(
            "{} :: {}",
            half(i.op, i.dst[0], i.src[0], i.src[1]),
            half(i.op_y, i.dst[1], i.src[2], i.src[3])
        )
    }

    pub(super) fn vinterp(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let mut ops = vec![vreg(i.dst[0], 1)];
        for k in 0..3 {
            let code = i.src[k];
            // The remark goes right after the operand, inside neg(...) for constants.
            let t = sig.src[k];
            let neg = i.neg >> k & 1 != 0;
            let s = if is_const(code) {
                let v = if code == opnd::LITERAL {
                    imm32(self.lit())
                } else {
                    src(code, t, 0, self.w64)
                };
                let c = format!("{v}{INVALID_IMM}");
                if neg {
                    format!("neg({c})")
                } else {
                    c
                }
            } else {
                let mut r = reg(code, 1);
                if !opnd::is_vgpr(code) && !is_inline_value(code) {
                    r.push_str(&invalid_reg("VGPR_32"));
                }
                if neg {
                    format!("-{r}")
                } else {
                    r
                }
            };
            ops.push(s);
        }
        let mut s = join(self.name(), &ops);
        if i.clamp {
            s.push_str(" clamp");
        }
        if i.op_sel != 0 {
            let _ = write!(
                s,
                " op_sel:[{},{},{},{}]",
                i.op_sel & 1,
                i.op_sel >> 1 & 1,
                i.op_sel >> 2 & 1,
                i.op_sel >> 3 & 1
            );
        }
        let _ = write!(s, " wait_exp:{}", i.imm);
        s
    }

    pub(super) fn ldsdir(&self) -> String {
        let i = self.i;
        let d = vreg(i.dst[0], 1);
        if i.op == Op::LDS_PARAM_LOAD {
            format!(
                "{} {d}, attr{}.{} wait_vdst:{}",
                self.name(),
                i.imm2 >> 2,
                ['x', 'y', 'z', 'w'][(i.imm2 & 3) as usize],
                i.imm
            )
        } else {
            format!("{} {d} wait_vdst:{}", self.name(), i.imm)
        }
    }
}
