//! Draws as Mesa 22.3's gallium asahi driver sets them up (Mesa 22.3.6, `src/gallium/drivers/asahi`),
//! for the shaders that driver compiles (`tools/mesa/run_corpus.sh`, `tools/agx/corpus_jobs.py`).
//!
//! The 2022 driver predates the split-program ABI of [`crate::abi`]: a shader is one monolithic
//! binary holding its main part at `main_offset` and, when the compiler made one, a preamble at
//! `preamble_offset` (`agx_shader_info`). What the hardware is given (`agx_build_pipeline`):
//! - uniform halves: each push range (`agx_push`) loads `length` halves at `base` from a GPU
//!   address (`agx_usc_uniform`); nothing else is reserved, so a range may start at half 0;
//! - the preamble runs once before the main part and leaves its `uniform_store`s in the uniforms
//!   (`agx_nir_opt_preamble`);
//! - a vertex shader fetches its attributes itself (`agx_emit_load_attr`: vertex buffer base from
//!   a push range, `vertex_id * stride + offset`), with the vertex id preloaded in r5 and the
//!   instance id in r6 (`agx_vertex_id` / `agx_instance_id`: preloaded halves 10 and 12), and
//!   stores its outputs with `st_var` (`agx_emit_store_vary`).
//!
//! Every register other than the preloaded ones starts poisoned: reading it before writing is a
//! typed error (the driver defines no other inputs).

use crate::abi::{group_slot, AbiError, VertexInvocation, VertexRun, BUDGET};
use crate::exec::{run_observed, Inst, Memories, Program, Stop, WaveState, SIMD_WIDTH};
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::{NoObserver, Observer};

/// A compiled shader and the uniforms its push ranges load.
#[derive(Debug, Clone)]
pub struct Shader {
    /// The binary exactly as the driver uploads it.
    pub code: Vec<u8>,
    pub main_offset: u32,
    /// Offset of the preamble, when the shader has one.
    pub preamble_offset: Option<u32>,
    /// 32-bit registers of the main part and of the preamble (`nr_gprs`, `nr_preamble_gprs`).
    pub nr_gprs: usize,
    pub nr_preamble_gprs: usize,
    /// The 512 uniform halves as the push ranges fill them.
    pub uniforms: Vec<u16>,
    /// Opt-in approximations (`exec::WaveState::approximate`).
    pub approximate: bool,
    /// The texture and sampler state arrays (cmdbuf.xml TEXTURE / SAMPLER descriptors).
    pub textures: Vec<[u8; 24]>,
    pub samplers: Vec<[u8; 8]>,
}

impl Shader {
    fn check(&self, part: &'static str) -> Result<(), AbiError> {
        let bad = |what: String| Err(AbiError::Config { what });
        if self.nr_gprs > 128 || self.nr_preamble_gprs > 128 {
            return bad(format!(
                "{part}: {} / {} registers (at most 128)",
                self.nr_gprs, self.nr_preamble_gprs
            ));
        }
        if self.uniforms.len() != 512 {
            return bad(format!(
                "{part}: {} uniform halves (512)",
                self.uniforms.len()
            ));
        }
        for (name, off) in [
            ("main", Some(self.main_offset)),
            ("preamble", self.preamble_offset),
        ] {
            if let Some(off) = off.filter(|&o| o as usize >= self.code.len()) {
                return bad(format!(
                    "{part}: {name} offset {off} beyond the {} code bytes",
                    self.code.len()
                ));
            }
        }
        Ok(())
    }

    /// The uniforms after the preamble: it runs once, on one thread (`agx_nir_opt_preamble`
    /// computes uniform values, so which thread runs it does not matter). Observers see it as
    /// workgroup (0,0,0), wave 0, before the first group of the draw.
    pub fn uniforms_after_preamble<O: Observer<WaveState, Inst> + ?Sized>(
        &self,
        part: &'static str,
        program: &Program,
        dev: &DeviceMemory,
        obs: &mut O,
    ) -> Result<(Vec<u16>, Approximated), AbiError> {
        let Some(offset) = self.preamble_offset else {
            return Ok((self.uniforms.clone(), Approximated::new()));
        };
        let mut w = WaveState::new(self.nr_preamble_gprs.max(1));
        w.uniforms.copy_from_slice(&self.uniforms);
        w.textures = self.textures.clone();
        w.samplers = self.samplers.clone();
        w.approximate = self.approximate;
        w.pc = offset as u64;
        w.exec = 1;
        w.present = 1;
        let mut tg = vec![];
        let mut mem = Memories {
            device: dev,
            threadgroup: &mut tg,
        };
        w.slot = Some(group_slot(0, 0));
        let r = run_observed(&mut w, program, &mut mem, BUDGET, obs);
        finish(part, 0, r, "preamble")?;
        Ok((w.uniforms, w.approximated))
    }
}

/// Instructions run as their documented intent under the opt-in, by name.
type Approximated = std::collections::BTreeMap<&'static str, u64>;

fn finish(
    part: &'static str,
    index: usize,
    r: Result<Stop, crate::exec::ExecError>,
    unit: &'static str,
) -> Result<(), AbiError> {
    match r.map_err(|source| AbiError::Exec {
        part,
        unit,
        index,
        source,
    })? {
        Stop::End => Ok(()),
        Stop::Barrier => Err(AbiError::Config {
            what: format!("{part}: threadgroup_barrier in a graphics shader"),
        }),
        Stop::Quantum => Err(AbiError::Budget { part }),
    }
}

/// Run the vertex shader for `vertex_count` vertices of `instance_count` instances (vertex ids
/// from 0, instance-major), 32 to a SIMD group.
pub fn run_vertex(
    s: &Shader,
    vertex_count: u32,
    instance_count: u32,
    dev: &DeviceMemory,
) -> Result<VertexRun, AbiError> {
    run_vertex_observed(s, vertex_count, instance_count, dev, &mut NoObserver)
}

/// [`run_vertex`] with `obs` seeing the preamble and every SIMD group (group g is workgroup
/// (g,0,0), wave 0).
pub fn run_vertex_observed<O: Observer<WaveState, Inst> + ?Sized>(
    s: &Shader,
    vertex_count: u32,
    instance_count: u32,
    dev: &DeviceMemory,
    obs: &mut O,
) -> Result<VertexRun, AbiError> {
    s.check("vertex shader")?;
    let total = vertex_count as usize * instance_count as usize;
    if total > 1 << 24 {
        return Err(AbiError::Config {
            what: format!("{total} vertex invocations (at most 2^24)"),
        });
    }
    let program = Program::new(s.code.clone());
    // what the preamble ran under the opt-in counts with the groups'
    let (uniforms, mut approximated) =
        s.uniforms_after_preamble("vertex preamble", &program, dev, obs)?;
    let mut out = Vec::with_capacity(total);
    let mut tg = vec![];
    for group in 0..total.div_ceil(SIMD_WIDTH) {
        let mut w = WaveState::new(s.nr_gprs);
        w.approximate = s.approximate;
        w.uniforms.copy_from_slice(&uniforms);
        w.textures = s.textures.clone();
        w.samplers = s.samplers.clone();
        for r in 0..s.nr_gprs {
            if r != 5 && r != 6 {
                w.poison_reg32(r);
            }
        }
        let mut active = 0u32;
        let mut ids = vec![];
        for lane in 0..SIMD_WIDTH {
            let flat = group * SIMD_WIDTH + lane;
            if flat >= total {
                continue;
            }
            active |= 1 << lane;
            let vertex_id = (flat % vertex_count as usize) as u32;
            let instance_id = (flat / vertex_count as usize) as u32;
            // r5 and r6 are written only when the shader has them (nr_gprs covers what it uses).
            if s.nr_gprs > 5 {
                w.set_reg32(5, lane, vertex_id);
            }
            if s.nr_gprs > 6 {
                w.set_reg32(6, lane, instance_id);
            }
            ids.push((lane, vertex_id, instance_id));
        }
        w.exec = active;
        w.present = active;
        w.pc = s.main_offset as u64;
        let mut mem = Memories {
            device: dev,
            threadgroup: &mut tg,
        };
        w.slot = Some(group_slot(group, 0));
        let r = run_observed(&mut w, &program, &mut mem, BUDGET, obs);
        finish("vertex shader", group, r, "group")?;
        for (name, n) in std::mem::take(&mut w.approximated) {
            *approximated.entry(name).or_insert(0) += n;
        }
        for (lane, vertex_id, instance_id) in ids {
            out.push(VertexInvocation {
                vertex_id,
                instance_id,
                regs: (0..s.nr_gprs).map(|r| w.reg32(r, lane)).collect(),
                varyings: w
                    .varyings
                    .iter()
                    .filter(|v| v.0 == lane)
                    .map(|v| (v.1, v.2))
                    .collect(),
            });
        }
    }
    Ok(VertexRun {
        invocations: out,
        approximated,
    })
}

/// A fragment draw over a `width` x `height` framebuffer with one render target (Mesa 22.3's
/// compiler emits only render target 0: "todo: MRT").
#[derive(Debug, Clone)]
pub struct FragmentDraw {
    pub width: u32,
    pub height: u32,
    /// Coefficient registers, one plane [A, B, C] each: the value at pixel (x, y) is
    /// A (x + 0.5) + B (y + 0.5) + C (`exec::WaveState::coefficients`).
    pub coefficients: Vec<[f32; 3]>,
    /// The primitive's facing, which `get_sr` sr62 (`backfacing`: 1 for a back-facing primitive,
    /// Mesa's `load_back_face_agx`, from which `agx_lower_front_face` derives gl_FrontFacing)
    /// reads; `None` leaves sr62 unprovided (reading it is a typed error).
    pub back_facing: Option<bool>,
    /// Mesa 25.0: the end-of-tile program run once per tile after its groups (one SIMD group of
    /// 32 threads on the tile buffer, `WaveState::tile_origin` the tile's first pixel), whose
    /// `image_write_block` stores the tile to the render target ([`EndOfTile`]).
    pub end_of_tile: Option<EndOfTile>,
    /// Samples per pixel (1, 2 or 4; more than 1 only for Mesa 25.0's linked programs, whose
    /// epilog and end-of-tile program Mesa compiled for that count): the tile buffer's layout
    /// ([`crate::exec::tile::TileLayout`]), the sample positions (`agx_default_sample_positions`)
    /// and what `get_sr` sr14 (`samples_log2`) and sr124 (`input_sample_mask`) read.
    pub samples: u32,
    /// The primitive drawn (`crate::raster`): each sample's coverage. `None`: it covers every
    /// sample of every pixel of the framebuffer. The coefficient planes stay as given (they are
    /// the hardware's setup of this triangle's varyings; see `coefficients`).
    pub triangle: Option<crate::raster::Triangle>,
}

/// Mesa 25.0's end-of-tile program (`agx_build_end_of_tile_shader`) and what the driver binds
/// for it: texture state 0 is render target 0's PBE descriptor, texture state i render target
/// i's (`more_pbes[i - 1]`). With `clear`, the tile starts as the driver's background program
/// for a clear leaves it (`agx_build_background_shader`: every pixel's tile record holds the
/// clear colour in each render target's format), else zeroed.
#[derive(Debug, Clone)]
pub struct EndOfTile {
    pub code: Vec<u8>,
    pub nr_gprs: usize,
    pub pbe: [u8; 24],
    pub more_pbes: Vec<[u8; 24]>,
    pub clear: Option<[u8; crate::exec::tile::PIXEL_STRIDE]>,
}

/// What a fragment draw left in the tile buffer: each sample's 8 bytes (render target 0 at byte
/// 0), row-major pixels, a pixel's samples in order (index `(y * width + x) * samples + s`).
#[derive(Debug, Clone, PartialEq)]
pub struct FragmentRun {
    pub samples: u32,
    pub pixels: Vec<[u8; crate::exec::tile::PIXEL_STRIDE]>,
    /// Per sample, the depth and stencil `zs_emit` gave it (None: not emitted), indexed as
    /// `pixels`.
    pub depth: Vec<Option<f32>>,
    pub stencil: Vec<Option<u8>>,
    pub approximated: std::collections::BTreeMap<&'static str, u64>,
}

/// Run the fragment shader over the covered pixels: SIMD groups of 8x4 pixels as 2x2 quads
/// (thread 4q + dx + 2dy, the layout of [`crate::abi::run_fragment`]), the tile buffer in
/// threadgroup memory starting zeroed or cleared, every register poisoned (the driver defines no
/// register inputs for a fragment shader), sr80/sr81 the pixel. A linked program that shades
/// samples runs Mesa's own sample loop (`agx_fast_link`'s header and footer are in its code: r1l
/// the sample's bit).
///
/// Coverage: a pixel's covered samples are those of `draw.triangle` (every sample without one)
/// inside the framebuffer. Only quads holding a covered pixel run (a group with none does not);
/// the other threads of such a quad are helpers, run for derivatives, whose device writes the
/// hardware predicates off (`exec::WaveState::helpers`). `get_sr` sr124
/// (`input_sample_mask`, Mesa's `load_sample_mask_in`) reads each thread's covered samples (0 for
/// a helper). Uncovered samples start as killed (`exec::Coverage::killed`), so `st_tile` writes
/// nothing there and `zs_emit`/`sample_mask` neither test nor revive them: the hardware masks
/// tile stores by coverage itself, which Mesa relies on (its epilog's `store_local_pixel_agx`
/// names every sample, `ALL_SAMPLES` 0xFF, `agx_nir_lower_tilebuffer.c`, while its fallback
/// through image stores for spilled render targets, which the hardware does not mask, ANDs
/// `load_sample_mask` in itself; `agx_nir_lower_frag_sidefx.c`: "The hardware will predicate
/// simple writes for us").
pub fn run_fragment(
    s: &Shader,
    draw: &FragmentDraw,
    dev: &DeviceMemory,
) -> Result<FragmentRun, AbiError> {
    run_fragment_observed(s, draw, dev, &mut NoObserver)
}

/// [`run_fragment`] with `obs` seeing the preamble and every SIMD group (the n-th group run, tile
/// by tile, is workgroup (n,0,0), wave 0).
pub fn run_fragment_observed<O: Observer<WaveState, Inst> + ?Sized>(
    s: &Shader,
    draw: &FragmentDraw,
    dev: &DeviceMemory,
    obs: &mut O,
) -> Result<FragmentRun, AbiError> {
    use crate::exec::tile::{TileLayout, PIXEL_STRIDE, TILE_EDGE};
    use crate::exec::{default_sample_positions, Coverage};
    s.check("fragment shader")?;
    let (wpx, hpx) = (draw.width, draw.height);
    if wpx == 0 || hpx == 0 || wpx > 4096 || hpx > 4096 {
        return Err(AbiError::Config {
            what: format!("{wpx} x {hpx} pixels (1 to 4096 each way)"),
        });
    }
    let layout = TileLayout::for_samples(draw.samples).ok_or_else(|| AbiError::Config {
        what: format!("{} samples (1, 2 or 4)", draw.samples),
    })?;
    let positions = default_sample_positions(draw.samples).unwrap_or_default();
    let ns = draw.samples as usize;
    let program = Program::new(s.code.clone());
    // what the preamble ran under the opt-in counts with the groups'
    let (uniforms, mut approximated) =
        s.uniforms_after_preamble("fragment preamble", &program, dev, obs)?;
    let (tiles_x, tiles_y) = (wpx.div_ceil(layout.width), hpx.div_ceil(layout.height));
    let mut pixels = vec![[0u8; PIXEL_STRIDE]; (wpx * hpx) as usize * ns];
    let mut depth = vec![None; (wpx * hpx) as usize * ns];
    let mut stencil = vec![None; (wpx * hpx) as usize * ns];
    let eot_program = draw
        .end_of_tile
        .as_ref()
        .map(|e| Program::new(e.code.clone()));
    let mut group_index = 0;
    for tile in 0..(tiles_x * tiles_y) {
        let (t0x, t0y) = (
            tile % tiles_x * layout.width,
            tile / tiles_x * layout.height,
        );
        let mut tg = vec![0u8; layout.bytes()];
        if let Some(record) = draw.end_of_tile.as_ref().and_then(|e| e.clear) {
            for px in tg.chunks_exact_mut(PIXEL_STRIDE) {
                px.copy_from_slice(&record);
            }
        }
        for gy in (t0y..(t0y + layout.height).min(hpx)).step_by(4) {
            for gx in (t0x..(t0x + layout.width).min(wpx)).step_by(8) {
                let mut w = WaveState::new(s.nr_gprs);
                w.approximate = s.approximate;
                w.uniforms.copy_from_slice(&uniforms);
                w.textures = s.textures.clone();
                w.samplers = s.samplers.clone();
                w.sample_positions = positions.clone();
                w.coverage = Coverage::new(draw.samples);
                w.tile_layout = layout;
                // Coefficients relative to the corner of the 32x32 square holding the group
                // (Mesa's `agx_nir_lower_interpolation` takes the pixel mod 32 whatever the
                // tile buffer's tile size), rounded once to f32.
                let (x0, y0) = (
                    f64::from(gx / TILE_EDGE * TILE_EDGE),
                    f64::from(gy / TILE_EDGE * TILE_EDGE),
                );
                w.coefficients = draw
                    .coefficients
                    .iter()
                    .map(|&[a, b, c]| {
                        let c = f64::from(a).mul_add(x0, f64::from(b).mul_add(y0, f64::from(c)));
                        [a, b, c as f32]
                    })
                    .collect();
                w.poison_all();
                let mut xs = [0u32; SIMD_WIDTH];
                let mut ys = [0u32; SIMD_WIDTH];
                // each thread's covered samples (sr124); `covered`: threads with any
                let mut samples_in = [0u32; SIMD_WIDTH];
                let mut covered = 0u32;
                for lane in 0..SIMD_WIDTH {
                    let q = lane as u32 / 4;
                    xs[lane] = gx + (q % 4) * 2 + (lane as u32 & 1);
                    ys[lane] = gy + (q / 4) * 2 + ((lane as u32 >> 1) & 1);
                    if xs[lane] < wpx && ys[lane] < hpx {
                        samples_in[lane] = match &draw.triangle {
                            Some(t) => t.pixel_coverage(xs[lane], ys[lane], &positions)?.into(),
                            None => layout.all_samples().into(),
                        };
                    }
                    if samples_in[lane] != 0 {
                        covered |= 1 << lane;
                    }
                }
                let active = (0..8)
                    .filter(|q| covered >> (4 * q) & 0xF != 0)
                    .fold(0u32, |m, q| m | 0xF << (4 * q));
                if active == 0 {
                    continue;
                }
                for lane in (0..SIMD_WIDTH).filter(|l| active >> l & 1 == 1) {
                    w.coverage.killed[lane] = layout.all_samples() & !(samples_in[lane] as u8);
                }
                w.special.insert(80, xs);
                w.special.insert(81, ys);
                if let Some(back) = draw.back_facing {
                    w.special.insert(62, [u32::from(back); SIMD_WIDTH]);
                }
                // samples_log2 (Mesa's `load_samples_log2_agx`) and the rasterizer's coverage
                // of each pixel (`load_sample_mask_in`), agx_opcodes.py's sr14 and sr124
                w.special
                    .insert(14, [draw.samples.trailing_zeros(); SIMD_WIDTH]);
                w.special.insert(124, samples_in);
                w.exec = active;
                w.present = active;
                w.helpers = active & !covered;
                w.pc = s.main_offset as u64;
                let mut mem = Memories {
                    device: dev,
                    threadgroup: &mut tg,
                };
                w.slot = Some(group_slot(group_index, 0));
                let r = run_observed(&mut w, &program, &mut mem, BUDGET, obs);
                finish("fragment shader", group_index, r, "group")?;
                for lane in (0..SIMD_WIDTH).filter(|l| covered >> l & 1 == 1) {
                    let cov = &w.coverage;
                    let done = cov.killed.get(lane).copied().unwrap_or(0)
                        | cov.tested.get(lane).copied().unwrap_or(0);
                    // Mesa's sample_mask rule 2: with sample_mask/zs_emit used, every sample is
                    // killed or tested on every path
                    let all = layout.all_samples();
                    if cov.used && done & all != all {
                        return Err(AbiError::AbiViolation {
                            x: xs[lane],
                            y: ys[lane],
                            what: format!(
                                "samples {:#x} neither killed nor tested by sample_mask/zs_emit \
                                 (Mesa's sample_mask rule 2)",
                                all & !done
                            ),
                        });
                    }
                    let pixel = (ys[lane] * wpx + xs[lane]) as usize;
                    for (s, zs) in cov.zs.get(lane).into_iter().flatten().take(ns).enumerate() {
                        if let Some(zs) = zs {
                            depth[pixel * ns + s] = zs.depth;
                            stencil[pixel * ns + s] = zs.stencil;
                        }
                    }
                }
                group_index += 1;
                for (name, n) in std::mem::take(&mut w.approximated) {
                    *approximated.entry(name).or_insert(0) += n;
                }
            }
        }
        if let (Some(eot), Some(program)) = (&draw.end_of_tile, &eot_program) {
            let mut w = WaveState::new(eot.nr_gprs);
            w.poison_all();
            w.textures = std::iter::once(eot.pbe)
                .chain(eot.more_pbes.iter().copied())
                .collect();
            w.tile_origin = Some([t0x, t0y]);
            w.tile_layout = layout;
            w.pc = 0;
            let mut mem = Memories {
                device: dev,
                threadgroup: &mut tg,
            };
            w.slot = Some(group_slot(group_index, 0));
            let r = run_observed(&mut w, program, &mut mem, BUDGET, obs);
            finish("end-of-tile program", tile as usize, r, "tile")?;
            group_index += 1;
        }
        for y in t0y..(t0y + layout.height).min(hpx) {
            for x in t0x..(t0x + layout.width).min(wpx) {
                for sample in 0..draw.samples {
                    let at = layout.offset(x, y, sample);
                    pixels[(y * wpx + x) as usize * ns + sample as usize]
                        .copy_from_slice(&tg[at..at + PIXEL_STRIDE]);
                }
            }
        }
    }
    Ok(FragmentRun {
        samples: draw.samples,
        pixels,
        depth,
        stencil,
        approximated,
    })
}
