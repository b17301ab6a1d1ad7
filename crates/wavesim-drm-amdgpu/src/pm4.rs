//! The PM4 executor: the command processor's side of the compute (and, for compute work,
//! graphics) ring. It walks type-3 packets (header: type [31:30] = 3, body dwords - 1
//! [29:16], opcode [15:8], shader type [1], predicate [0]; Mesa `sid.h` PKT3 and AMD's
//! "Radeon Southern Islands Programming Guide" / RDNA3 shader ISA CP packet descriptions),
//! keeps the shader registers SET_SH_REG writes, starts waves through `hsa::raw`'s
//! register-level dispatch for DISPATCH_DIRECT/INDIRECT, follows INDIRECT_BUFFER (called and
//! chained), and performs the memory writes of WRITE_DATA, COPY_DATA, DMA_DATA, RELEASE_MEM.
//! Memory is coherent in the emulator and every packet completes before the next starts, so
//! cache flushes (ACQUIRE_MEM, EVENT_WRITE CS_PARTIAL_FLUSH and the cache actions of
//! RELEASE_MEM) have exactly their architectural effect by doing nothing more. An unknown
//! packet, register or field value is an error naming it and its address in the IB.

use thiserror::Error;
use wavesim_rdna3::hsa::raw::{self, RawDispatch, Target, DISPATCH_INITIATOR_CS_W32_EN};

use crate::gfx_draw;
use crate::graphics::{self, Draw, GfxState};
pub use crate::memory::GpuMemory;
use crate::memory::MemoryError;
use crate::regs::{self, Use};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Queue {
    Compute,
    Graphics,
}

/// Where in the command stream something happened: the packet's device address and opcode.
#[derive(Clone, Copy, Debug)]
pub struct At {
    pub va: u64,
    pub opcode: u32,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} (opcode {:#04x}) at {:#x}",
            opcode_name(self.opcode),
            self.opcode,
            self.va
        )
    }
}

#[derive(Debug, Error)]
pub enum Pm4Error {
    #[error("PM4 packet type {ty} (header {header:#010x}) at {va:#x}: only type-3 packets and type-2 filler are executed")]
    PacketType { ty: u32, header: u32, va: u64 },
    #[error("unknown PM4 packet: {at}")]
    UnknownPacket { at: At },
    #[error("{at}: {what}")]
    Unsupported { at: At, what: String },
    #[error("{at}: unknown register {addr:#07x} ({space} space); the emulator does not know what it does")]
    UnknownRegister {
        at: At,
        addr: u32,
        space: &'static str,
    },
    #[error("{at}: packet of {body} body dwords runs past the end of the IB")]
    Truncated { at: At, body: u32 },
    #[error("{at}: {err}")]
    Memory { at: At, err: MemoryError },
    #[error("IB at {va:#x}: {err}")]
    Ib { va: u64, err: MemoryError },
    #[error("{at}: dispatch failed: {err}")]
    Dispatch { at: At, err: raw::RawError },
    #[error("{at}: indirect buffers nested deeper than {0}", MAX_IB_DEPTH)]
    TooDeep { at: At },
    #[error(
        "IB at {va:#x} of {bytes} bytes: more than IB_SIZE's {0} dwords",
        MAX_IB_DWORDS
    )]
    IbSize { va: u64, bytes: u32 },
    #[error("{at}: more than {max} packets in one submission (an IB chain that does not end?)")]
    Endless { at: At, max: u64 },
    #[error("{at}: the draw is not executed: {captured}")]
    Draw { at: At, captured: String },
}

const MAX_IB_DEPTH: u32 = 8;
/// IB_SIZE is a 20-bit dword count (INDIRECT_BUFFER [2] bits 19:0).
const MAX_IB_DWORDS: u32 = 0xf_ffff;
/// Default of [`QueueState::max_packets`].
const MAX_PACKETS: u64 = 1 << 26;

/// PM4 type-3 opcodes this executor knows (Mesa `sid.h` PKT3_* values).
pub mod op {
    pub const NOP: u32 = 0x10;
    pub const SET_BASE: u32 = 0x11;
    pub const CLEAR_STATE: u32 = 0x12;
    pub const INDEX_BUFFER_SIZE: u32 = 0x13;
    pub const DRAW_INDIRECT: u32 = 0x24;
    pub const DRAW_INDEX_INDIRECT: u32 = 0x25;
    pub const INDEX_BASE: u32 = 0x26;
    pub const DRAW_INDEX_2: u32 = 0x27;
    pub const CONTEXT_CONTROL: u32 = 0x28;
    pub const INDEX_TYPE: u32 = 0x2a;
    pub const DRAW_INDIRECT_MULTI: u32 = 0x2c;
    pub const DRAW_INDEX_AUTO: u32 = 0x2d;
    pub const DRAW_INDEX_IMMD: u32 = 0x2e;
    pub const NUM_INSTANCES: u32 = 0x2f;
    pub const DRAW_INDEX_MULTI_AUTO: u32 = 0x30;
    pub const DRAW_INDEX_OFFSET_2: u32 = 0x35;
    pub const DRAW_INDEX_INDIRECT_MULTI: u32 = 0x38;
    pub const PFP_SYNC_ME: u32 = 0x42;
    pub const SET_UCONFIG_REG_INDEX: u32 = 0x7a;
    pub const SET_SH_REG_INDEX: u32 = 0x9b;
    pub const DISPATCH_DIRECT: u32 = 0x15;
    pub const DISPATCH_INDIRECT: u32 = 0x16;
    pub const WRITE_DATA: u32 = 0x37;
    pub const WAIT_REG_MEM: u32 = 0x3c;
    pub const INDIRECT_BUFFER: u32 = 0x3f;
    pub const COPY_DATA: u32 = 0x40;
    pub const EVENT_WRITE: u32 = 0x46;
    pub const RELEASE_MEM: u32 = 0x49;
    pub const DMA_DATA: u32 = 0x50;
    pub const ACQUIRE_MEM: u32 = 0x58;
    pub const SET_CONTEXT_REG: u32 = 0x69;
    pub const SET_SH_REG: u32 = 0x76;
    pub const SET_UCONFIG_REG: u32 = 0x79;
    pub const LOAD_CONTEXT_REG_INDEX: u32 = 0x9f;
}

pub fn opcode_name(op: u32) -> &'static str {
    match op {
        op::NOP => "NOP",
        op::SET_BASE => "SET_BASE",
        op::DISPATCH_DIRECT => "DISPATCH_DIRECT",
        op::DISPATCH_INDIRECT => "DISPATCH_INDIRECT",
        op::WRITE_DATA => "WRITE_DATA",
        op::WAIT_REG_MEM => "WAIT_REG_MEM",
        op::INDIRECT_BUFFER => "INDIRECT_BUFFER",
        op::COPY_DATA => "COPY_DATA",
        op::EVENT_WRITE => "EVENT_WRITE",
        op::RELEASE_MEM => "RELEASE_MEM",
        op::DMA_DATA => "DMA_DATA",
        op::ACQUIRE_MEM => "ACQUIRE_MEM",
        op::SET_CONTEXT_REG => "SET_CONTEXT_REG",
        op::SET_SH_REG => "SET_SH_REG",
        op::SET_UCONFIG_REG => "SET_UCONFIG_REG",
        op::CLEAR_STATE => "CLEAR_STATE",
        op::INDEX_BUFFER_SIZE => "INDEX_BUFFER_SIZE",
        op::DRAW_INDIRECT => "DRAW_INDIRECT",
        op::DRAW_INDEX_INDIRECT => "DRAW_INDEX_INDIRECT",
        op::INDEX_BASE => "INDEX_BASE",
        op::DRAW_INDEX_2 => "DRAW_INDEX_2",
        op::CONTEXT_CONTROL => "CONTEXT_CONTROL",
        op::INDEX_TYPE => "INDEX_TYPE",
        op::DRAW_INDIRECT_MULTI => "DRAW_INDIRECT_MULTI",
        op::DRAW_INDEX_AUTO => "DRAW_INDEX_AUTO",
        op::DRAW_INDEX_IMMD => "DRAW_INDEX_IMMD",
        op::NUM_INSTANCES => "NUM_INSTANCES",
        op::DRAW_INDEX_MULTI_AUTO => "DRAW_INDEX_MULTI_AUTO",
        op::DRAW_INDEX_OFFSET_2 => "DRAW_INDEX_OFFSET_2",
        op::DRAW_INDEX_INDIRECT_MULTI => "DRAW_INDEX_INDIRECT_MULTI",
        op::PFP_SYNC_ME => "PFP_SYNC_ME",
        op::SET_UCONFIG_REG_INDEX => "SET_UCONFIG_REG_INDEX",
        op::SET_SH_REG_INDEX => "SET_SH_REG_INDEX",
        op::LOAD_CONTEXT_REG_INDEX => "LOAD_CONTEXT_REG_INDEX",
        0x1e => "ATOMIC_MEM",
        0x20 => "SET_PREDICATION",
        0x22 => "COND_EXEC",
        0x5e => "LOAD_UCONFIG_REG",
        0x5f => "LOAD_SH_REG",
        0x61 => "LOAD_CONTEXT_REG",
        _ => "unknown packet",
    }
}

/// VGT event types this executor performs (Mesa `sid.h` V_028A90_*): waits for earlier work
/// and cache actions, all complete by construction here.
fn event_name(ev: u32) -> Option<&'static str> {
    Some(match ev {
        0x04 => "CACHE_FLUSH_TS",
        0x06 => "CACHE_FLUSH",
        0x07 => "CS_PARTIAL_FLUSH",
        0x0f => "VS_PARTIAL_FLUSH",
        0x10 => "PS_PARTIAL_FLUSH",
        0x14 => "CACHE_FLUSH_AND_INV_TS_EVENT",
        0x16 => "CACHE_FLUSH_AND_INV_EVENT",
        // Start/stop counting pipeline statistics: the counters are not modelled, and the
        // event that would expose them (SAMPLE_PIPELINESTAT, 0x1e) is refused.
        0x19 => "PIPELINESTAT_START",
        0x1a => "PIPELINESTAT_STOP",
        0x28 => "BOTTOM_OF_PIPE_TS",
        // Colour/depth metadata caches (DCC, CMASK, HTILE): memory is coherent here.
        0x2c => "FLUSH_AND_INV_DB_META",
        0x2e => "FLUSH_AND_INV_CB_META",
        0x2f => "FLUSH_AND_INV_CB_DATA_TS",
        _ => return None,
    })
}

/// The register state of one hardware queue.
#[derive(Clone, Debug)]
pub struct QueueState {
    pub queue: Queue,
    sh: Vec<Option<u32>>,
    /// Context and user-config registers and the draw packets' state (graphics ring).
    pub gfx: GfxState,
    /// Where draws are captured (WAVESIM_DRM_CAPTURE), if anywhere.
    pub capture: Option<std::path::PathBuf>,
    /// Total waves' instructions, for statistics.
    pub dispatches: u64,
    /// Watchdog: most instructions one wave may execute.
    pub max_wave_insts: u64,
    /// Most packets one submission may execute: a chain of IBs that never ends would
    /// otherwise hang the application's ioctl.
    pub max_packets: u64,
}

impl QueueState {
    pub fn new(queue: Queue) -> QueueState {
        let max_wave_insts = std::env::var("WAVESIM_DRM_MAX_WAVE_INSTRUCTIONS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1 << 32);
        QueueState {
            queue,
            sh: vec![None; 0x400],
            gfx: GfxState::default(),
            capture: graphics::capture_dir(),
            dispatches: 0,
            max_wave_insts,
            max_packets: MAX_PACKETS,
        }
    }

    fn sh(&self, addr: u32) -> u32 {
        self.sh[regs::slot(addr)].unwrap_or(0)
    }
}

struct Ctx<'a> {
    mem: &'a dyn GpuMemory,
    st: &'a mut QueueState,
    /// Packets executed in this submission (an IB chain that loops forever is stopped).
    packets: u64,
    /// The refused draw, when capturing: the rest of the submission is walked only to record
    /// state and capture later draws (nothing else is performed), then this error fails it.
    refused: Option<Pm4Error>,
}

/// Executes the IB of `bytes` bytes at `va`.
pub fn execute(
    mem: &dyn GpuMemory,
    st: &mut QueueState,
    va: u64,
    bytes: u32,
) -> Result<(), Pm4Error> {
    if bytes / 4 > MAX_IB_DWORDS {
        return Err(Pm4Error::IbSize { va, bytes });
    }
    let mut c = Ctx {
        mem,
        st,
        packets: 0,
        refused: None,
    };
    let walked = c.run_ib(va, bytes / 4, 0);
    match c.refused {
        Some(draw) => Err(draw),
        None => walked,
    }
}

impl Ctx<'_> {
    fn read_ib(&self, va: u64, dwords: u32) -> Result<Vec<u32>, Pm4Error> {
        let mut b = vec![0u8; dwords as usize * 4];
        self.mem
            .read(va, &mut b)
            .map_err(|err| Pm4Error::Ib { va, err })?;
        Ok(b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    }

    fn run_ib(&mut self, mut va: u64, mut dwords: u32, depth: u32) -> Result<(), Pm4Error> {
        'ib: loop {
            let ib = self.read_ib(va, dwords)?;
            let mut i = 0usize;
            while i < ib.len() {
                let header = ib[i];
                let at_va = va + 4 * i as u64;
                match header >> 30 {
                    2 => {
                        // Type-2: a one-dword filler.
                        i += 1;
                        continue;
                    }
                    3 => {}
                    ty => {
                        return Err(Pm4Error::PacketType {
                            ty,
                            header,
                            va: at_va,
                        })
                    }
                }
                let opcode = (header >> 8) & 0xff;
                let count = (header >> 16) & 0x3fff;
                let at = At { va: at_va, opcode };
                self.packets += 1;
                if self.packets > self.st.max_packets {
                    return Err(Pm4Error::Endless {
                        at,
                        max: self.st.max_packets,
                    });
                }
                // NOP with count 0x3fff is the one-dword pad (Mesa: PKT3_NOP_PAD).
                if opcode == op::NOP && count == 0x3fff {
                    i += 1;
                    continue;
                }
                let body_len = count as usize + 1;
                if i + 1 + body_len > ib.len() {
                    return Err(Pm4Error::Truncated {
                        at,
                        body: body_len as u32,
                    });
                }
                let body = &ib[i + 1..i + 1 + body_len];
                i += 1 + body_len;
                if header & 1 != 0 {
                    return Err(
                        self.unsupported(at, "predicated packets (PREDICATE bit) are not executed")
                    );
                }
                if opcode == op::INDIRECT_BUFFER {
                    let (target, size, chain) = self.indirect_buffer(at, body)?;
                    if chain {
                        // The rest of this IB is not executed: the CP continues there.
                        va = target;
                        dwords = size;
                        continue 'ib;
                    }
                    if depth + 1 >= MAX_IB_DEPTH {
                        return Err(Pm4Error::TooDeep { at });
                    }
                    self.run_ib(target, size, depth + 1)?;
                    continue;
                }
                if crate::log::debug_enabled() {
                    crate::log::report(&format!("pm4 {at}: {body:08x?}"));
                }
                if self.refused.is_some() && !records_state(opcode) {
                    // The submission has failed: nothing more is performed.
                    continue;
                }
                match self.packet(at, body) {
                    Err(e @ Pm4Error::Draw { .. }) if self.st.capture.is_some() => {
                        if self.refused.is_none() {
                            self.refused = Some(e);
                        }
                    }
                    Err(e) if self.refused.is_some() => {
                        // Stop walking; the draw's error is the submission's.
                        crate::log::report(&format!("capture walk stopped: {e}"));
                        return Ok(());
                    }
                    r => r?,
                }
            }
            return Ok(());
        }
    }

    fn unsupported(&self, at: At, what: impl Into<String>) -> Pm4Error {
        Pm4Error::Unsupported {
            at,
            what: what.into(),
        }
    }

    fn want(&self, at: At, body: &[u32], n: usize) -> Result<(), Pm4Error> {
        if body.len() != n {
            return Err(self.unsupported(at, format!("{} body dwords (expected {n})", body.len())));
        }
        Ok(())
    }

    /// The body of a one-dword packet.
    fn one(&self, at: At, body: &[u32]) -> Result<u32, Pm4Error> {
        self.want(at, body, 1)?;
        Ok(body[0])
    }

    fn mem_err(at: At) -> impl Fn(MemoryError) -> Pm4Error {
        move |err| Pm4Error::Memory { at, err }
    }

    fn write_u32s(&self, at: At, va: u64, data: &[u32]) -> Result<(), Pm4Error> {
        let bytes: Vec<u8> = data.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.mem.write(va, &bytes).map_err(Self::mem_err(at))
    }

    fn read_u32(&self, at: At, va: u64) -> Result<u32, Pm4Error> {
        let mut b = [0u8; 4];
        self.mem.read(va, &mut b).map_err(Self::mem_err(at))?;
        Ok(u32::from_le_bytes(b))
    }

    /// INDIRECT_BUFFER: [0] address low (4-aligned), [1] address high, [2] IB_SIZE [19:0]
    /// dwords, CHAIN [20], VALID [23] (Mesa `sid.h` S_3F2_*).
    fn indirect_buffer(&self, at: At, body: &[u32]) -> Result<(u64, u32, bool), Pm4Error> {
        self.want(at, body, 3)?;
        let va = (body[0] & !3) as u64 | (body[1] as u64 & 0xffff) << 32;
        let size = body[2] & 0xf_ffff;
        let chain = body[2] >> 20 & 1 != 0;
        let valid = body[2] >> 23 & 1 != 0;
        // The compute micro engine (MEC) needs VALID; the graphics ring's ME runs the IB
        // without it (RADV's graphics preamble call sets only the size).
        if !valid && self.st.queue == Queue::Compute {
            return Err(self.unsupported(at, "INDIRECT_BUFFER without VALID on the compute ring"));
        }
        Ok((va, size, chain))
    }

    fn packet(&mut self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        match at.opcode {
            op::NOP => Ok(()),
            op::SET_SH_REG => self.set_sh_reg(at, body),
            op::SET_SH_REG_INDEX => {
                // INDEX [31:28] 3 (CP_MODIFY_CU_MASK, Mesa `radeon_set_sh_reg_idx`): the CP
                // ANDs the value's CU-mask fields with the kernel's CU mask, which selects CUs
                // only; 0 is a plain write.
                let index = body.first().copied().unwrap_or(0) >> 28;
                if index != 0 && index != 3 {
                    return Err(self.unsupported(at, format!("SET_SH_REG_INDEX index {index}")));
                }
                let mut plain = body.to_vec();
                plain[0] &= 0xffff;
                self.set_sh_reg(at, &plain)
            }
            op::SET_CONTEXT_REG | op::SET_UCONFIG_REG | op::SET_UCONFIG_REG_INDEX => {
                self.set_gfx_reg(at, body)
            }
            op::CONTEXT_CONTROL => {
                // [0] LOAD_CONTROL, [1] SHADOW_ENABLE, each with UPDATE [31]: RADV sets only
                // the update bits (no register shadowing, nothing loaded from memory).
                self.want(at, body, 2)?;
                if body != [1 << 31, 1 << 31] {
                    return Err(self.unsupported(
                        at,
                        format!(
                            "CONTEXT_CONTROL load {:#x} shadow {:#x}: register shadowing/loading is not supported",
                            body[0], body[1]
                        ),
                    ));
                }
                Ok(())
            }
            op::CLEAR_STATE => {
                self.want(at, body, 1)?;
                if body[0] != 0 {
                    return Err(self.unsupported(at, format!("CLEAR_STATE {:#x}", body[0])));
                }
                self.st.gfx.clear_context();
                Ok(())
            }
            // The prefetch parser waits for the micro engine: packets run in order here.
            op::PFP_SYNC_ME => self.want(at, body, 1),
            op::NUM_INSTANCES => {
                self.st.gfx.num_instances = Some(self.one(at, body)?);
                Ok(())
            }
            op::INDEX_TYPE => {
                self.st.gfx.index_type = Some(self.one(at, body)?);
                Ok(())
            }
            op::INDEX_BASE => {
                self.want(at, body, 2)?;
                self.st.gfx.index_base = Some(body[0] as u64 | (body[1] as u64 & 0xffff) << 32);
                Ok(())
            }
            op::INDEX_BUFFER_SIZE => {
                self.st.gfx.index_buffer_size = Some(self.one(at, body)?);
                Ok(())
            }
            op::SET_BASE => {
                self.want(at, body, 3)?;
                self.st.gfx.set_base =
                    Some((body[0], body[1] as u64 | (body[2] as u64 & 0xffff) << 32));
                Ok(())
            }
            op::DRAW_INDEX_AUTO
            | op::DRAW_INDEX_2
            | op::DRAW_INDEX_OFFSET_2
            | op::DRAW_INDIRECT
            | op::DRAW_INDEX_INDIRECT
            | op::DRAW_INDIRECT_MULTI
            | op::DRAW_INDEX_INDIRECT_MULTI
            | op::DRAW_INDEX_MULTI_AUTO
            | op::DRAW_INDEX_IMMD => self.draw(at, body),
            op::DISPATCH_DIRECT => {
                self.want(at, body, 4)?;
                self.dispatch(at, [body[0], body[1], body[2]], body[3])
            }
            op::DISPATCH_INDIRECT => {
                // On the compute ring (MEC): [0] address low, [1] address high, [2]
                // DISPATCH_INITIATOR; the dimensions are three dwords in memory.
                if self.st.queue != Queue::Compute || body.len() != 3 {
                    return Err(self.unsupported(
                        at,
                        "DISPATCH_INDIRECT with a SET_BASE offset (graphics ring form)",
                    ));
                }
                let va = body[0] as u64 | (body[1] as u64) << 32;
                let dims = [
                    self.read_u32(at, va)?,
                    self.read_u32(at, va + 4)?,
                    self.read_u32(at, va + 8)?,
                ];
                self.dispatch(at, dims, body[2])
            }
            op::LOAD_CONTEXT_REG_INDEX => self.load_context_reg_index(at, body),
            op::WRITE_DATA => self.write_data(at, body),
            op::COPY_DATA => self.copy_data(at, body),
            op::DMA_DATA => self.dma_data(at, body),
            op::ACQUIRE_MEM => {
                // gfx10+ form: COHER_CNTL, size (2), base (2), poll interval, GCR_CNTL.
                self.want(at, body, 7)?;
                Ok(())
            }
            op::EVENT_WRITE => {
                let ev = body.first().copied().unwrap_or(0) & 0x3f;
                match event_name(ev) {
                    Some(_) if body.len() == 1 => Ok(()),
                    _ => Err(self.unsupported(
                        at,
                        format!(
                            "EVENT_WRITE of event type {ev:#x} with {} body dwords",
                            body.len()
                        ),
                    )),
                }
            }
            op::RELEASE_MEM => self.release_mem(at, body),
            op::WAIT_REG_MEM => self.wait_reg_mem(at, body),
            _ => Err(Pm4Error::UnknownPacket { at }),
        }
    }

    /// A draw: executed (`gfx_draw`), or, when WAVESIM_DRM_CAPTURE names a directory,
    /// captured and refused (the capture records the pipeline as RADV programmed it; the rest
    /// of the submission is walked only to capture later draws).
    fn draw(&mut self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        let Some(dir) = self.st.capture.clone() else {
            return self.execute_draw(at, body);
        };
        let draw = Draw {
            packet: opcode_name(at.opcode),
            opcode: at.opcode,
            va: at.va,
            body,
        };
        let captured =
            match graphics::capture(&dir, &draw, &self.st.gfx, &self.st.sh[..0x200], self.mem) {
                Ok(path) => format!(
                    "capturing (WAVESIM_DRM_CAPTURE): pipeline captured to {}",
                    path.display()
                ),
                Err(e) => format!("capturing (WAVESIM_DRM_CAPTURE): the capture failed: {e}"),
            };
        Err(Pm4Error::Draw { at, captured })
    }

    /// Executes a draw from the recorded state (`gfx_draw`): DRAW_INDEX_AUTO ([0] vertex count,
    /// [1] VGT_DRAW_INITIATOR with SOURCE_SELECT [1:0] = 2, auto-index) and DRAW_INDEX_2 ([0]
    /// index buffer size, [1..2] index address, [3] index count, [4] initiator with
    /// SOURCE_SELECT 0, DMA). Other draw packets and initiator bits are refused.
    fn execute_draw(&mut self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        let packet = match (at.opcode, body) {
            (op::DRAW_INDEX_AUTO, &[count, 2]) => gfx_draw::DrawPacket::Auto { count },
            (op::DRAW_INDEX_2, &[_, lo, hi, count, 0]) => gfx_draw::DrawPacket::Indexed {
                va: lo as u64 | (hi as u64 & 0xffff) << 32,
                count,
            },
            _ => {
                return Err(Pm4Error::Draw {
                    at,
                    captured: format!(
                        "{} with body {body:#x?} is not executed (DRAW_INDEX_AUTO and DRAW_INDEX_2 are)",
                        opcode_name(at.opcode)
                    ),
                })
            }
        };
        let sh = |a: u32| self.st.sh.get(regs::slot(a)).copied().flatten();
        match gfx_draw::execute(packet, &self.st.gfx, &sh, self.mem, self.st.max_wave_insts) {
            Ok(summary) => {
                if crate::log::debug_enabled() {
                    crate::log::report(&format!(
                        "{} at {:#x}: {summary}",
                        opcode_name(at.opcode),
                        at.va
                    ));
                }
                Ok(())
            }
            Err(e) => Err(Pm4Error::Draw { at, captured: e }),
        }
    }

    /// SET_CONTEXT_REG / SET_UCONFIG_REG[_INDEX]: [0] register offset in dwords from the
    /// space's base [15:0] (INDEX [31:28] for the _INDEX form: 1 primitive type, 2 index type,
    /// which the CP writes like the plain form); then consecutive values, each recorded under
    /// its gfx11 name.
    fn set_gfx_reg(&mut self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        if body.len() < 2 {
            return Err(self.unsupported(at, "register write without a value"));
        }
        let (base, space, index_ok) = match at.opcode {
            op::SET_CONTEXT_REG => (graphics::CONTEXT_BASE, "context", 0..=0),
            op::SET_UCONFIG_REG => (graphics::UCONFIG_BASE, "user-config", 0..=0),
            _ => (graphics::UCONFIG_BASE, "user-config", 0..=2),
        };
        let index = body[0] >> 28;
        if body[0] >> 16 & 0xfff != 0 || !index_ok.contains(&index) {
            return Err(self.unsupported(at, format!("register offset dword {:#x}", body[0])));
        }
        let first = base + (body[0] & 0xffff) * 4;
        for (k, &v) in body[1..].iter().enumerate() {
            let addr = first + 4 * k as u32;
            if graphics::name(addr).is_none() || self.st.gfx.set(addr, v).is_none() {
                return Err(Pm4Error::UnknownRegister { at, addr, space });
            }
        }
        Ok(())
    }

    /// LOAD_CONTEXT_REG_INDEX, as RADV loads the depth/stencil clear values (Mesa
    /// `radv_load_ds_clear_metadata`) and colour clear words: [0] INDEX [0] (0: the address is
    /// direct) with the address bits [31:2], [1] address high, [2] REG_OFFSET [15:0] (dwords from
    /// 0x28000) and DATA_FORMAT [31] (0: offset and count), [3] NUM_DWORDS [13:0]; the context
    /// registers take consecutive dwords from memory. Other forms are refused.
    fn load_context_reg_index(&mut self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        self.want(at, body, 4)?;
        if body[0] & 3 != 0 || body[2] >> 16 != 0 || body[3] >> 14 != 0 {
            return Err(self.unsupported(
                at,
                format!("LOAD_CONTEXT_REG_INDEX {body:#x?}: only direct addresses with offset and count"),
            ));
        }
        let va = body[0] as u64 | (body[1] as u64) << 32;
        let first = graphics::CONTEXT_BASE + (body[2] & 0xffff) * 4;
        for k in 0..body[3] {
            let v = self.read_u32(at, va + 4 * k as u64)?;
            let addr = first + 4 * k;
            if !(graphics::CONTEXT_BASE..graphics::CONTEXT_END).contains(&addr)
                || graphics::name(addr).is_none()
                || self.st.gfx.set(addr, v).is_none()
            {
                return Err(Pm4Error::UnknownRegister {
                    at,
                    addr,
                    space: "context",
                });
            }
        }
        Ok(())
    }

    /// SET_SH_REG: [0] register offset in dwords from 0xb000 [15:0]; then consecutive values.
    fn set_sh_reg(&mut self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        if body.len() < 2 {
            return Err(self.unsupported(at, "SET_SH_REG without a value"));
        }
        if body[0] >> 16 != 0 {
            return Err(
                self.unsupported(at, format!("SET_SH_REG index field {:#x}", body[0] >> 16))
            );
        }
        let first = regs::SH_BASE + (body[0] & 0xffff) * 4;
        for (k, &v) in body[1..].iter().enumerate() {
            let addr = first + 4 * k as u32;
            // The graphics stages' registers are recorded for the draw capture. SET_SH_REG's
            // 16-bit offset reaches past SH space into context and user-config registers,
            // which `graphics::name` also knows: only SH addresses are stored here.
            let graphics_sh =
                (graphics::SH_GRAPHICS_BASE..graphics::SH_GRAPHICS_END).contains(&addr);
            if regs::sh_reg(addr).is_none() && graphics_sh && graphics::name(addr).is_some() {
                self.st.sh[regs::slot(addr)] = Some(v);
                continue;
            }
            let reg = regs::sh_reg(addr).ok_or(Pm4Error::UnknownRegister {
                at,
                addr,
                space: "SH",
            })?;
            match reg.usage {
                Use::Dispatch | Use::NoFunctionalEffect(_) => {
                    self.st.sh[regs::slot(addr)] = Some(v)
                }
            }
        }
        Ok(())
    }

    /// Starts the waves of one dispatch from the registers (COMPUTE_DISPATCH_INITIATOR fields
    /// as in Mesa `sid.h` S_00B800_*: COMPUTE_SHADER_EN [0], PARTIAL_TG_EN [1],
    /// FORCE_START_AT_000 [2], ORDERED_APPEND_ENBL [3], ORDERED_APPEND_MODE [4],
    /// USE_THREAD_DIMENSIONS [5], ORDER_MODE [6], SCALAR_L1_INV_VOL [10], VECTOR_L1_INV_VOL
    /// [11], TUNNEL_ENABLE [13], RESTORE [14], CS_W32_EN [15]).
    fn dispatch(&mut self, at: At, dims: [u32; 3], initiator: u32) -> Result<(), Pm4Error> {
        if initiator & 1 == 0 {
            return Err(self.unsupported(at, "DISPATCH_INITIATOR.COMPUTE_SHADER_EN is 0"));
        }
        const HANDLED: u32 =
            1 | 1 << 1 | 1 << 2 | 1 << 6 | 1 << 10 | 1 << 11 | DISPATCH_INITIATOR_CS_W32_EN;
        let partial_tg = initiator & 1 << 1 != 0;
        let bad = initiator & !HANDLED;
        if bad != 0 {
            let name = match bad.trailing_zeros() {
                3 => "ORDERED_APPEND_ENBL",
                4 => "ORDERED_APPEND_MODE",
                5 => "USE_THREAD_DIMENSIONS",
                13 => "TUNNEL_ENABLE",
                14 => "RESTORE",
                _ => "a reserved or unknown bit",
            };
            return Err(self.unsupported(
                at,
                format!("DISPATCH_INITIATOR {initiator:#x}: {name} is not supported"),
            ));
        }
        let st = &*self.st;
        if initiator & 1 << 2 == 0 {
            let start = [
                st.sh(regs::COMPUTE_START_X),
                st.sh(regs::COMPUTE_START_Y),
                st.sh(regs::COMPUTE_START_Z),
            ];
            if start != [0; 3] {
                return Err(self.unsupported(
                    at,
                    format!("dispatch starting at workgroup {start:?} (COMPUTE_START_X/Y/Z) is not supported"),
                ));
            }
        }
        // COMPUTE_NUM_THREAD_*: NUM_THREAD_FULL [15:0], NUM_THREAD_PARTIAL [31:16].
        let mut local = [0u32; 3];
        let mut partial_items = [0u32; 3];
        for (k, r) in [
            regs::COMPUTE_NUM_THREAD_X,
            regs::COMPUTE_NUM_THREAD_Y,
            regs::COMPUTE_NUM_THREAD_Z,
        ]
        .into_iter()
        .enumerate()
        {
            let v = st.sh(r);
            // PARTIAL_TG_EN: the last group of each dimension has NUM_THREAD_PARTIAL
            // work-items when that is non-zero (Mesa's radv_emit_dispatch_packets writes the
            // remainder of unaligned grids there, DISPATCH_DIRECT counting groups rounded up).
            // Without PARTIAL_TG_EN the field must be 0.
            let full = v & 0xffff;
            let partial = v >> 16;
            if !partial_tg && partial != 0 || partial > full {
                return Err(self.unsupported(
                    at,
                    format!(
                        "COMPUTE_NUM_THREAD_{}.NUM_THREAD_PARTIAL = {partial} (NUM_THREAD_FULL {full}, \
                         PARTIAL_TG_EN {})",
                        ["X", "Y", "Z"][k],
                        partial_tg as u32
                    ),
                ));
            }
            local[k] = full;
            partial_items[k] = partial;
        }
        let pgm =
            ((st.sh(regs::COMPUTE_PGM_HI) as u64) << 32 | st.sh(regs::COMPUTE_PGM_LO) as u64) << 8;
        let rsrc2 = st.sh(regs::COMPUTE_PGM_RSRC2);
        let wave64 = initiator & DISPATCH_INITIATOR_CS_W32_EN == 0;
        // COMPUTE_TMPRING_SIZE: WAVES [11:0], WAVESIZE [24:12] in 256-byte units per wave
        // (gfx11; RADV programs WAVESIZE = ceil(bytes per wave / 256)). The per-lane size
        // raw dispatch needs is a wave's share.
        let tmpring = st.sh(regs::COMPUTE_TMPRING_SIZE);
        let scratch_lane_bytes = if rsrc2 & 1 != 0 {
            let per_wave = (tmpring >> 12 & 0x1fff) * 256;
            if per_wave == 0 {
                return Err(self.unsupported(
                    at,
                    "COMPUTE_PGM_RSRC2.SCRATCH_EN with COMPUTE_TMPRING_SIZE.WAVESIZE 0",
                ));
            }
            per_wave / if wave64 { 64 } else { 32 }
        } else {
            0
        };
        let user: Vec<u32> = (0..16)
            .map(|k| st.sh(regs::COMPUTE_USER_DATA_0 + 4 * k))
            .collect();
        if dims.contains(&0) {
            // An empty grid starts no waves.
            return Ok(());
        }
        let code = self.mem.host_slice(pgm).map_err(Self::mem_err(at))?;
        let ranges = self.mem.ranges();
        let d = RawDispatch {
            code,
            groups: dims,
            local,
            user_sgprs: &user,
            rsrc1: st.sh(regs::COMPUTE_PGM_RSRC1),
            rsrc2,
            rsrc3: st.sh(regs::COMPUTE_PGM_RSRC3),
            wave64,
            scratch_lane_bytes,
            target: Target::Gfx1100,
            host_ranges: Some(&ranges),
            max_wave_insts: st.max_wave_insts,
        };
        // SAFETY: the code and every range are live shared mappings of the device memory
        // (memory.rs); no other thread touches them while the shim's lock is held, except
        // the application through its own CPU mappings, as on real hardware.
        unsafe { raw::run_partial(&d, partial_items) }
            .map_err(|err| Pm4Error::Dispatch { at, err })?;
        self.st.dispatches += 1;
        Ok(())
    }

    /// WRITE_DATA: [0] control: DST_SEL [11:8] (2 = TC_L2, 5 = memory), WR_ONE_ADDR [16],
    /// WR_CONFIRM [20], ENGINE_SEL [31:30]; [1..2] address; then the data.
    fn write_data(&self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        if body.len() < 4 {
            return Err(self.unsupported(at, "WRITE_DATA without data"));
        }
        let dst_sel = body[0] >> 8 & 0xf;
        if dst_sel != 2 && dst_sel != 5 {
            return Err(self.unsupported(
                at,
                format!("WRITE_DATA DST_SEL {dst_sel} (only memory: 2, 5)"),
            ));
        }
        let va = body[1] as u64 | (body[2] as u64) << 32;
        let data = &body[3..];
        if body[0] >> 16 & 1 != 0 {
            // WR_ONE_ADDR: every dword goes to the same address; the last one stays.
            for d in data {
                self.write_u32s(at, va, &[*d])?;
            }
            return Ok(());
        }
        self.write_u32s(at, va, data)
    }

    /// COPY_DATA: [0] SRC_SEL [3:0], DST_SEL [11:8], COUNT_SEL [16] (64-bit), WR_CONFIRM
    /// [20]; [1..2] source (address or immediate), [3..4] destination address.
    fn copy_data(&self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        self.want(at, body, 5)?;
        let src_sel = body[0] & 0xf;
        let dst_sel = body[0] >> 8 & 0xf;
        let wide = body[0] >> 16 & 1 != 0;
        let n = if wide { 8 } else { 4 };
        let src = body[1] as u64 | (body[2] as u64) << 32;
        let dst = body[3] as u64 | (body[4] as u64) << 32;
        let mut val = [0u8; 8];
        match src_sel {
            // COPY_DATA_SRC_MEM (1), COPY_DATA_TC_L2 (2)
            1 | 2 => self
                .mem
                .read(src, &mut val[..n])
                .map_err(Self::mem_err(at))?,
            // COPY_DATA_IMM
            5 => val = src.to_le_bytes(),
            s => return Err(self.unsupported(at, format!("COPY_DATA SRC_SEL {s}"))),
        }
        match dst_sel {
            // COPY_DATA_TC_L2 (2), COPY_DATA_DST_MEM (5)
            2 | 5 => self.mem.write(dst, &val[..n]).map_err(Self::mem_err(at)),
            s => Err(self.unsupported(at, format!("COPY_DATA DST_SEL {s}"))),
        }
    }

    /// DMA_DATA (CP DMA): [0] DST_SEL [21:20], SRC_SEL [30:29], CP_SYNC [31]; [1..2] source
    /// address or data; [3..4] destination; [5] BYTE_COUNT [25:0], SAS [26], DAS [27], SAIC
    /// [28], DAIC [29], RAW_WAIT [30], DIS_WC [31] (Mesa `sid.h` S_411_* / S_415_*).
    fn dma_data(&self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        self.want(at, body, 6)?;
        let dst_sel = body[0] >> 20 & 3;
        let src_sel = body[0] >> 29 & 3;
        let count = (body[5] & 0x3ff_ffff) as usize;
        let cmd = body[5] >> 26;
        if cmd & 0xf != 0 {
            return Err(self.unsupported(
                at,
                format!(
                    "DMA_DATA command bits {:#x} (register space or no-increment addressing)",
                    body[5] & 0x3c00_0000
                ),
            ));
        }
        let src = body[1] as u64 | (body[2] as u64) << 32;
        let dst = body[3] as u64 | (body[4] as u64) << 32;
        let bytes = match src_sel {
            // SRC_ADDR (0), SRC_ADDR_TC_L2 (3)
            0 | 3 => {
                let mut b = vec![0u8; count];
                self.mem.read(src, &mut b).map_err(Self::mem_err(at))?;
                b
            }
            // DATA: the dword in [1] repeated (fills).
            2 => body[1]
                .to_le_bytes()
                .iter()
                .copied()
                .cycle()
                .take(count)
                .collect(),
            s => return Err(self.unsupported(at, format!("DMA_DATA SRC_SEL {s} (GDS)"))),
        };
        match dst_sel {
            0 | 3 => self.mem.write(dst, &bytes).map_err(Self::mem_err(at)),
            // DST_NOWHERE: a prefetch into L2; no memory changes.
            2 => Ok(()),
            s => Err(self.unsupported(at, format!("DMA_DATA DST_SEL {s} (GDS)"))),
        }
    }

    /// RELEASE_MEM (gfx10+): [0] EVENT_TYPE [5:0], EVENT_INDEX [11:8], cache actions; [1]
    /// DST_SEL [17:16], INT_SEL [26:24], DATA_SEL [31:29]; [2..3] address; [4..5] data; [6]
    /// interrupt context id. DATA_SEL: 0 none, 1 low 32 bits, 2 64 bits, 3 the 64-bit GPU
    /// clock.
    fn release_mem(&self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        self.want(at, body, 7)?;
        let ev = body[0] & 0x3f;
        if event_name(ev).is_none() {
            return Err(self.unsupported(at, format!("RELEASE_MEM event type {ev:#x}")));
        }
        let dst_sel = body[1] >> 16 & 3;
        let data_sel = body[1] >> 29;
        let va = body[2] as u64 | (body[3] as u64) << 32;
        let data = body[4] as u64 | (body[5] as u64) << 32;
        if data_sel != 0 && dst_sel > 1 {
            return Err(self.unsupported(at, format!("RELEASE_MEM DST_SEL {dst_sel}")));
        }
        match data_sel {
            0 => Ok(()),
            1 => self.write_u32s(at, va, &[data as u32]),
            2 => self
                .mem
                .write(va, &data.to_le_bytes())
                .map_err(Self::mem_err(at)),
            3 => {
                let mut t = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                // SAFETY: valid out pointer.
                unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut t) };
                let ticks = (t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64) / 10;
                self.mem
                    .write(va, &ticks.to_le_bytes())
                    .map_err(Self::mem_err(at))
            }
            s => Err(self.unsupported(at, format!("RELEASE_MEM DATA_SEL {s}"))),
        }
    }

    /// WAIT_REG_MEM: [0] FUNCTION [2:0], MEM_SPACE [4], OPERATION [7:6]; [1..2] address;
    /// [3] reference; [4] mask; [5] poll interval. Nothing else runs while the CP waits, so
    /// a condition that does not hold now never will: that is reported (the GPU would hang).
    fn wait_reg_mem(&self, at: At, body: &[u32]) -> Result<(), Pm4Error> {
        self.want(at, body, 6)?;
        let func = body[0] & 7;
        if body[0] >> 4 & 1 == 0 || body[0] >> 6 & 3 != 0 {
            return Err(
                self.unsupported(at, "WAIT_REG_MEM on a register or with a write operation")
            );
        }
        let va = (body[1] & !3) as u64 | (body[2] as u64) << 32;
        let v = self.read_u32(at, va)? & body[4];
        let r = body[3];
        let ok = match func {
            0 => true,
            1 => v < r,
            2 => v <= r,
            3 => v == r,
            4 => v != r,
            5 => v >= r,
            6 => v > r,
            _ => return Err(self.unsupported(at, "WAIT_REG_MEM function 7")),
        };
        if !ok {
            return Err(self.unsupported(at, format!("WAIT_REG_MEM at {va:#x}: value {v:#x} never satisfies function {func} against {r:#x} (the queue would hang)")));
        }
        Ok(())
    }
}

/// The packets a submission still walks after its draw was refused for the capture: register
/// state, draw state and draws.
fn records_state(opcode: u32) -> bool {
    matches!(
        opcode,
        op::NOP
            | op::SET_SH_REG
            | op::SET_SH_REG_INDEX
            | op::SET_CONTEXT_REG
            | op::SET_UCONFIG_REG
            | op::SET_UCONFIG_REG_INDEX
            | op::CONTEXT_CONTROL
            | op::CLEAR_STATE
            | op::NUM_INSTANCES
            | op::INDEX_TYPE
            | op::INDEX_BASE
            | op::INDEX_BUFFER_SIZE
            | op::SET_BASE
            | op::DRAW_INDEX_AUTO
            | op::DRAW_INDEX_2
            | op::DRAW_INDEX_OFFSET_2
            | op::DRAW_INDIRECT
            | op::DRAW_INDEX_INDIRECT
            | op::DRAW_INDIRECT_MULTI
            | op::DRAW_INDEX_INDIRECT_MULTI
            | op::DRAW_INDEX_MULTI_AUTO
            | op::DRAW_INDEX_IMMD
    )
}
