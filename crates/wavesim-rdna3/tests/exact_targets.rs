//! gfx11 targets from the code object's ELF machine (EF_AMDGPU_MACH, AMDGPUUsage "AMDGPU ELF
//! Header"; the values checked with llvm-mc-19 -mcpu=...): gfx1101, gfx1102, gfx1103 and
//! gfx11-generic are RDNA3 (decoded as gfx1100), gfx1150, gfx1151 and gfx1152 are RDNA3.5.

use std::path::Path;
use wavesim_rdna3::disasm::disassemble_elf;
use wavesim_rdna3::hsa::codeobj::CodeObject;
use wavesim_rdna3::isa::Target;

#[test]
fn targets_by_name_and_machine() {
    for (name, mach, t) in [
        ("gfx1100", 0x41, Target::Gfx1100),
        ("gfx1101", 0x46, Target::Gfx1100),
        ("gfx1102", 0x47, Target::Gfx1100),
        ("gfx1103", 0x44, Target::Gfx1100),
        ("gfx11-generic", 0x54, Target::Gfx1100),
        ("gfx1150", 0x43, Target::Gfx1150),
        ("gfx1151", 0x4a, Target::Gfx1150),
        ("gfx1152", 0x55, Target::Gfx1150),
    ] {
        assert_eq!(Target::from_name(name), Some(t), "{name}");
        assert_eq!(Target::from_elf_mach(mach), Some(t), "{name}");
    }
    assert_eq!(Target::from_name("gfx1200"), None);
    assert_eq!(Target::from_elf_mach(0x48), None); // gfx1200
}

/// A gfx1100 code object relabelled gfx1101 / gfx1102 / gfx1103 (e_flags at byte 48 of the
/// ELF64 header) loads and disassembles exactly as the gfx1100 one does; relabelled gfx1150
/// its (RDNA3-only) code still prints the same.
#[test]
fn rdna3_machines_are_accepted_as_gfx11() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx1100-w32/saxpy.hsaco");
    let bytes = std::fs::read(path).unwrap();
    let want = disassemble_elf(&bytes).unwrap();
    assert_eq!(bytes[48], 0x41);
    for mach in [0x46u8, 0x47, 0x44, 0x43, 0x4a] {
        let mut b = bytes.clone();
        b[48] = mach;
        let co = CodeObject::parse(&b).unwrap_or_else(|e| panic!("{mach:#x}: {e}"));
        assert_eq!(co.mach, mach as u32);
        assert_eq!(disassemble_elf(&b).unwrap(), want, "{mach:#x}");
    }
}

/// An RDNA3.5 object's SALU float words print as instructions only because its machine says
/// gfx1150: relabelled gfx1100, llvm-objdump (and wavesim) print them as `.long`.
#[test]
fn the_elf_machine_selects_rdna35_decoding() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx1150-w32/salu_float.hsaco");
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(bytes[48], 0x43);
    assert!(disassemble_elf(&bytes).unwrap().contains("s_fmamk_f32"));
    let mut b = bytes.clone();
    b[48] = 0x41;
    let text = disassemble_elf(&b).unwrap();
    assert!(!text.contains("s_fmamk_f32") && text.contains(".long"));
}
