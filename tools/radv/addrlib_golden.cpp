// Texel addresses from Mesa's addrlib for gfx1100 (Navi31, family 0x91), the golden file of
// crates/wavesim-rdna3/tests/image_layout.rs. Built and run by tools/radv/addrlib_goldens.sh,
// which compiles addrlib from a Mesa source tree (not committed) and links this program to it.
//
// The device: the GB_ADDR_CONFIG the wavesim amdgpu shim reports to RADV
// (crates/wavesim-drm-amdgpu/src/device.rs), chip revision 0x01 (CHIP_GFX1100).
//
// Output, one surface per "surface" line and its sampled texels after it:
//   surface KIND SW_MODE BPP WIDTH HEIGHT SLICES LEVELS PITCH
//   texel LEVEL SLICE X Y BYTE_OFFSET
// KIND is 1d, 2d or 3d (addrlib's resource type); PITCH is a custom pitch in elements (0: none).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
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
};

static unsigned mip(unsigned x, unsigned m) { return (x >> m) ? (x >> m) : 1; }

int main()
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
   const AddrResourceType d1 = ADDR_RSRC_TEX_1D, d2 = ADDR_RSRC_TEX_2D;
   // Linear surfaces: rows that are and are not multiples of 256 bytes, mip chains, arrays,
   // 1D, and a custom pitch (one level only: addrlib ignores pitchInElement with mips).
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
                  in.numSamples = 1;
                  in.numFrags = 1;
                  in.pitchInElement = s.pitch;
                  ADDR_E_RETURNCODE r = Addr2ComputeSurfaceAddrFromCoord(cout_.hLib, &in, &out);
                  if (r != ADDR_OK) {
                     fprintf(stderr, "addrlib error %d\n", (int)r);
                     return 1;
                  }
                  printf("texel %u %u %u %u %llu\n", level, slice, x, y,
                         (unsigned long long)out.addr);
               }
      }
   }
   AddrDestroy(cout_.hLib);
   return 0;
}
