//! Every corpus/gfx object's `.text` disassembles as llvm-objdump-19 printed it (the
//! `dis/wNN/NAME.txt` goldens made by corpus/gfx/build.sh): instruction text, line by line,
//! whitespace normalised. Covers the graphics instructions (exp, lds_param_load, v_interp_*,
//! s_wqm, DPP quad_perm) in wave32 and wave64.

use std::path::PathBuf;
use wavesim_rdna3::disasm::format;
use wavesim_rdna3::gfx::pal::PalObject;

fn norm(l: &str) -> String {
    l.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn gfx_corpus_matches_llvm_objdump() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx");
    let mut checked = 0;
    let mut objects = 0;
    let mut seen = std::collections::BTreeSet::new();
    for w in ["w32", "w64"] {
        let mut names: Vec<PathBuf> = std::fs::read_dir(root.join("obj").join(w))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for obj_path in names {
            let name = obj_path.file_stem().unwrap().to_string_lossy().to_string();
            let obj = PalObject::parse(&std::fs::read(&obj_path).unwrap()).unwrap();
            let golden =
                std::fs::read_to_string(root.join("dis").join(w).join(format!("{name}.txt")))
                    .unwrap();
            let want: Vec<String> = golden
                .lines()
                .filter(|l| l.starts_with('\t'))
                .map(|l| norm(l.split("//").next().unwrap_or("")))
                .collect();
            let p = &obj.program;
            assert_eq!(p.insts.len(), want.len(), "{w}/{name}: instruction count");
            for (k, inst) in p.insts.iter().enumerate() {
                let got = norm(&format(inst, p.pcs[k], w == "w64"));
                assert_eq!(got, want[k], "{w}/{name} instruction {k}");
                seen.insert(got.split(' ').next().unwrap_or("").to_string());
                checked += 1;
            }
            objects += 1;
        }
    }
    assert_eq!(objects, 64);
    for m in [
        "exp",
        "lds_param_load",
        "v_interp_p10_f32",
        "v_interp_p2_f32",
        "v_interp_p10_f16_f32",
        "v_interp_p2_f16_f32",
        "v_interp_p10_rtz_f16_f32",
        "v_interp_p2_rtz_f16_f32",
        "s_wqm_b32",
        "s_wqm_b64",
    ] {
        assert!(seen.contains(m), "no {m} in the corpus");
    }
    assert!(checked > 500, "{checked}");
}

#[test]
fn cl_image_kernels_match_llvm_objdump() {
    // corpus/gfx/cl-wNN/images.hsaco against llvm-objdump-19's listing (image_load/store/sample).
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx");
    for w in ["cl-w32", "cl-w64"] {
        let bytes = std::fs::read(root.join(w).join("images.hsaco")).unwrap();
        let golden = std::fs::read_to_string(root.join(w).join("images.objdump")).unwrap();
        let ours = wavesim_rdna3::disasm::disassemble_elf(&bytes).unwrap();
        let lines =
            |s: &str| -> Vec<String> { s.lines().map(norm).filter(|l| !l.is_empty()).collect() };
        let (want, got) = (lines(&golden), lines(&ours));
        assert!(want.iter().any(|l| l.starts_with("image_sample_lz")));
        assert_eq!(want.len(), got.len(), "{w}: line count");
        for (a, b) in want.iter().zip(&got) {
            assert_eq!(a, b, "{w}");
        }
    }
}
