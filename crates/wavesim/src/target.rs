//! Which back end an object or a `--target` name asks for. The facade is one device and one
//! command line for every ISA; this is where it tells them apart (docs/ARCHITECTURE.md).
//!
//! - RDNA3 (gfx11) code objects: ELF64, EM_AMDGPU (`e_flags` names the gfx11 chip).
//! - R700 shaders as llc-19 writes them: ELF32, EM_AMDGPU, `e_flags` 5/6/7 = rv710/rv730/rv770.
//! - AGX (G13) code has no ELF container of its own: bare bytes with `--target agx`.

use crate::Error;
use wavesim_core::elf::{header_flags, identify, EM_AMDGPU};
use wavesim_r700::Chip;
use wavesim_rdna3::isa::Target;

/// The machine a piece of code is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isa {
    /// AMD RDNA3 (gfx1100-gfx1103) and RDNA3.5 (gfx1150-gfx1152).
    Rdna3(Target),
    /// AMD R700.
    R700(Chip),
    /// Apple G13 (M1).
    Agx,
}

impl Isa {
    /// A `--target` name: gfx1100..gfx1103, gfx1150..gfx1152 (and `rdna3`, `rdna3.5`),
    /// rv770/rv730/rv710, agx/g13.
    pub fn from_name(name: &str) -> Result<Isa, Error> {
        let n = name.trim().to_ascii_lowercase();
        if let Some(chip) = Chip::from_name(&n) {
            return Ok(Isa::R700(chip));
        }
        if let Some(t) = Target::from_name(&n) {
            return Ok(Isa::Rdna3(t));
        }
        match n.as_str() {
            "rdna3" | "gfx11" => Ok(Isa::Rdna3(Target::Gfx1100)),
            "rdna3.5" | "gfx115" => Ok(Isa::Rdna3(Target::Gfx1150)),
            "agx" | "g13" | "g13g" | "g13s" | "m1" => Ok(Isa::Agx),
            _ => Err(Error::Args(format!(
                "unknown target `{name}`; known: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, \
                 gfx1151, gfx1152, rv770, rv730, rv710, agx"
            ))),
        }
    }

    /// The back end an ELF object is for, from its header.
    pub fn of_object(bytes: &[u8]) -> Result<Isa, Error> {
        let Some((machine, is_64)) = identify(bytes) else {
            return Err(Error::Args(
                "malformed ELF: no 0x7f 'E' 'L' 'F' header (bare code needs --raw and --target)"
                    .into(),
            ));
        };
        if machine != EM_AMDGPU {
            return Err(Error::Args(format!(
                "ELF machine {machine} is not one wavesim runs (AMDGPU is {EM_AMDGPU}); AGX code \
                 is given as bare bytes with --raw --target agx"
            )));
        }
        let flags = header_flags(bytes).unwrap_or(0);
        if is_64 {
            // An unknown gfx machine is refused when the code object is parsed, with its name.
            return Ok(Isa::Rdna3(
                Target::from_elf_mach(flags & 0xff).unwrap_or_default(),
            ));
        }
        Chip::from_e_flags(flags).map(Isa::R700).ok_or_else(|| {
            Error::Args(format!(
                "ELF32 AMDGPU object with e_flags {flags:#x}: not an R700 chip (rv710 = 5, rv730 = \
                 6, rv770 = 7)"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_objects_pick_the_back_end() {
        assert_eq!(
            Isa::from_name("gfx1103").unwrap(),
            Isa::Rdna3(Target::Gfx1100)
        );
        assert_eq!(
            Isa::from_name("GFX1151").unwrap(),
            Isa::Rdna3(Target::Gfx1150)
        );
        assert_eq!(Isa::from_name("rv730").unwrap(), Isa::R700(Chip::Rv730));
        assert_eq!(Isa::from_name("agx").unwrap(), Isa::Agx);
        assert!(Isa::from_name("sm_80").is_err());
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
        let read = |p: &str| std::fs::read(format!("{root}/{p}")).unwrap();
        assert_eq!(
            Isa::of_object(&read("examples/saxpy.hsaco")).unwrap(),
            Isa::Rdna3(Target::Gfx1100)
        );
        assert_eq!(
            Isa::of_object(&read("corpus/r700/obj/rv710/ps_kill.o")).unwrap(),
            Isa::R700(Chip::Rv710)
        );
        assert!(Isa::of_object(b"\x7fELF").is_err());
        assert!(Isa::of_object(&[0u8; 64]).is_err());
    }
}
