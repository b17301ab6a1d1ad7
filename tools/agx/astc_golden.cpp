// Golden ASTC decodes from ARM's astc-encoder (an independent decoder) for wavesim's ASTC
// decoder (crates/wavesim-agx/src/exec/astc). Built and run by tools/agx/astc_golden.sh.
//
// For every 2D footprint and operation mode (L linear LDR, S sRGB, H HDR) it decodes, one block
// at a time through astcenc_decompress_image with FP16 output:
// - blocks astcenc encoded from varied images (gradients, noise, edges, grey ramps, several
//   regions; HDR images in both HDR profiles so HDR alpha (mode 15) and LDR alpha (mode 14)
//   occur; H also decodes the LDR encodings),
// - each encoded block with 1-3 bits flipped, and random 128-bit blocks (some with a
//   void-extent header), which reach reserved modes, illegal encodings and every endpoint mode.
// Each line: MODE BW BH BLOCK(32 hex, byte 0 first) HASH FLAG, HASH the FNV-1a 64 of the FP16
// results (texels in raster order, R G B A, little-endian), FLAG E when every value is NaN
// (astcenc's error colour for an illegal block), N when some are NaN or Inf, else '-'.
// `--dump MODE BW BH HEX` prints one block's FP16 values instead.
#include "astcenc.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static const unsigned FOOT[14][2] = {{4, 4},  {5, 4},  {5, 5},  {6, 5},   {6, 6},   {8, 5},   {8, 6},
                                     {8, 8},  {10, 5}, {10, 6}, {10, 8},  {10, 10}, {12, 10}, {12, 12}};

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd() {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

static astcenc_context *make(astcenc_profile p, unsigned bw, unsigned bh) {
  astcenc_config cfg;
  if (astcenc_config_init(p, bw, bh, 1, ASTCENC_PRE_FAST, 0, &cfg) != ASTCENC_SUCCESS) exit(2);
  astcenc_context *ctx;
  if (astcenc_context_alloc(&cfg, 1, &ctx, nullptr) != ASTCENC_SUCCESS) exit(2);
  return ctx;
}

static const astcenc_swizzle SWZ = {ASTCENC_SWZ_R, ASTCENC_SWZ_G, ASTCENC_SWZ_B, ASTCENC_SWZ_A};

static std::vector<uint16_t> decode(astcenc_context *ctx, unsigned bw, unsigned bh, const uint8_t *b) {
  std::vector<uint16_t> px(bw * bh * 4);
  void *slices[1] = {px.data()};
  astcenc_image img = {bw, bh, 1, ASTCENC_TYPE_F16, slices};
  if (astcenc_decompress_image(ctx, b, 16, &img, &SWZ, 0) != ASTCENC_SUCCESS) exit(3);
  astcenc_decompress_reset(ctx);
  return px;
}

// Blocks astcenc encodes from a 4x3-block image of patterns (hdr: values beyond 1).
static std::vector<uint8_t> encode(astcenc_context *ctx, unsigned bw, unsigned bh, bool hdr) {
  unsigned w = 4 * bw, h = 3 * bh;
  std::vector<float> px(w * h * 4);
  for (unsigned y = 0; y < h; y++)
    for (unsigned x = 0; x < w; x++) {
      unsigned k = x / bw + 4 * (y / bh);
      float u = (x % bw + 0.5f) / bw, v = (y % bh + 0.5f) / bh;
      float n = (rnd() % 1000) / 999.0f;
      float r, g, b, a = 1.0f;
      switch (k % 6) {
      case 0: r = u, g = v, b = 0.5f; break;
      case 1: r = 0.5f + 0.5f * sinf(7 * u), g = 0.5f + 0.5f * cosf(5 * v), b = u * v, a = 0.2f + 0.8f * v; break;
      case 2: r = n, g = (rnd() % 1000) / 999.0f, b = (rnd() % 1000) / 999.0f, a = (rnd() % 1000) / 999.0f; break;
      case 3: r = u > v ? 0.9f : 0.1f, g = u > v ? 0.2f : 0.7f, b = u > v ? 0.4f : 0.95f; break;
      case 4: r = g = b = u * 0.8f + 0.1f * n, a = 1.0f - 0.7f * v; break;
      default: {
        unsigned region = (u < 0.33f) ? 0 : (v < 0.5f ? 1 : 2);
        r = 0.2f + 0.3f * region + 0.05f * n, g = 0.8f - 0.3f * region, b = 0.5f + 0.1f * n;
        a = region == 2 ? 0.5f : 1.0f;
      }
      }
      float s = hdr ? powf(2.0f, (float)(k % 5) * 3.0f - 4.0f) : 1.0f;
      px[4 * (y * w + x) + 0] = r * s;
      px[4 * (y * w + x) + 1] = g * s;
      px[4 * (y * w + x) + 2] = b * s;
      px[4 * (y * w + x) + 3] = hdr && (k % 2) ? a * s : a;
    }
  void *slices[1] = {px.data()};
  astcenc_image img = {w, h, 1, ASTCENC_TYPE_F32, slices};
  std::vector<uint8_t> out(12 * 16);
  if (astcenc_compress_image(ctx, &img, &SWZ, out.data(), out.size(), 0) != ASTCENC_SUCCESS) exit(4);
  astcenc_compress_reset(ctx);
  return out;
}

static void line(char mode, unsigned bw, unsigned bh, const uint8_t *b, const std::vector<uint16_t> &px) {
  uint64_t hash = 0xcbf29ce484222325ull;
  unsigned nan = 0, special = 0;
  for (uint16_t v : px) {
    for (int i = 0; i < 2; i++) {
      hash ^= (v >> (8 * i)) & 0xFF;
      hash *= 0x100000001b3ull;
    }
    if ((v & 0x7C00) == 0x7C00) {
      special++;
      if (v & 0x3FF) nan++;
    }
  }
  printf("%c %u %u ", mode, bw, bh);
  for (int i = 0; i < 16; i++) printf("%02x", b[i]);
  char flag = nan == px.size() ? 'E' : special ? 'N' : '-';
  printf(" %016llx %c\n", (unsigned long long)hash, flag);
}

static astcenc_profile profile_of(char m) {
  return m == 'L' ? ASTCENC_PRF_LDR : m == 'S' ? ASTCENC_PRF_LDR_SRGB : ASTCENC_PRF_HDR;
}

int main(int argc, char **argv) {
  if (argc == 6 && !strcmp(argv[1], "--dump")) {
    unsigned bw = atoi(argv[3]), bh = atoi(argv[4]);
    uint8_t b[16];
    for (int i = 0; i < 16; i++) sscanf(argv[5] + 2 * i, "%2hhx", &b[i]);
    auto px = decode(make(profile_of(argv[2][0]), bw, bh), bw, bh, b);
    for (unsigned i = 0; i < bw * bh; i++)
      printf("%u: %04x %04x %04x %04x\n", i, px[4 * i], px[4 * i + 1], px[4 * i + 2], px[4 * i + 3]);
    return 0;
  }
  for (auto &f : FOOT) {
    unsigned bw = f[0], bh = f[1];
    astcenc_context *ldr = make(ASTCENC_PRF_LDR, bw, bh), *srgb = make(ASTCENC_PRF_LDR_SRGB, bw, bh);
    astcenc_context *hdr = make(ASTCENC_PRF_HDR, bw, bh), *hdr_ldr_a = make(ASTCENC_PRF_HDR_RGB_LDR_A, bw, bh);
    std::vector<uint8_t> enc_l = encode(ldr, bw, bh, false), enc_s = encode(srgb, bw, bh, false);
    std::vector<uint8_t> enc_h = encode(hdr, bw, bh, true), enc_ha = encode(hdr_ldr_a, bw, bh, true);
    struct { char mode; astcenc_context *ctx; std::vector<const std::vector<uint8_t> *> sets; } modes[3] = {
        {'L', ldr, {&enc_l}}, {'S', srgb, {&enc_s}}, {'H', hdr, {&enc_h, &enc_ha, &enc_l}}};
    for (auto &m : modes) {
      std::vector<uint8_t> blocks;
      for (auto *set : m.sets) {
        blocks.insert(blocks.end(), set->begin(), set->end());
        for (size_t i = 0; i < set->size(); i += 16) {
          uint8_t b[16];
          memcpy(b, set->data() + i, 16);
          int flips = 1 + rnd() % 3;
          for (int k = 0; k < flips; k++) {
            unsigned bit = rnd() % 128;
            b[bit / 8] ^= 1 << (bit % 8);
          }
          blocks.insert(blocks.end(), b, b + 16);
        }
      }
      for (int i = 0; i < 32; i++) {
        uint8_t b[16];
        uint64_t lo = rnd(), hi = rnd();
        if (i % 4 == 0) {
          // a void-extent header: bits 0-8 111111100, bit 9 HDR or not, bits 10-11 usually 1
          lo = (lo & ~0xFFFull) | 0x1FC | (rnd() % 8 ? 0xC00 : 0) | (i % 8 ? 0 : 0x200);
          if (i % 16 == 0) lo |= ~0xFFFull & 0xFFFFFFFFFFFFFFFFull; // all-ones extent
        }
        memcpy(b, &lo, 8);
        memcpy(b + 8, &hi, 8);
        blocks.insert(blocks.end(), b, b + 16);
      }
      for (size_t i = 0; i < blocks.size(); i += 16) line(m.mode, bw, bh, &blocks[i], decode(m.ctx, bw, bh, &blocks[i]));
    }
    astcenc_context_free(ldr);
    astcenc_context_free(srgb);
    astcenc_context_free(hdr);
    astcenc_context_free(hdr_ldr_a);
  }
  return 0;
}
