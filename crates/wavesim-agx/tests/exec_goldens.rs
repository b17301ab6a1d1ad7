//! Random straight-line streams of the forms applegpu's emulator executes give the same registers and
//! exec mask as applegpu (goldens from tools/agx/gen_exec_goldens.py; the initial state is re-derived here
//! from each case's seed with the same generator).

use wavesim_agx::exec::{run, Memories, Program, WaveState, SIMD_WIDTH};
use wavesim_core::memory::{DeviceMemory, DEVICE_BASE};

const NUM_REGS: usize = 8;
const MEM_SIZE: usize = 256;
const INTERESTING: [u32; 16] = [
    0x3f800000, 0xbf800000, 0x40000000, 0x3f000000, 0x00000000, 0x80000000, 0x7f800000, 0xff800000,
    0x7fc00000, 0x00000001, 0x3c003c00, 0xbc00c000, 0x7bff0400, 0x00010000, 0x477fe000, 0x33800000,
];

struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    fn value32(&mut self) -> u32 {
        match self.next() % 4 {
            0 => self.next() as u32,
            1 => (self.next() % 8) as u32,
            2 => INTERESTING[(self.next() % 16) as usize],
            _ => ((self.next() & 0xC0FFE000) | 0x3E000000) as u32,
        }
    }
}

fn parse_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn execution_matches_applegpu_goldens() {
    let text = include_str!("../../../corpus/agx/exec_goldens.txt");
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    let mut cases = 0;
    let mut failures = vec![];
    while i < lines.len() {
        let head: Vec<&str> = lines[i].split_whitespace().collect();
        assert_eq!(head[0], "case");
        let seed: u64 = head[1].parse().unwrap();
        let exec_from_r0l = head[2] == "r0l";
        let code = parse_hex(lines[i + 1].strip_prefix("code ").unwrap());
        let exec = u32::from_str_radix(lines[i + 2].strip_prefix("exec ").unwrap(), 16).unwrap();
        let regs: Vec<Vec<u32>> = (0..NUM_REGS)
            .map(|r| {
                lines[i + 3 + r]
                    .split_whitespace()
                    .map(|v| u32::from_str_radix(v, 16).unwrap())
                    .collect()
            })
            .collect();
        i += 3 + NUM_REGS;
        cases += 1;

        // Initial state, derived as the generator derives it.
        let mut g = SplitMix(seed);
        let mut w = WaveState::new(NUM_REGS);
        for r in 0..NUM_REGS {
            for lane in 0..SIMD_WIDTH {
                w.set_reg32(r, lane, g.value32());
            }
        }
        for lane in 0..SIMD_WIDTH {
            let r0 = w.reg32(0, lane);
            w.set_reg32(0, lane, (r0 & 0xFFFF0000) | (g.next() % 3) as u32);
            w.set_reg32(6, lane, (DEVICE_BASE + 4 * (g.next() % 8)) as u32);
            w.set_reg32(7, lane, 0);
        }
        for u in 0..16 {
            let v = g.value32();
            w.set_uniform32(u, v);
        }
        let bytes: Vec<u8> = (0..MEM_SIZE).map(|_| g.next() as u8).collect();
        let mut dev = DeviceMemory::new();
        let base = dev.alloc(MEM_SIZE as u64, 16).unwrap();
        assert_eq!(base, DEVICE_BASE);
        dev.write(base, &bytes).unwrap();
        if exec_from_r0l {
            w.exec = (0..SIMD_WIDTH)
                .filter(|&l| w.halves[0][l] == 0)
                .fold(0, |m, l| m | 1 << l);
        }

        let program = Program::new(code.clone());
        let mut tg = vec![];
        let mut mem = Memories {
            device: &dev,
            threadgroup: &mut tg,
        };
        let mut result = Ok(());
        while (w.pc as usize) < code.len() {
            if let Err(e) = run(&mut w, &program, &mut mem, 1) {
                result = Err(e);
                break;
            }
        }
        let mut diffs = vec![];
        if let Err(e) = result {
            diffs.push(format!("error {e}"));
        }
        if w.exec != exec {
            diffs.push(format!("exec {:08x} want {exec:08x}", w.exec));
        }
        for (r, want) in regs.iter().enumerate() {
            for (lane, &v) in want.iter().enumerate() {
                if w.reg32(r, lane) != v {
                    diffs.push(format!(
                        "r{r}[{lane}] = {:08x} want {v:08x}",
                        w.reg32(r, lane)
                    ));
                }
            }
        }
        if !diffs.is_empty() {
            let listing = wavesim_agx::disassemble_raw(&code, 0).unwrap_or_default();
            failures.push(format!(
                "case {seed}:\n{listing}{}",
                diffs[..diffs.len().min(6)].join("\n")
            ));
        }
    }
    assert!(cases >= 600);
    assert!(
        failures.is_empty(),
        "{} of {cases} cases differ:\n{}",
        failures.len(),
        failures[..failures.len().min(8)].join("\n\n")
    );
}
