// Texel addresses from Mesa's addrlib for gfx1100 (Navi31, family 0x91), the golden file of
// crates/wavesim-rdna3/tests/image_layout.rs. Built and run by tools/radv/addrlib_goldens.sh,
// which compiles addrlib from a Mesa source tree (not committed) and links this program to it.
//
// The device: the GB_ADDR_CONFIG the wavesim amdgpu shim reports to RADV
// (crates/wavesim-drm-amdgpu/src/device.rs), chip revision 0x01 (CHIP_GFX1100).
//
// Two outputs:
// - `addrlib_golden equations` writes Rust source: for each 2D swizzle mode wavesim lays out and
//   each element size, the block's dimensions and, for each bit of the byte offset inside the
//   block, which bits of the element x, y and slice coordinates XOR into it. addrlib computes
//   that offset as such an XOR of coordinate bits (Gfx11Lib::ComputeOffsetFromSwizzlePattern over
//   gfx11SwizzlePattern.h's tables, chosen by GetSwizzlePatternInfo for the device's pipes), so
//   the offsets of single-bit coordinates give every bit's terms.
// - with no argument, the golden file: one surface per "surface" line and its sampled texels:
//     surface KIND SW_MODE BPP WIDTH HEIGHT SLICES LEVELS PITCH [XOR]
//     texel LEVEL SLICE X Y BYTE_OFFSET
//   KIND is 1d, 2d or 3d (addrlib's resource type; a 3d surface's SLICES is its depth); PITCH is a custom pitch in elements (0: none);
//   XOR (tiled surfaces) is the pipe/bank XOR as the byte offset it XORs into the block, which a
//   T# carries in its base address bits below the block size.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <vector>
#include "addrinterface.h"

static void *alloc_sys_mem(const ADDR_ALLOCSYSMEM_INPUT *in) { return malloc(in->sizeInBytes); }
static ADDR_E_RETURNCODE free_sys_mem(const ADDR_FREESYSMEM_INPUT *in)
{
   free(in->pVirtAddr);
   return ADDR_OK;
}

struct Surface {
   const char *kind;
   AddrResourceType type;
   unsigned sw_mode, bpp, width, height, slices, levels, pitch;
   unsigned samples; // 0 or 1: single-sampled
};

static unsigned mip(unsigned x, unsigned m) { return (x >> m) ? (x >> m) : 1; }

static ADDR_HANDLE lib;

static unsigned long long addr_of(const Surface &s, unsigned level, unsigned slice, unsigned x,
                                  unsigned y, unsigned pipe_bank_xor, unsigned sample = 0)
{
   const unsigned samples = s.samples > 1 ? s.samples : 1;
   ADDR2_COMPUTE_SURFACE_ADDRFROMCOORD_INPUT in = {};
   ADDR2_COMPUTE_SURFACE_ADDRFROMCOORD_OUTPUT out = {};
   in.size = sizeof(in);
   out.size = sizeof(out);
   in.x = x;
   in.y = y;
   in.slice = slice;
   in.mipId = level;
   in.swizzleMode = (AddrSwizzleMode)s.sw_mode;
   in.resourceType = s.type;
   in.bpp = s.bpp;
   in.unalignedWidth = s.width;
   in.unalignedHeight = s.height;
   in.numSlices = s.slices;
   in.numMipLevels = s.levels;
   in.numSamples = samples;
   in.numFrags = samples;
   in.sample = sample;
   in.pitchInElement = s.pitch;
   in.pipeBankXor = pipe_bank_xor;
   ADDR_E_RETURNCODE r = Addr2ComputeSurfaceAddrFromCoord(lib, &in, &out);
   if (r != ADDR_OK) {
      fprintf(stderr, "addrlib error %d (mode %u, %s, %u x %u x %u, bpp %u)\n", (int)r, s.sw_mode,
              s.kind, s.width, s.height, s.slices, s.bpp);
      exit(1);
   }
   return out.addr;
}

// The 2D swizzle modes of gfx11 with blocks up to 64 KiB, but the _T (PRT) ones
// (Gfx11Rsrc2dSwModeMask in gfx11addrlib.h).
static const unsigned tiled_modes[] = {ADDR_SW_256B_D,   ADDR_SW_4KB_D,    ADDR_SW_64KB_D,
                                       ADDR_SW_4KB_D_X,  ADDR_SW_64KB_Z_X, ADDR_SW_64KB_D_X,
                                       ADDR_SW_64KB_R_X};

// The 3D swizzle modes RADV may pick on gfx11 (Gfx11Rsrc3dSwModeMask without the PRT and
// 256 KiB ones): thick blocks (several slices per block: the S modes and 64KB_D_X) and thin
// ones (64KB_Z_X and 64KB_R_X: one slice per block, Gfx11Rsrc3dThinSwModeMask).
static const unsigned tiled_3d_modes[] = {ADDR_SW_4KB_S,    ADDR_SW_64KB_S,
                                          ADDR_SW_4KB_S_X,  ADDR_SW_64KB_Z_X, ADDR_SW_64KB_S_X,
                                          ADDR_SW_64KB_D_X, ADDR_SW_64KB_R_X};

static unsigned log2u(unsigned x)
{
   unsigned l = 0;
   while ((1u << l) < x)
      l++;
   return l;
}

// One equation: block dimensions and, per offset bit, the x, y and slice (depth) bits XORed
// into it. Returns 0 when addrlib does not lay the mode out for this type and element size.
static int equation(unsigned mode, AddrResourceType type, unsigned e)
{
   const bool three_d = type == ADDR_RSRC_TEX_3D;
   ADDR2_COMPUTE_SURFACE_INFO_INPUT in = {};
   ADDR2_COMPUTE_SURFACE_INFO_OUTPUT out = {};
   in.size = sizeof(in);
   out.size = sizeof(out);
   in.swizzleMode = (AddrSwizzleMode)mode;
   in.resourceType = type;
   in.bpp = 8u << e;
   in.width = in.height = in.numSlices = in.numMipLevels = in.numSamples = 1;
   if (Addr2ComputeSurfaceInfo(lib, &in, &out) != ADDR_OK)
      return 0;
   unsigned bw = out.blockWidth, bh = out.blockHeight, bd = three_d ? out.blockSlices : 1;
   unsigned blk = log2u(bw * bh * bd * (1u << e));
   unsigned lw = log2u(bw), lh = log2u(bh), ld = log2u(bd);
   // x and y bits up to 16383 (the T#'s 14-bit sizes) on a 16384 x 16384 image: the pipe and
   // bank bits also take x and y bits above the block's. The slice (depth) bits on an image of
   // one block across and 8192 slices (the T#'s 13-bit depth).
   const Surface wide = {"2d", type, mode, 8u << e, 16384, 16384, 1, 1, 0};
   const Surface deep = {"2d", type, mode, 8u << e, bw, bh, 8192, 1, 0};
   const unsigned long long pitch_blocks = 16384 >> lw;
   unsigned masks[16][3] = {};
   for (unsigned c = 0; c < 3; c++)
      for (unsigned k = 0; k < 14; k++) {
         unsigned x = c == 0 ? 1u << k : 0, y = c == 1 ? 1u << k : 0;
         unsigned z = c == 2 ? 1u << k : 0;
         if (z >= 8192)
            continue;
         unsigned long long a;
         if (c < 2) {
            // Remove the block's own place: block (x >> lw, y >> lh).
            a = addr_of(wide, 0, 0, x, y, 0);
            a -= ((y >> lh) * pitch_blocks + (x >> lw)) << blk;
         } else {
            // Remove the slice's own place: one block per slab of 2^ld slices.
            a = addr_of(deep, 0, z, 0, 0, 0);
            a -= (unsigned long long)(z >> ld) << blk;
         }
         if (a >> blk) {
            fprintf(stderr, "mode %u: offset %#llx outside the block\n", mode, a);
            exit(1);
         }
         for (unsigned b = 0; b < blk; b++)
            if (a >> b & 1)
               masks[b][c] |= 1u << k;
      }
   printf("    (%u, %u, %u, %u, %u, %u, %u, [", mode, three_d, e, blk, lw, lh, ld);
   for (unsigned b = 0; b < 16; b++)
      printf("%s[%#x, %#x, %#x]", b ? ", " : "", masks[b][0], masks[b][1], masks[b][2]);
   printf("]),\n");
   return 1;
}

// The equation of a multisampled 2D surface (numSamples = numFrags = 2^ls, one fragment per
// sample as on gfx11, which has no FMASK): addrlib addresses its texels with the mode's
// swizzle pattern over (x, y, slice, sample) (Gfx11Lib::ComputeSurfaceAddrFromCoordMacroTiled,
// numSamples > 1). Per offset bit: the x, y, slice and sample bits XORed into it.
static int msaa_equation(unsigned mode, unsigned e, unsigned ls)
{
   const unsigned samples = 1u << ls;
   ADDR2_COMPUTE_SURFACE_INFO_INPUT in = {};
   ADDR2_COMPUTE_SURFACE_INFO_OUTPUT out = {};
   in.size = sizeof(in);
   out.size = sizeof(out);
   in.swizzleMode = (AddrSwizzleMode)mode;
   in.resourceType = ADDR_RSRC_TEX_2D;
   in.bpp = 8u << e;
   in.width = in.height = in.numSlices = in.numMipLevels = 1;
   in.numSamples = in.numFrags = samples;
   if (Addr2ComputeSurfaceInfo(lib, &in, &out) != ADDR_OK)
      return 0;
   unsigned bw = out.blockWidth, bh = out.blockHeight;
   unsigned blk = log2u(bw * bh * samples * (1u << e));
   unsigned lw = log2u(bw), lh = log2u(bh);
   const AddrResourceType d2 = ADDR_RSRC_TEX_2D;
   const Surface wide = {"2d", d2, mode, 8u << e, 16384, 16384, 1, 1, 0, samples};
   const Surface deep = {"2d", d2, mode, 8u << e, bw, bh, 2048, 1, 0, samples};
   const unsigned long long pitch_blocks = 16384 >> lw;
   unsigned masks[16][4] = {};
   for (unsigned c = 0; c < 4; c++)
      for (unsigned k = 0; k < 14; k++) {
         unsigned x = c == 0 ? 1u << k : 0, y = c == 1 ? 1u << k : 0;
         unsigned z = c == 2 ? 1u << k : 0, smp = c == 3 ? 1u << k : 0;
         if (z >= 2048 || smp >= samples)
            continue;
         unsigned long long a;
         if (c == 2) {
            a = addr_of(deep, 0, z, 0, 0, 0) - (unsigned long long)z * (out.sliceSize);
         } else {
            a = addr_of(wide, 0, 0, x, y, 0, smp);
            a -= ((y >> lh) * pitch_blocks + (x >> lw)) << blk;
         }
         if (a >> blk) {
            fprintf(stderr, "msaa mode %u: offset %#llx outside the block\n", mode, a);
            exit(1);
         }
         for (unsigned b = 0; b < blk; b++)
            if (a >> b & 1)
               masks[b][c] |= 1u << k;
      }
   printf("    (%u, %u, %u, %u, %u, %u, [", mode, ls, e, blk, lw, lh);
   for (unsigned b = 0; b < 16; b++)
      printf("%s[%#x, %#x, %#x, %#x]", b ? ", " : "", masks[b][0], masks[b][1], masks[b][2],
             masks[b][3]);
   printf("]),\n");
   return 1;
}

static int equations()
{
   printf("// Generated by tools/radv/addrlib_goldens.sh (tools/radv/addrlib_golden.cpp) from\n"
          "// Mesa 22.3.6's addrlib for gfx1100 with GB_ADDR_CONFIG 0x545; do not edit.\n"
          "// (SW_MODE, 3D, log2 bytes per element, log2 block bytes, log2 block width, height\n"
          "// and depth, per offset bit [x mask, y mask, slice mask]).\n"
          "pub(super) const EQUATIONS: &[Equation] = &[\n");
   for (unsigned mode : tiled_modes)
      for (unsigned e = 0; e < 5; e++) {
         // Z order takes up to 64-bit elements (Gfx11Lib::ValidateSwModeParams).
         if (mode == ADDR_SW_64KB_Z_X && e > 3)
            continue;
         if (!equation(mode, ADDR_RSRC_TEX_2D, e))
            return 1;
      }
   for (unsigned mode : tiled_3d_modes)
      for (unsigned e = 0; e < 5; e++) {
         // addrlib refuses 64-bit and larger elements in 3D 64KB_D_X (ADDR_INVALIDPARAMS from
         // the address computation) and Z order above 64-bit ones.
         if ((mode == ADDR_SW_64KB_Z_X && e > 3) || (mode == ADDR_SW_64KB_D_X && e > 2))
            continue;
         equation(mode, ADDR_RSRC_TEX_3D, e);
      }
   printf("];\n");
   // Multisampled colour: gfx11's MSAA modes (Gfx11MsaaSwModeMask: Z and R order) with 64 KiB
   // blocks; 2, 4 and 8 samples; texels of 1 to 8 bytes (Z order: up to 4, ValidateSwModeParams).
   printf("\n// Multisampled 2D surfaces: (SW_MODE, log2 samples, log2 bytes per element, log2 block\n"
          "// bytes, log2 block width and height, per offset bit [x, y, slice, sample masks]).\n"
          "pub(super) const MSAA_EQUATIONS: &[MsaaEquation] = &[\n");
   for (unsigned mode : {ADDR_SW_64KB_Z_X, ADDR_SW_64KB_R_X})
      for (unsigned ls = 1; ls <= 3; ls++)
         for (unsigned e = 0; e < 4; e++) {
            if (mode == ADDR_SW_64KB_Z_X && e > 2)
               continue;
            msaa_equation(mode, e, ls);
         }
   printf("];\n");
   return 0;
}

int main(int argc, char **argv)
{
   ADDR_CREATE_INPUT cin = {};
   ADDR_CREATE_OUTPUT cout_ = {};
   cin.size = sizeof(cin);
   cout_.size = sizeof(cout_);
   cin.chipEngine = 0xD; // CIASICIDGFXENGINE_ARCTICISLAND (addrlib's core/addrlib.h): gfx9+
   cin.chipFamily = 0x91;   // FAMILY_GFX1100 (amdgpu_asic_addr.h)
   cin.chipRevision = 0x01; // external revision of the shim's device
   cin.regValue.gbAddrConfig = 0x545;
   cin.callbacks.allocSysMem = alloc_sys_mem;
   cin.callbacks.freeSysMem = free_sys_mem;
   if (AddrCreate(&cin, &cout_) != ADDR_OK) {
      fprintf(stderr, "AddrCreate failed\n");
      return 1;
   }
   lib = cout_.hLib;
   if (argc > 1 && !strcmp(argv[1], "equations"))
      return equations();
   const AddrResourceType d1 = ADDR_RSRC_TEX_1D, d2 = ADDR_RSRC_TEX_2D;
   // Linear surfaces: rows that are and are not multiples of 256 bytes, mip chains, arrays,
   // 1D, and a custom pitch (one level only: addrlib ignores pitchInElement with mips); and one
   // tiled surface without a pipe/bank XOR.
   const Surface surfaces[] = {
      {"2d", d2, ADDR_SW_LINEAR, 32, 20, 7, 1, 1, 0},
      {"2d", d2, ADDR_SW_LINEAR, 32, 64, 4, 1, 1, 0},
      {"2d", d2, ADDR_SW_LINEAR, 8, 300, 5, 1, 1, 0},
      {"2d", d2, ADDR_SW_LINEAR, 16, 3, 3, 1, 1, 0},
      {"2d", d2, ADDR_SW_LINEAR, 128, 17, 3, 1, 1, 0},
      {"2d", d2, ADDR_SW_LINEAR, 64, 37, 19, 1, 5, 0},
      {"2d", d2, ADDR_SW_LINEAR, 32, 13, 9, 3, 3, 0},
      {"2d", d2, ADDR_SW_LINEAR, 32, 100, 100, 1, 7, 0},
      {"1d", d1, ADDR_SW_LINEAR, 16, 100, 1, 1, 4, 0},
      {"1d", d1, ADDR_SW_LINEAR, 32, 70, 1, 4, 2, 0},
      {"2d", d2, ADDR_SW_LINEAR, 32, 20, 4, 1, 1, 128},
      {"2d", d2, ADDR_SW_LINEAR, 8, 10, 3, 1, 1, 512},
      // The shader-db harness's 64x64 RGBA8 texture as RADV tiles it (4KB_D_X).
      {"2d", d2, ADDR_SW_4KB_D_X, 32, 64, 64, 1, 1, 0},
   };
   for (const Surface &s : surfaces) {
      printf("surface %s %u %u %u %u %u %u %u\n", s.kind, s.sw_mode, s.bpp, s.width, s.height,
             s.slices, s.levels, s.pitch);
      for (unsigned level = 0; level < s.levels; level++) {
         unsigned w = mip(s.width, level), h = mip(s.height, level);
         std::set<unsigned> xs = {0, 1, w / 3, w / 2, w - 1}, ys = {0, 1, h / 2, h - 1};
         for (unsigned slice = 0; slice < s.slices; slice++)
            for (unsigned y : ys)
               for (unsigned x : xs) {
                  if (x >= w || y >= h)
                     continue;
                  printf("texel %u %u %u %u %llu\n", level, slice, x, y,
                         addr_of(s, level, slice, x, y, 0));
               }
      }
   }
   // Tiled single-level 2D surfaces and arrays: several blocks across and down, widths that are
   // not a multiple of the block, and pipe/bank XORs (the _X modes).
   const Surface tiled[] = {
      {"2d", d2, ADDR_SW_64KB_Z_X, 32, 64, 64, 1, 1, 0},
      {"2d", d2, ADDR_SW_64KB_Z_X, 32, 300, 200, 1, 1, 0},
      {"2d", d2, ADDR_SW_64KB_Z_X, 8, 700, 90, 3, 1, 0},
      {"2d", d2, ADDR_SW_64KB_Z_X, 64, 70, 40, 2, 1, 0},
      {"2d", d2, ADDR_SW_64KB_R_X, 32, 200, 150, 1, 1, 0},
      {"2d", d2, ADDR_SW_64KB_R_X, 64, 33, 65, 2, 1, 0},
      {"2d", d2, ADDR_SW_64KB_D_X, 16, 500, 20, 1, 1, 0},
      {"2d", d2, ADDR_SW_64KB_D, 32, 130, 130, 1, 1, 0},
      {"2d", d2, ADDR_SW_4KB_D_X, 32, 100, 50, 2, 1, 0},
      {"2d", d2, ADDR_SW_4KB_D, 8, 90, 70, 1, 1, 0},
      {"2d", d2, ADDR_SW_256B_D, 32, 30, 20, 1, 1, 0},
      {"2d", d2, ADDR_SW_256B_D, 128, 9, 9, 3, 1, 0},
      {"2d", d2, ADDR_SW_64KB_R_X, 32, 20, 20, 40, 1, 0},
      {"2d", d2, ADDR_SW_4KB_D_X, 16, 40, 10, 300, 1, 0},
      // Mip chains (gfx11's mip tail in the first block of each slice's chain): every
      // element size, Z/R modes with 1- and 2-byte texels (a smaller tail), non-power-of-two
      // sizes (levels sized with ceil), arrays, chains wholly in the tail, 256-byte blocks.
      {"2d", d2, ADDR_SW_64KB_Z_X, 32, 256, 256, 1, 9, 0},
      {"2d", d2, ADDR_SW_64KB_Z_X, 8, 300, 200, 1, 9, 0},
      {"2d", d2, ADDR_SW_64KB_Z_X, 16, 100, 60, 2, 7, 0},
      {"2d", d2, ADDR_SW_64KB_Z_X, 64, 1000, 37, 1, 10, 0},
      {"2d", d2, ADDR_SW_64KB_R_X, 64, 513, 129, 1, 10, 0},
      {"2d", d2, ADDR_SW_64KB_R_X, 8, 77, 300, 3, 9, 0},
      {"2d", d2, ADDR_SW_64KB_D_X, 128, 200, 100, 1, 8, 0},
      {"2d", d2, ADDR_SW_64KB_D_X, 16, 64, 64, 4, 7, 0},
      {"2d", d2, ADDR_SW_64KB_D, 32, 1000, 8, 1, 10, 0},
      {"2d", d2, ADDR_SW_4KB_D_X, 32, 64, 64, 1, 7, 0},
      {"2d", d2, ADDR_SW_4KB_D_X, 64, 64, 64, 6, 7, 0},
      {"2d", d2, ADDR_SW_4KB_D_X, 32, 100, 30, 3, 7, 0},
      {"2d", d2, ADDR_SW_4KB_D, 16, 90, 70, 1, 7, 0},
      {"2d", d2, ADDR_SW_4KB_D_X, 8, 20, 20, 1, 5, 0},
      {"2d", d2, ADDR_SW_256B_D, 32, 30, 20, 1, 5, 0},
      {"2d", d2, ADDR_SW_256B_D, 8, 17, 33, 2, 6, 0},
   };
   const AddrResourceType d3 = ADDR_RSRC_TEX_3D;
   // 3D surfaces (KIND 3d, SLICES the depth): thick and thin modes, several blocks each way.
   const Surface tiled_3d[] = {
      {"3d", d3, ADDR_SW_64KB_S_X, 32, 32, 32, 32, 1, 0},
      {"3d", d3, ADDR_SW_64KB_S_X, 32, 70, 40, 50, 1, 0},
      {"3d", d3, ADDR_SW_64KB_S_X, 8, 100, 60, 20, 1, 0},
      {"3d", d3, ADDR_SW_4KB_S_X, 32, 20, 20, 20, 1, 0},
      {"3d", d3, ADDR_SW_64KB_D_X, 32, 40, 30, 17, 1, 0},
      {"3d", d3, ADDR_SW_64KB_Z_X, 32, 150, 70, 5, 1, 0},
      {"3d", d3, ADDR_SW_64KB_R_X, 16, 60, 200, 3, 1, 0},
      {"3d", d3, ADDR_SW_64KB_S, 32, 40, 40, 40, 1, 0},
      // 3D mip chains: thick (tail block halved in width, 64 KiB, or height, 4 KiB) and thin.
      {"3d", d3, ADDR_SW_64KB_S_X, 32, 64, 64, 64, 7, 0},
      {"3d", d3, ADDR_SW_64KB_S_X, 8, 100, 60, 20, 7, 0},
      {"3d", d3, ADDR_SW_4KB_S_X, 32, 40, 30, 20, 6, 0},
      {"3d", d3, ADDR_SW_4KB_S, 128, 16, 16, 16, 5, 0},
      {"3d", d3, ADDR_SW_64KB_D_X, 32, 40, 30, 17, 6, 0},
      {"3d", d3, ADDR_SW_64KB_Z_X, 32, 100, 50, 5, 7, 0},
      {"3d", d3, ADDR_SW_64KB_R_X, 16, 60, 200, 3, 8, 0},
   };
   const unsigned xors[] = {0, 0x5a, 0x13, 0xff};
   unsigned n = 0;
   std::vector<Surface> all(tiled, tiled + sizeof(tiled) / sizeof(tiled[0]));
   all.insert(all.end(), tiled_3d, tiled_3d + sizeof(tiled_3d) / sizeof(tiled_3d[0]));
   for (const Surface &s : all) {
      const bool is_x = s.sw_mode >= ADDR_SW_4KB_Z_X;
      const unsigned pbx = is_x ? xors[n++ % 4] : 0;
      // The XOR as addrlib applies it: the offset of texel (0, 0) of slice 0 of the one-level
      // surface (in a mip chain level 0 does not start the slice).
      Surface one = s;
      one.levels = 1;
      const unsigned long long eff = addr_of(one, 0, 0, 0, 0, pbx);
      printf("surface %s %u %u %u %u %u %u %u %llu\n", s.kind, s.sw_mode, s.bpp, s.width,
             s.height, s.slices, s.levels, s.pitch, eff);
      if (s.levels > 1) {
         // Mip chains: every level, a few texels of each (the first, second and last slices).
         for (unsigned level = 0; level < s.levels; level++) {
            const unsigned w = mip(s.width, level), h = mip(s.height, level);
            const unsigned d = s.type == ADDR_RSRC_TEX_3D ? mip(s.slices, level) : s.slices;
            std::set<unsigned> xs = {0, 1, 2, w / 3, w / 2, w - 1}, ys = {0, 1, 3, h / 2, h - 1};
            std::set<unsigned> zs = {0, 1, d / 2, d - 1};
            for (unsigned z : zs)
               for (unsigned y : ys)
                  for (unsigned x : xs)
                     if (x < w && y < h && z < d)
                        printf("texel %u %u %u %u %llu\n", level, z, x, y,
                               addr_of(s, level, z, x, y, pbx));
         }
         continue;
      }
      std::set<unsigned> xs = {0, 1, 2, 3, 5, 8, 13, 31, 64, 100, 127, 128, 255, 256, 511,
                               s.width / 2, s.width - 1};
      std::set<unsigned> ys = {0, 1, 2, 3, 6, 9, 17, 33, 64, 65, 127, 128, s.height / 2,
                               s.height - 1};
      std::set<unsigned> slices = {0, 1, 2, 5, 17, 100, 255, s.slices - 1};
      if (s.type == ADDR_RSRC_TEX_3D)
         slices.insert({3, 4, 7, 8, 15, 16, 31, 32, 33});
      for (unsigned slice : slices)
         for (unsigned y : ys)
            for (unsigned x : xs)
               if (x < s.width && y < s.height && slice < s.slices)
                  printf("texel 0 %u %u %u %llu\n", slice, x, y, addr_of(s, 0, slice, x, y, pbx));
   }
   // Multisampled 2D surfaces (one level): "msaa SAMPLES SW_MODE BPP WIDTH HEIGHT SLICES XOR"
   // and "sample SLICE X Y SAMPLE BYTE_OFFSET" lines.
   const Surface msaa[] = {
      {"2d", d2, ADDR_SW_64KB_R_X, 32, 64, 64, 1, 1, 0, 4},
      {"2d", d2, ADDR_SW_64KB_R_X, 32, 300, 130, 1, 1, 0, 4},
      {"2d", d2, ADDR_SW_64KB_R_X, 64, 100, 70, 3, 1, 0, 2},
      {"2d", d2, ADDR_SW_64KB_R_X, 16, 90, 200, 1, 1, 0, 8},
      {"2d", d2, ADDR_SW_64KB_R_X, 8, 129, 33, 2, 1, 0, 4},
      {"2d", d2, ADDR_SW_64KB_Z_X, 32, 200, 100, 1, 1, 0, 4},
      {"2d", d2, ADDR_SW_64KB_Z_X, 16, 70, 70, 2, 1, 0, 8},
      {"2d", d2, ADDR_SW_64KB_Z_X, 8, 40, 300, 1, 1, 0, 2},
   };
   for (const Surface &s : msaa) {
      const unsigned pbx = xors[n++ % 4];
      const unsigned long long eff = addr_of(s, 0, 0, 0, 0, pbx);
      printf("msaa %u %u %u %u %u %u %llu\n", s.samples, s.sw_mode, s.bpp, s.width, s.height,
             s.slices, eff);
      std::set<unsigned> xs = {0, 1, 2, 3, 5, 8, 13, 31, 64, 100, 127, 128, 255, s.width / 2,
                               s.width - 1};
      std::set<unsigned> ys = {0, 1, 2, 3, 6, 9, 17, 33, 64, 65, 127, 128, s.height / 2,
                               s.height - 1};
      std::set<unsigned> slices = {0, 1, s.slices - 1};
      for (unsigned slice : slices)
         for (unsigned y : ys)
            for (unsigned x : xs)
               for (unsigned smp = 0; smp < s.samples; smp++)
                  if (x < s.width && y < s.height && slice < s.slices)
                     printf("sample %u %u %u %u %llu\n", slice, x, y, smp,
                            addr_of(s, 0, slice, x, y, pbx, smp));
   }
   AddrDestroy(cout_.hLib);
   return 0;
}
