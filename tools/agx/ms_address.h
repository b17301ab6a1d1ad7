/* wavesim tools (glsl_graphics.c, glsl_compute.c): where a twiddled multisampled image holds
 * sample s of pixel (x, y), as libagx's libagx_image_texel_address computes it for Mesa's own
 * stores (the pixel's twiddled index in ail's level-0 tile over the width aligned to the tile,
 * Morton order inside a tile with x in the even bits, shifted by log2 of the count, plus s); GL
 * has no upload path for multisampled images, so ail_tile's handling of them is not used.
 * Returns the index in samples (times the format's bytes: the byte offset). */
#pragma once

#include "asahi/layout/layout.h"
#include "util/u_math.h"

static inline unsigned
wavesim_ms_sample_index(const struct ail_layout *layout, unsigned x, unsigned y, unsigned s)
{
   unsigned tw = layout->tilesize_el[0].width_el, th = layout->tilesize_el[0].height_el;
   unsigned aligned = ALIGN_POT(layout->width_px, tw);
   unsigned ox = x & (tw - 1), oy = y & (th - 1), morton = 0;
   for (unsigned bit = 0; bit < 16; ++bit)
      morton |= ((ox >> bit) & 1) << (2 * bit) | ((oy >> bit) & 1) << (2 * bit + 1);
   unsigned px = (y & ~(th - 1)) * aligned + (x & ~(tw - 1)) * th + morton;
   return (px << util_logbase2(layout->sample_count_sa)) + s;
}
