//! The buffer resource descriptor, V# (RDNA3 ISA guide, Buffer Instructions, "Buffer resource"): 128 bits in four aligned
//! SGPRs. gfx11 layout (the one AMD's drivers program for RDNA3):
//!
//! | bits      | field          |                                                              |
//! |-----------|----------------|--------------------------------------------------------------|
//! | 47:0      | base_address   | byte address                                                 |
//! | 61:48     | stride         | bytes per record (0..16383)                                  |
//! | 63:62     | swizzle_enable | 0 linear, 1 swizzled with const_element_size 4, 3 with 16    |
//! | 95:64     | num_records    | bytes (raw) or records (structured), see OOB_SELECT          |
//! | 98:96 ... | dst_sel_x..w   | 3 bits each: 0 SEL_0, 1 SEL_1, 4 X, 5 Y, 6 Z, 7 W            |
//! | 114:108   | format         | gfx11 BUF_FMT code (see `formats`)                           |
//! | 118:117   | index_stride   | 8, 16, 32 or 64 records (swizzled addressing)                |
//! | 119       | add_tid_enable | add the lane id to the index                                 |
//! | 125:124   | oob_select     | range-check mode (see `address`)                             |
//! | 127:126   | type           | 0 = buffer; anything else is an image descriptor             |

use crate::decode::opnd;
use crate::exec::operand::read_sgpr;
use crate::wave::Wave;

/// Component selects of V#.dst_sel (RDNA3 ISA "SQ_SEL").
pub mod sel {
    pub const SEL_0: u8 = 0;
    pub const SEL_1: u8 = 1;
    pub const X: u8 = 4;
    pub const Y: u8 = 5;
    pub const Z: u8 = 6;
    pub const W: u8 = 7;
}

/// The reserved V#.swizzle_enable value 2.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ReservedSwizzle;

/// A decoded V#.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BufferResource {
    /// The four raw dwords (word 0 first).
    pub words: [u32; 4],
    pub base: u64,
    pub stride: u32,
    pub swizzle_enable: u8,
    pub num_records: u32,
    pub dst_sel: [u8; 4],
    pub format: u8,
    /// index_stride field (records = 8 << field).
    pub index_stride: u8,
    pub add_tid: bool,
    pub oob_select: u8,
    pub rtype: u8,
}

impl BufferResource {
    /// Decodes the four dwords of a V#.
    pub fn from_words(words: [u32; 4]) -> BufferResource {
        let [w0, w1, w2, w3] = words;
        BufferResource {
            words,
            base: w0 as u64 | ((w1 & 0xffff) as u64) << 32,
            stride: (w1 >> 16) & 0x3fff,
            swizzle_enable: (w1 >> 30) as u8,
            num_records: w2,
            dst_sel: [
                (w3 & 7) as u8,
                (w3 >> 3 & 7) as u8,
                (w3 >> 6 & 7) as u8,
                (w3 >> 9 & 7) as u8,
            ],
            format: (w3 >> 12 & 0x7f) as u8,
            index_stride: (w3 >> 21 & 3) as u8,
            add_tid: w3 >> 23 & 1 != 0,
            oob_select: (w3 >> 28 & 3) as u8,
            rtype: (w3 >> 30) as u8,
        }
    }

    /// The V# in SGPRs `code..code + 4` (the decoder already aligned `code` to 4). TTMPs read as
    /// zero outside the trap handler; NULL cannot hold a V# and reads as all zero, the null
    /// resource (RDNA3 ISA guide, Wave State, "NULL").
    pub fn read(w: &Wave, code: u16) -> BufferResource {
        if code >= opnd::NULL {
            return BufferResource::from_words([0; 4]);
        }
        BufferResource::from_words([
            read_sgpr(w, code),
            read_sgpr(w, code + 1),
            read_sgpr(w, code + 2),
            read_sgpr(w, code + 3),
        ])
    }

    /// All 128 bits zero: loads return 0 and stores are ignored (RDNA3 ISA guide, Buffer Instructions, "Null resource").
    #[inline]
    pub fn is_null(&self) -> bool {
        self.words == [0; 4]
    }

    /// A buffer resource (type 0); anything else makes a buffer instruction a no-op (RDNA3 ISA guide, Buffer Instructions,
    /// "Resource-instruction mismatch").
    #[inline]
    pub fn is_buffer(&self) -> bool {
        self.rtype == 0
    }

    /// Records per swizzle group: 8, 16, 32 or 64.
    #[inline]
    pub fn index_stride_records(&self) -> u32 {
        8 << self.index_stride
    }

    /// const_element_size of swizzled addressing (RDNA3 ISA guide, Buffer Instructions: 4 or 16 bytes), None when addressing
    /// is linear; an error for the reserved value 2.
    #[inline]
    pub fn element_size(&self) -> Result<Option<u32>, ReservedSwizzle> {
        match self.swizzle_enable {
            0 => Ok(None),
            1 => Ok(Some(4)),
            3 => Ok(Some(16)),
            _ => Err(ReservedSwizzle),
        }
    }
}
