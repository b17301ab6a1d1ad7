/*
 * wavesim: compile a GLSL compute shader (as Vulkan SPIR-V from glslangValidator -V) with Mesa
 * 25.0.7's asahi compiler, for G13, into the precompiled-kernel form Mesa's asahi_clc writes
 * (struct agx_precompiled_kernel_info followed by the binary), so wavesim_agx::kernel::GridKernel
 * dispatches it like Mesa's own libagx kernels.
 *
 * Mesa 25.0's gallium driver cannot be probed under the no-op DRM shim (agx_screen_create), so this
 * drives the compiler directly, running the NIR passes the gallium driver runs on a compute shader
 * (agx_shader_initialize and agx_compile_nir in src/gallium/drivers/asahi/agx_state.c: texture
 * lowering, scalarize and vectorize memory access with agx_mem_vectorize_cb, agx_preprocess_nir
 * with libagx, agx_compile_shader_nir with promote_constants and has_scratch). What differs is
 * only where the driver's system values live: the gallium driver puts each SSBO's base address in
 * its uniform table (agx_nir_lower_sysvals, ssbo_base[]); here binding N's 64-bit base address is
 * the kernel argument at byte 8N, and the push-constant block follows the bindings, both loaded
 * with load_preamble as asahi_clc's load_kernel_input loads kernel arguments. Shared variables are
 * laid out with natural alignment (the GL state tracker's rule) and addressed as 32-bit offsets.
 *
 * Textures and images are bound as the gallium driver binds them for GL (agx_nir_lower_bindings,
 * agx_upload_textures/agx_upload_samplers): a sampler's binding N is GL texture unit N and texture
 * state register tsN (nir_lower_samplers: texture_index = binding), its sampler state ss(N + 1)
 * (agx_nir_lower_texture offsets bound samplers by one; ss0 is agx_pack_txf_sampler's, for texel
 * fetches); an image's binding N is GL image unit N, whose TEXTURE descriptor (loads) is state
 * register 2N + T and PBE descriptor (stores) 2N + T + 1, T = BITSET_LAST_BIT(textures_used).
 * What the driver reaches through its bindless texture table instead (agx_nir_needs_texture_crawl:
 * image atomics, size queries, array layers, texel fetches of a level; or a state index from 16
 * on) becomes bindless as there: the handle is (the uniform holding the table's 64-bit address,
 * index x 24), the table being the state array in memory (agx_upload_textures' texture_base).
 * Here the table's address is the kernel argument `table`, after the push constants.
 *
 * Usage: glsl_compute IN.spv OUT.blob [RESOURCES]   (prints the argument layout: "arg OFFSET
 * COMPONENTS BITS NAME"). RESOURCES lines `texture|image BINDING 2d|2darray|3d|cube FORMAT W H D
 * LINEAR` give each texture's and image's level 0 (LINEAR: the texels row by row, layer by layer;
 * a last field `levels=N,BASE`: a 2D resource of N levels, LINEAR holding them all in order, its
 * image view, TEXTURE's first/last level and PBE's Level, at level BASE; DIM `2dms` (D = 1)
 * or `2dmsarray` (D layers) with a last field `samples=S`: a multisampled image or texture,
 * LINEAR layer by layer, each pixel's samples in turn);
 * for each the tool writes OUT.blob.KINDBINDING.bin, laid out by ail as the driver allocates it, and
 * prints `state INDEX KIND BINDING SIZE W0..W5` (cmdbuf.xml TEXTURE for textures and image loads,
 * and for images also PBE, as agx_pack_texture / agx_batch_upload_pbe pack them, address 0) and
 * `sampler_state INDEX W0 W1` (GL's sampler with NEAREST filters, clamp to edge, no mipmaps; an
 * optional last field `linear` makes the filters LINEAR, `seamless` also turns GL's
 * TEXTURE_CUBE_MAP_SEAMLESS on, `border=R,G,B,A` clamps to that border colour, printed as
 * `border INDEX W0..W3`, cmdbuf.xml BORDER).
 * Build: tools/agx/build_glsl_compute.sh (against tools/mesa/build_new.sh's tree).
 */

#include "asahi/compiler/agx_compile.h"
#include "asahi/compiler/agx_nir.h"
#include "asahi/compiler/agx_nir_texture.h"
#include "asahi/genxml/agx_pack.h"
#include "asahi/layout/layout.h"
#include "asahi/lib/agx_helpers.h"
#include "asahi/lib/libagx_shaders.h"
#include "compiler/glsl_types.h"
#include "compiler/spirv/nir_spirv.h"
#include "nir.h"
#include "nir_builder.h"
#include "nir_serialize.h"
#include "util/blob.h"
#include "util/format/u_formats.h"
#include "ms_address.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BINDINGS 16
/* gallium agx_state.h: texture state registers the driver binds before going bindless */
#define AGX_NUM_TEXTURE_STATE_REGS 16

static const struct spirv_to_nir_options spirv_options = {
   .environment = NIR_SPIRV_VULKAN,
   .ubo_addr_format = nir_address_format_64bit_global,
   .ssbo_addr_format = nir_address_format_64bit_global,
   .phys_ssbo_addr_format = nir_address_format_64bit_global,
   .push_const_addr_format = nir_address_format_32bit_offset,
   .shared_addr_format = nir_address_format_32bit_offset,
   .min_ubo_alignment = 16,
   .min_ssbo_alignment = 16,
};

struct layout {
   unsigned push_base_B; /* byte offset of the push-constant block in the arguments */
   unsigned bindings;    /* highest binding used + 1 */
   bool failed;
};

static void
optimize(nir_shader *nir)
{
   bool progress;
   do {
      progress = false;
      NIR_PASS(progress, nir, nir_split_var_copies);
      NIR_PASS(progress, nir, nir_lower_var_copies);
      NIR_PASS(progress, nir, nir_lower_vars_to_ssa);
      NIR_PASS(progress, nir, nir_copy_prop);
      NIR_PASS(progress, nir, nir_opt_remove_phis);
      NIR_PASS(progress, nir, nir_opt_dce);
      NIR_PASS(progress, nir, nir_opt_dead_cf);
      NIR_PASS(progress, nir, nir_opt_cse);
      NIR_PASS(progress, nir, nir_opt_peephole_select, 64, false, true);
      NIR_PASS(progress, nir, nir_opt_algebraic);
      NIR_PASS(progress, nir, nir_opt_constant_folding);
      NIR_PASS(progress, nir, nir_opt_deref);
      NIR_PASS(progress, nir, nir_opt_copy_prop_vars);
      NIR_PASS(progress, nir, nir_opt_undef);
      NIR_PASS(progress, nir, nir_opt_loop_unroll);
   } while (progress);
}

/* Descriptor set 0's buffers: binding N's address is the argument at byte 8N. */
static bool
lower_descriptors(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   struct layout *l = data;
   b->cursor = nir_before_instr(&intr->instr);
   switch (intr->intrinsic) {
   case nir_intrinsic_vulkan_resource_index: {
      unsigned binding = nir_intrinsic_binding(intr);
      if (nir_intrinsic_desc_set(intr) != 0 || binding >= MAX_BINDINGS ||
          !nir_src_is_const(intr->src[0]) || nir_src_as_uint(intr->src[0]) != 0) {
         fprintf(stderr, "glsl_compute: only set 0, bindings below %u, no arrays\n",
                 MAX_BINDINGS);
         l->failed = true;
         return false;
      }
      l->bindings = MAX2(l->bindings, binding + 1);
      nir_def_replace(&intr->def, nir_load_preamble(b, 1, 64, .base = binding * 4));
      return true;
   }
   case nir_intrinsic_load_vulkan_descriptor:
      nir_def_replace(&intr->def, intr->src[0].ssa);
      return true;
   default:
      return false;
   }
}

/* The push-constant block follows the bindings; only constant offsets, 16-bit aligned. */
static bool
lower_push_constants(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   struct layout *l = data;
   if (intr->intrinsic != nir_intrinsic_load_push_constant)
      return false;
   b->cursor = nir_before_instr(&intr->instr);
   unsigned offset_B = nir_intrinsic_base(intr);
   if (!nir_src_is_const(intr->src[0]) || intr->def.bit_size < 16) {
      fprintf(stderr, "glsl_compute: push constants need constant offsets and >= 16 bits\n");
      l->failed = true;
      return false;
   }
   offset_B += nir_src_as_uint(intr->src[0]) + l->push_base_B;
   if (offset_B % 2) {
      l->failed = true;
      return false;
   }
   nir_def_replace(&intr->def, nir_load_preamble(b, intr->def.num_components,
                                                 intr->def.bit_size, .base = offset_B / 2));
   return true;
}

static void *read_file(const char *path, size_t *size);

/* Image derefs to GL image units: binding N is unit N (no arrays of images). */
static bool
lower_image_derefs(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   bool *failed = data;
   switch (intr->intrinsic) {
   case nir_intrinsic_image_deref_load:
   case nir_intrinsic_image_deref_store:
   case nir_intrinsic_image_deref_atomic:
   case nir_intrinsic_image_deref_atomic_swap:
   case nir_intrinsic_image_deref_size:
   case nir_intrinsic_image_deref_samples:
      break;
   default:
      return false;
   }
   nir_deref_instr *deref = nir_src_as_deref(intr->src[0]);
   if (deref->deref_type != nir_deref_type_var) {
      fprintf(stderr, "glsl_compute: arrays of images are not placed\n");
      *failed = true;
      return false;
   }
   b->cursor = nir_before_instr(&intr->instr);
   nir_rewrite_image_intrinsic(intr, nir_imm_int(b, deref->var->data.binding), false);
   return true;
}

/* agx_nir_lower_bindings (gallium driver, Mesa 25.0) for constant indices: textures stay at their
 * index, image loads take the TEXTURE descriptor at 2N + T, stores and atomics the PBE at
 * 2N + T + 1; a descriptor crawl or an index from 16 on goes bindless through the table. */
struct bindings {
   bool failed;
   bool pbe;              /* a store or atomic takes a PBE state register */
   unsigned textures_end; /* BITSET_LAST_BIT(textures_used): the texture units used */
};

/* The texture units used, as the GL state tracker records them in textures_used (its
 * sampler uniforms' units); spirv_to_nir's variables leave info.textures_used empty here. */
static bool
max_texture_unit(nir_builder *b, nir_instr *instr, void *data)
{
   unsigned *end = data;
   if (instr->type == nir_instr_type_tex)
      *end = MAX2(*end, nir_instr_as_tex(instr)->texture_index + 1);
   return false;
}

static bool
lower_bindings(nir_builder *b, nir_instr *instr, void *data)
{
   struct bindings *st = data;
   bool *failed = &st->failed;
   bool crawl = agx_nir_needs_texture_crawl(instr);
   b->cursor = nir_before_instr(instr);
   if (instr->type == nir_instr_type_tex) {
      nir_tex_instr *tex = nir_instr_as_tex(instr);
      if (tex->sampler_index >= 15 ||
          nir_tex_instr_src_index(tex, nir_tex_src_texture_offset) >= 0 ||
          nir_tex_instr_src_index(tex, nir_tex_src_sampler_offset) >= 0) {
         fprintf(stderr, "glsl_compute: indirect or high texture/sampler index\n");
         *failed = true;
         return false;
      }
      if (tex->texture_index < AGX_NUM_TEXTURE_STATE_REGS && !crawl)
         return false;
      nir_tex_instr_add_src(tex, nir_tex_src_texture_handle,
                            nir_load_texture_handle_agx(b, nir_imm_int(b, tex->texture_index)));
      return true;
   }
   if (instr->type != nir_instr_type_intrinsic)
      return false;
   nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
   nir_intrinsic_op bindless;
   switch (intr->intrinsic) {
   case nir_intrinsic_image_load: bindless = nir_intrinsic_bindless_image_load; break;
   case nir_intrinsic_image_store: bindless = nir_intrinsic_bindless_image_store; break;
   case nir_intrinsic_image_size: bindless = nir_intrinsic_bindless_image_size; break;
   case nir_intrinsic_image_samples: bindless = nir_intrinsic_bindless_image_samples; break;
   case nir_intrinsic_image_atomic: bindless = nir_intrinsic_bindless_image_atomic; break;
   case nir_intrinsic_image_atomic_swap:
      bindless = nir_intrinsic_bindless_image_atomic_swap;
      break;
   default:
      return false;
   }
   /* reads and queries take the TEXTURE descriptor, writes and atomics the PBE after it */
   bool pbe = intr->intrinsic != nir_intrinsic_image_load &&
              intr->intrinsic != nir_intrinsic_image_size &&
              intr->intrinsic != nir_intrinsic_image_samples;
   unsigned offset = st->textures_end + pbe;
   nir_scalar index = nir_scalar_resolved(intr->src[0].ssa, 0);
   if (!nir_scalar_is_const(index)) {
      fprintf(stderr, "glsl_compute: indirect image index\n");
      *failed = true;
      return false;
   }
   unsigned idx = nir_scalar_as_uint(index) * 2 + offset;
   if (idx < AGX_NUM_TEXTURE_STATE_REGS && !crawl) {
      nir_src_rewrite(&intr->src[0], nir_imm_intN_t(b, idx, 16));
      st->pbe |= pbe;
      return true;
   }
   nir_atomic_op op = nir_intrinsic_has_atomic_op(intr) ? nir_intrinsic_atomic_op(intr)
                                                        : nir_atomic_op_iadd;
   intr->intrinsic = bindless;
   if (nir_intrinsic_has_atomic_op(intr))
      nir_intrinsic_set_atomic_op(intr, op);
   nir_src_rewrite(&intr->src[0], nir_load_texture_handle_agx(b, nir_imm_int(b, idx)));
   return true;
}

/* The driver's texture_base sysval (agx_nir_lower_sysvals' load_texture_handle, then
 * agx_nir_layout_uniforms): the handle is (uniform of the table's 64-bit address, index x 24);
 * here that uniform is the `table` argument's. */
static bool
lower_texture_handle(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   unsigned *table_uniform = data;
   if (intr->intrinsic != nir_intrinsic_load_texture_handle_agx)
      return false;
   b->cursor = nir_before_instr(&intr->instr);
   nir_def *handle = nir_vec2(b, nir_imm_int(b, *table_uniform),
                              nir_imul_imm(b, nir_u2u32(b, intr->src[0].ssa),
                                           AGX_TEXTURE_LENGTH));
   nir_def_replace(&intr->def, handle);
   return true;
}

static bool
uses_texture_handle(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   if (intr->intrinsic == nir_intrinsic_load_texture_handle_agx)
      *(bool *)data = true;
   return false;
}

/* The sampler's LOD bias (the driver's `lod_bias` sysval): GL's default, 0. */
static bool
lower_lod_bias(nir_builder *b, nir_instr *instr, void *data)
{
   if (instr->type != nir_instr_type_tex)
      return false;
   nir_tex_instr *tex = nir_instr_as_tex(instr);
   if (tex->op != nir_texop_lod_bias_agx)
      return false;
   b->cursor = nir_before_instr(instr);
   nir_def_replace(&tex->def, nir_imm_floatN_t(b, 0.0, tex->def.bit_size));
   return true;
}

static const struct {
   const char *name;
   enum pipe_format format;
} formats[] = {
   {"rgba8", PIPE_FORMAT_R8G8B8A8_UNORM},   {"rgba8ui", PIPE_FORMAT_R8G8B8A8_UINT},
   {"r32f", PIPE_FORMAT_R32_FLOAT},         {"r32ui", PIPE_FORMAT_R32_UINT},
   {"r32i", PIPE_FORMAT_R32_SINT},          {"rg16i", PIPE_FORMAT_R16G16_SINT},
   {"rgba16f", PIPE_FORMAT_R16G16B16A16_FLOAT}, {"rgba32f", PIPE_FORMAT_R32G32B32A32_FLOAT},
   {"rg32f", PIPE_FORMAT_R32G32_FLOAT},     {"r16ui", PIPE_FORMAT_R16_UINT},
   {"astc4x4", PIPE_FORMAT_ASTC_4x4},       {"astc6x5", PIPE_FORMAT_ASTC_6x5},
};

static void
print_state(unsigned index, const char *kind, unsigned binding, uint64_t size, const void *desc)
{
   const uint32_t *w = desc;
   printf("state %u %s %u %" PRIu64, index, kind, binding, size);
   for (unsigned i = 0; i < 6; ++i)
      printf(" %u", w[i]);
   printf("\n");
}

/* A TEXTURE descriptor's format fields: the format's channels and type, and its swizzle (channels
 * it lacks read as GL's 0, 0, 0, 1), as agx_pack_texture composes the view's identity swizzle
 * with it. */
static void
texture_format(struct AGX_TEXTURE *cfg, enum pipe_format format)
{
   const struct util_format_description *desc = util_format_description(format);
   cfg->channels = ail_pixel_format[format].channels;
   cfg->type = ail_pixel_format[format].type;
   cfg->swizzle_r = agx_channel_from_pipe(desc->swizzle[0]);
   cfg->swizzle_g = agx_channel_from_pipe(desc->swizzle[1]);
   cfg->swizzle_b = agx_channel_from_pipe(desc->swizzle[2]);
   cfg->swizzle_a = agx_channel_from_pipe(desc->swizzle[3]);
}

/* A PBE descriptor's format fields as agx_batch_upload_pbe sets them: the format's channel i
 * takes component i. */
static void
pbe_format(struct AGX_PBE *cfg, enum pipe_format format)
{
   const struct util_format_description *desc = util_format_description(format);
   cfg->channels = ail_pixel_format[format].channels;
   cfg->type = ail_pixel_format[format].type;
   for (unsigned i = 0; i < desc->nr_channels; ++i) {
      if (desc->swizzle[i] == 0)
         cfg->swizzle_r = i;
      else if (desc->swizzle[i] == 1)
         cfg->swizzle_g = i;
      else if (desc->swizzle[i] == 2)
         cfg->swizzle_b = i;
      else if (desc->swizzle[i] == 3)
         cfg->swizzle_a = i;
   }
}

/* The TEXTURE descriptor agx_pack_texture packs for a twiddled view of `layout` at level `base`
 * (a GL image is one level of its resource; a sampler view here has one level too), `depth`
 * layers, address 0 (the job places the image). */
static void
pack_twiddled_texture(struct agx_texture_packed *out, enum agx_texture_dimension dim,
                      const struct ail_layout *layout, unsigned base, unsigned depth)
{
   agx_pack(out, TEXTURE, cfg) {
      cfg.dimension = dim;
      cfg.layout = AGX_LAYOUT_TWIDDLED;
      texture_format(&cfg, layout->format);
      cfg.width = layout->width_px;
      cfg.height = layout->height_px;
      cfg.first_level = cfg.last_level = base;
      cfg.unk_mipmapped = layout->levels > 1;
      cfg.address = 0;
      cfg.depth = depth;
      cfg.page_aligned_layers = layout->page_aligned_layers;
      if (layout->sample_count_sa > 1)
         cfg.samples =
            layout->sample_count_sa == 4 ? AGX_SAMPLE_COUNT_4 : AGX_SAMPLE_COUNT_2;
   }
}

/* The PBE agx_batch_upload_pbe binds for a buffer image and (for stores through libagx's
 * address arithmetic) a multisampled one: a linear 2D image AGX_TEXTURE_BUFFER_WIDTH texels
 * wide holding `texels`, address 0. */
static void
buffer_like_pbe(struct AGX_PBE *cfg, enum pipe_format format, unsigned texels)
{
   cfg->dimension = AGX_TEXTURE_DIMENSION_2D;
   cfg->layout = AGX_LAYOUT_LINEAR;
   pbe_format(cfg, format);
   cfg->buffer = 0;
   cfg->width = AGX_TEXTURE_BUFFER_WIDTH;
   cfg->height = DIV_ROUND_UP(texels, cfg->width);
   cfg->level = 0;
   cfg->stride = (cfg->width * util_format_get_blocksize(format)) - 4;
   cfg->layers = 1;
   cfg->levels = 1;
}

/* Writes OUT.KINDBINDING.bin. */
static bool
write_resource(const char *out, const char *kind, unsigned binding, const void *data, size_t size)
{
   char file[4200];
   snprintf(file, sizeof(file), "%s.%s%u.bin", out, kind, binding);
   FILE *f = fopen(file, "wb");
   return f && fwrite(data, size, 1, f) == 1 && !fclose(f);
}

/* A buffer texture or image of `n` texels (samplerBuffer / imageBuffer): the buffer as it is, and
 * the descriptors agx_pack_texture and agx_batch_upload_pbe make for PIPE_BUFFER (a linear 2D
 * texture AGX_TEXTURE_BUFFER_WIDTH wide, the texel count in the software field). */
static bool
place_buffer_resource(bool image, unsigned binding, enum pipe_format format, unsigned n,
                      const char *path, const char *out, unsigned textures_end)
{
   unsigned bpp = util_format_get_blocksize(format);
   size_t got;
   uint8_t *data = read_file(path, &got);
   if (!data || got != (size_t)n * bpp)
      return false;
   if (!write_resource(out, image ? "image" : "texture", binding, data, got))
      return false;
   free(data);
   struct agx_texture_packed tex;
   agx_pack(&tex, TEXTURE, cfg) {
      cfg.dimension = AGX_TEXTURE_DIMENSION_2D;
      cfg.layout = AGX_LAYOUT_LINEAR;
      texture_format(&cfg, format);
      cfg.width = AGX_TEXTURE_BUFFER_WIDTH;
      cfg.height = DIV_ROUND_UP(n, cfg.width);
      cfg.first_level = cfg.last_level = 0;
      cfg.buffer_size_sw = n;
      cfg.buffer_offset_sw = 0;
      cfg.address = 0;
      cfg.depth = 1;
      cfg.stride = (cfg.width * bpp) - 16;
   }
   unsigned state = image ? 2 * binding + textures_end : binding;
   print_state(state, image ? "image" : "texture", binding, got, &tex);
   if (image) {
      struct agx_pbe_packed pbe;
      agx_pack(&pbe, PBE, cfg) {
         buffer_like_pbe(&cfg, format, n);
      }
      print_state(state + 1, "pbe", binding, got, &pbe);
   } else {
      /* buffer textures are only read by txf, which takes ss0 */
   }
   return true;
}

/* A 2D multisampled image or texture of `samples` samples and `layers` layers (image2DMS,
 * sampler2DMS(Array); LINEAR: layer by layer, pixels row by row, each pixel's samples in turn):
 * ail's twiddled layout with every sample where libagx_image_texel_address puts it
 * (ms_address.h), layers ail's layer stride apart; its TEXTURE descriptor as agx_pack_texture
 * packs a multisampled view (dimension 2D multisampled (array), Samples the count, Depth the
 * layers); for an image also the PBE agx_batch_upload_pbe binds for stores to a multisampled
 * image (a linear buffer-like descriptor, with the software sideband libagx reads: aligned
 * width, sample count, tile size, layer stride); for a texture the sampler (NEAREST). */
static bool
place_ms_resource(bool image, unsigned binding, enum pipe_format format, unsigned w, unsigned h,
                  unsigned samples, unsigned layers, bool array, const char *path,
                  const char *out, unsigned textures_end)
{
   struct ail_layout layout = {
      .width_px = w,
      .height_px = h,
      .depth_px = layers,
      .sample_count_sa = samples,
      .levels = 1,
      .tiling = AIL_TILING_TWIDDLED,
      .format = format,
      .writeable_image = image,
   };
   ail_make_miptree(&layout);
   unsigned bpp = util_format_get_blocksize(format);
   size_t got;
   uint8_t *linear = read_file(path, &got);
   if (!linear || got != (size_t)w * h * samples * layers * bpp)
      return false;
   uint8_t *tiled = calloc(1, layout.size_B);
   for (unsigned z = 0; z < layers; ++z)
      for (unsigned y = 0; y < h; ++y)
         for (unsigned x = 0; x < w; ++x)
            for (unsigned s = 0; s < samples; ++s)
               memcpy(tiled + z * layout.layer_stride_B +
                         (size_t)wavesim_ms_sample_index(&layout, x, y, s) * bpp,
                      linear + ((((size_t)z * h + y) * w + x) * samples + s) * bpp, bpp);
   const char *kind = image ? "image" : "texture";
   if (!write_resource(out, kind, binding, tiled, layout.size_B))
      return false;
   free(tiled);
   free(linear);
   struct agx_texture_packed tex;
   pack_twiddled_texture(&tex,
                         array ? AGX_TEXTURE_DIMENSION_2D_ARRAY_MULTISAMPLED
                               : AGX_TEXTURE_DIMENSION_2D_MULTISAMPLED,
                         &layout, 0, layers);
   unsigned state = image ? 2 * binding + textures_end : binding;
   print_state(state, kind, binding, layout.size_B, &tex);
   if (!image) {
      struct agx_sampler_packed sampler;
      agx_pack(&sampler, SAMPLER, cfg) {
         cfg.minimum_lod = 0;
         cfg.maximum_lod = 1000;
         cfg.maximum_anisotropy = 1;
         cfg.magnify = cfg.minify = AGX_FILTER_NEAREST;
         cfg.mip_filter = AGX_MIP_FILTER_NONE;
         cfg.wrap_s = cfg.wrap_t = cfg.wrap_r = AGX_WRAP_CLAMP_TO_EDGE;
         cfg.seamful_cube_maps = true;
      }
      const uint32_t *sw = (const uint32_t *)&sampler;
      printf("sampler_state %u %u %u\n", binding + 1, sw[0], sw[1]);
      return true;
   }
   struct agx_pbe_packed pbe;
   agx_pack(&pbe, PBE, cfg) {
      buffer_like_pbe(&cfg, format, layout.size_B / bpp);
      cfg.aligned_width_msaa_sw = align(w, layout.tilesize_el[0].width_el);
      cfg.sample_count_log2_sw = util_logbase2(samples);
      cfg.tile_width_sw = layout.tilesize_el[0].width_el;
      cfg.tile_height_sw = layout.tilesize_el[0].height_el;
      cfg.layer_stride_sw = layout.layer_stride_B;
   }
   print_state(state + 1, "pbe", binding, layout.size_B, &pbe);
   return true;
}

/* One RESOURCES line: lay the texels out as ail does and print its descriptors. */
static bool
place_resource(const char *line, const char *out, unsigned textures_end)
{
   char kind[16], dim_name[16], fmt[16], path[4096], filter[64] = "nearest", extra[64] = "";
   unsigned binding, w, h, d;
   int fields = sscanf(line, "%15s %u %15s %15s %u %u %u %4095s %63s %63s", kind, &binding,
                       dim_name, fmt, &w, &h, &d, path, filter, extra);
   if (fields < 8)
      return false;
   /* `levels=N,BASE`: a 2D resource of N levels whose LINEAR file holds every level in order,
    * viewed (GL's image binding, the PBE's Level) at level BASE; `samples=S`: a 2dms or
    * 2dmsarray resource of S samples (D its layers) */
   unsigned nr_levels = 1, base = 0, samples = 0;
   if (!strncmp(filter, "levels=", 7) || !strncmp(filter, "samples=", 8)) {
      memcpy(extra, filter, sizeof(extra));
      strcpy(filter, "nearest");
   }
   if (extra[0] && sscanf(extra, "samples=%u", &samples) != 1 &&
       (sscanf(extra, "levels=%u,%u", &nr_levels, &base) != 2 || !nr_levels ||
        base >= nr_levels || nr_levels > 16))
      return false;
   /* border=R,G,B,A: clamp to border with that custom colour (NEAREST) */
   float border_rgba[4];
   bool border = sscanf(filter, "border=%f,%f,%f,%f", &border_rgba[0], &border_rgba[1],
                        &border_rgba[2], &border_rgba[3]) == 4;
   bool linear_filter = !border && strcmp(filter, "nearest") != 0;
   bool seamless = !strcmp(filter, "seamless");
   if (linear_filter && !seamless && strcmp(filter, "linear"))
      return false;
   bool image = !strcmp(kind, "image");
   enum pipe_format format = PIPE_FORMAT_NONE;
   for (unsigned i = 0; i < ARRAY_SIZE(formats); ++i)
      if (!strcmp(formats[i].name, fmt))
         format = formats[i].format;
   if (format == PIPE_FORMAT_NONE)
      return false;
   if (!strcmp(dim_name, "buffer"))
      return place_buffer_resource(image, binding, format, w, path, out, textures_end);
   /* `2dms` (D = 1) and `2dmsarray` (D layers) with `samples=S` (2 or 4) */
   bool ms_array = !strcmp(dim_name, "2dmsarray");
   if (ms_array || !strcmp(dim_name, "2dms"))
      return (samples == 2 || samples == 4) && (ms_array || d == 1) &&
             place_ms_resource(image, binding, format, w, h, samples, d, ms_array, path, out,
                               textures_end);
   if (samples)
      return false;
   enum agx_texture_dimension dim;
   if (!strcmp(dim_name, "2d"))
      dim = AGX_TEXTURE_DIMENSION_2D;
   else if (!strcmp(dim_name, "2darray"))
      dim = AGX_TEXTURE_DIMENSION_2D_ARRAY;
   else if (!strcmp(dim_name, "3d"))
      dim = AGX_TEXTURE_DIMENSION_3D;
   else if (!strcmp(dim_name, "cube"))
      dim = AGX_TEXTURE_DIMENSION_CUBE;
   else
      return false;
   if (nr_levels > 1 && dim != AGX_TEXTURE_DIMENSION_2D)
      return false;
   struct ail_layout layout = {
      .width_px = w,
      .height_px = h,
      .depth_px = d,
      .sample_count_sa = 1,
      .levels = nr_levels,
      .tiling = AIL_TILING_TWIDDLED,
      .format = format,
      .mipmapped_z = dim == AGX_TEXTURE_DIMENSION_3D,
      .writeable_image = image,
   };
   ail_make_miptree(&layout);
   /* bytes a row of blocks (a texel is a 1x1 block) and a layer, row by row, level by level */
   size_t all_B = 0, got;
   for (unsigned l = 0; l < nr_levels; ++l)
      all_B += (size_t)util_format_get_nblocksx(format, u_minify(w, l)) *
               util_format_get_nblocksy(format, u_minify(h, l)) *
               util_format_get_blocksize(format) * d;
   uint8_t *linear = read_file(path, &got);
   if (!linear || got != all_B) {
      fprintf(stderr, "glsl_compute: %s holds %zu bytes, not %zu\n", path, got, all_B);
      return false;
   }
   uint8_t *tiled = calloc(1, layout.size_B);
   size_t at = 0;
   for (unsigned l = 0; l < nr_levels; ++l) {
      unsigned lw = u_minify(w, l), lh = u_minify(h, l);
      size_t row_B =
         (size_t)util_format_get_nblocksx(format, lw) * util_format_get_blocksize(format);
      size_t layer_B = row_B * util_format_get_nblocksy(format, lh);
      for (unsigned z = 0; z < d; ++z, at += layer_B)
         ail_tile(tiled + z * layout.layer_stride_B + ail_get_level_offset_B(&layout, l),
                  linear + at, &layout, l, row_B, 0, 0, lw, lh);
   }
   if (!write_resource(out, kind, binding, tiled, layout.size_B))
      return false;
   free(tiled);
   free(linear);

   struct agx_texture_packed fixed;
   pack_twiddled_texture(&fixed, dim, &layout, base, dim == AGX_TEXTURE_DIMENSION_CUBE ? 1 : d);
   unsigned state = image ? 2 * binding + textures_end : binding;
   print_state(state, kind, binding, layout.size_B, &fixed);
   if (image) {
      /* agx_batch_upload_pbe for a GL image view of level BASE: the format's channel i takes
       * component i, levels and layers of the resource, Level the view's level */
      struct agx_pbe_packed pbe;
      agx_pack(&pbe, PBE, cfg) {
         cfg.dimension = dim;
         cfg.layout = AGX_LAYOUT_TWIDDLED;
         pbe_format(&cfg, format);
         cfg.buffer = 0;
         cfg.width = w;
         cfg.height = h;
         cfg.level = base;
         cfg.layers = dim == AGX_TEXTURE_DIMENSION_3D ? 1 : d;
         cfg.levels = nr_levels;
         cfg.unk_mipmapped = nr_levels > 1;
         cfg.page_aligned_layers = layout.page_aligned_layers;
         /* the software sideband libagx_image_texel_address reads for atomics (not extended,
          * a writeable twiddled image) */
         cfg.level_offset_sw = ail_get_level_offset_B(&layout, base);
         cfg.sample_count_log2_sw = 0;
         cfg.tile_width_sw = layout.tilesize_el[base].width_el;
         cfg.tile_height_sw = layout.tilesize_el[base].height_el;
         cfg.layer_stride_sw = layout.layer_stride_B;
      }
      const uint32_t *pw = (const uint32_t *)&pbe;
      printf("state %u pbe %u %" PRIu64, state + 1, binding, layout.size_B);
      for (unsigned i = 0; i < 6; ++i)
         printf(" %u", pw[i]);
      printf("\n");
   } else {
      struct agx_sampler_packed sampler;
      agx_pack(&sampler, SAMPLER, cfg) {
         cfg.minimum_lod = 0;
         cfg.maximum_lod = 1000;
         cfg.maximum_anisotropy = 1;
         cfg.magnify = cfg.minify = linear_filter ? AGX_FILTER_LINEAR : AGX_FILTER_NEAREST;
         cfg.mip_filter = AGX_MIP_FILTER_NONE;
         cfg.wrap_s = cfg.wrap_t = cfg.wrap_r =
            border ? AGX_WRAP_CLAMP_TO_BORDER : AGX_WRAP_CLAMP_TO_EDGE;
         /* agx_create_sampler_state: seamful unless GL's TEXTURE_CUBE_MAP_SEAMLESS is on */
         cfg.seamful_cube_maps = !seamless;
         if (border)
            cfg.border_colour = AGX_BORDER_COLOUR_CUSTOM;
      }
      if (border) {
         /* agx_create_sampler_state: the BORDER in the view format's encoding
          * (agx_pack_border), which follows the sampler in extended sampler state */
         uint32_t ui[4];
         memcpy(ui, border_rgba, sizeof(ui));
         struct agx_border_packed packed;
         agx_pack_border(&packed, ui, format);
         const uint32_t *bw = (const uint32_t *)&packed;
         printf("border %u %u %u %u %u\n", binding + 1, bw[0], bw[1], bw[2], bw[3]);
      }
      const uint32_t *sw = (const uint32_t *)&sampler;
      printf("sampler_state %u %u %u\n", binding + 1, sw[0], sw[1]);
   }
   return true;
}

static void *
read_file(const char *path, size_t *size)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   *size = ftell(f);
   fseek(f, 0, SEEK_SET);
   void *data = malloc(*size);
   if (fread(data, 1, *size, f) != *size) {
      fclose(f);
      free(data);
      return NULL;
   }
   fclose(f);
   return data;
}

/* libagx as a NIR library whose functions keep their names. The texture lowering's helpers
 * (libagx_txs, libagx_lower_txf_robustness, the image texel address for atomics) are calls that
 * agx_link_libagx links by name, but 25.0's asahi_clc serializes libagx_0_nir stripped
 * (nir_precomp_print_nir: nir_serialize(..., strip = true)), so no call finds its function.
 * This builds the library from the build tree's libagx.spv with the passes asahi_clc's
 * compile() runs (src/asahi/clc/asahi_clc.c, Mesa 25.0.7), keeping the names. */
static const struct spirv_to_nir_options libagx_spirv_options = {
   .environment = NIR_SPIRV_OPENCL,
   .shared_addr_format = nir_address_format_62bit_generic,
   .global_addr_format = nir_address_format_62bit_generic,
   .temp_addr_format = nir_address_format_62bit_generic,
   .constant_addr_format = nir_address_format_64bit_global,
   .create_library = true,
   .printf = true,
};

static void
libagx_optimize(nir_shader *nir)
{
   bool progress;
   do {
      progress = false;
      NIR_PASS(progress, nir, nir_split_var_copies);
      NIR_PASS(progress, nir, nir_split_struct_vars, nir_var_function_temp);
      NIR_PASS(progress, nir, nir_lower_var_copies);
      NIR_PASS(progress, nir, nir_lower_vars_to_ssa);
      NIR_PASS(progress, nir, nir_copy_prop);
      NIR_PASS(progress, nir, nir_opt_remove_phis);
      NIR_PASS(progress, nir, nir_lower_phis_to_scalar, true);
      NIR_PASS(progress, nir, nir_opt_dce);
      NIR_PASS(progress, nir, nir_opt_dead_cf);
      NIR_PASS(progress, nir, nir_opt_cse);
      NIR_PASS(progress, nir, nir_opt_peephole_select, 64, false, true);
      NIR_PASS(progress, nir, nir_opt_phi_precision);
      NIR_PASS(progress, nir, nir_opt_algebraic);
      NIR_PASS(progress, nir, nir_opt_constant_folding);
      NIR_PASS(progress, nir, nir_opt_deref);
      NIR_PASS(progress, nir, nir_opt_copy_prop_vars);
      NIR_PASS(progress, nir, nir_opt_undef);
      NIR_PASS(progress, nir, nir_lower_undef_to_zero);
      NIR_PASS(progress, nir, nir_opt_shrink_vectors, true);
      NIR_PASS(progress, nir, nir_opt_loop_unroll);
   } while (progress);
}

static nir_shader *
libagx_with_names(void *mem, const char *spv_path)
{
   size_t size;
   uint32_t *spirv = read_file(spv_path, &size);
   if (!spirv || size % 4)
      return NULL;
   nir_shader *nir = spirv_to_nir(spirv, size / 4, NULL, 0, MESA_SHADER_KERNEL, "library",
                                  &libagx_spirv_options, &agx_nir_options);
   free(spirv);
   if (!nir)
      return NULL;
   ralloc_steal(mem, nir);
   nir_fixup_is_exported(nir);
   NIR_PASS(_, nir, nir_lower_system_values);
   NIR_PASS(_, nir, nir_lower_calls_to_builtins);
   nir_lower_compute_system_values_options cs = {.global_id_is_32bit = true};
   NIR_PASS(_, nir, nir_lower_compute_system_values, &cs);
   NIR_PASS(_, nir, nir_lower_printf,
            &(const struct nir_lower_printf_options){.hash_format_strings = true});
   NIR_PASS(_, nir, nir_lower_variable_initializers, nir_var_function_temp);
   NIR_PASS(_, nir, nir_lower_returns);
   NIR_PASS(_, nir, nir_inline_functions);
   nir_remove_non_exported(nir);
   NIR_PASS(_, nir, nir_copy_prop);
   NIR_PASS(_, nir, nir_opt_deref);
   nir_lower_constant_to_temp(nir);
   NIR_PASS(_, nir, nir_lower_variable_initializers, ~0);
   NIR_PASS(_, nir, nir_lower_vec3_to_vec4,
            nir_var_shader_temp | nir_var_function_temp | nir_var_mem_shared |
               nir_var_mem_global | nir_var_mem_constant);
   NIR_PASS(_, nir, nir_lower_vars_to_explicit_types,
            nir_var_uniform | nir_var_shader_temp | nir_var_function_temp |
               nir_var_mem_shared | nir_var_mem_global,
            glsl_get_cl_type_size_align);
   libagx_optimize(nir);
   NIR_PASS(_, nir, nir_remove_dead_variables, nir_var_all, NULL);
   NIR_PASS(_, nir, nir_lower_vars_to_explicit_types,
            nir_var_shader_temp | nir_var_function_temp | nir_var_mem_shared |
               nir_var_mem_global | nir_var_mem_constant,
            glsl_get_cl_type_size_align);
   if (nir->constant_data_size)
      return NULL;
   NIR_PASS(_, nir, nir_lower_memcpy);
   NIR_PASS(_, nir, nir_lower_explicit_io, nir_var_mem_constant,
            nir_address_format_64bit_global);
   NIR_PASS(_, nir, nir_lower_explicit_io, nir_var_uniform,
            nir_address_format_32bit_offset_as_64bit);
   NIR_PASS(_, nir, nir_lower_convert_alu_types, NULL);
   NIR_PASS(_, nir, nir_opt_if, 0);
   NIR_PASS(_, nir, nir_opt_idiv_const, 16);
   NIR_PASS(_, nir, agx_nir_lower_texture_early, false);
   NIR_PASS(_, nir, agx_nir_lower_texture);
   NIR_PASS(_, nir, agx_nir_lower_multisampled_image_store);
   libagx_optimize(nir);
   return nir;
}

int
main(int argc, char **argv)
{
   if (argc != 3 && argc != 4) {
      fprintf(stderr, "usage: %s IN.spv OUT.blob [RESOURCES]\n", argv[0]);
      return 1;
   }
   size_t spirv_size;
   uint32_t *spirv = read_file(argv[1], &spirv_size);
   if (!spirv || spirv_size % 4) {
      fprintf(stderr, "glsl_compute: cannot read %s\n", argv[1]);
      return 1;
   }
   glsl_type_singleton_init_or_ref();
   void *mem = ralloc_context(NULL);

   /* GLSL_COMPUTE_LIBAGX_SPV: the build tree's src/asahi/libagx/libagx.spv (see above) */
   nir_shader *libagx;
   const char *libagx_spv = getenv("GLSL_COMPUTE_LIBAGX_SPV");
   if (libagx_spv) {
      libagx = libagx_with_names(mem, libagx_spv);
      if (!libagx) {
         fprintf(stderr, "glsl_compute: cannot build libagx from %s\n", libagx_spv);
         return 1;
      }
   } else {
      struct blob_reader blob;
      blob_reader_init(&blob, (void *)libagx_0_nir, sizeof(libagx_0_nir));
      libagx = nir_deserialize(mem, &agx_nir_options, &blob);
   }

   nir_shader *nir = spirv_to_nir(spirv, spirv_size / 4, NULL, 0, MESA_SHADER_COMPUTE, "main",
                                  &spirv_options, &agx_nir_options);
   if (!nir) {
      fprintf(stderr, "glsl_compute: spirv_to_nir failed\n");
      return 1;
   }
   ralloc_steal(mem, nir);

   /* What the GL state tracker and spirv consumers do before a driver sees the shader. */
   NIR_PASS(_, nir, nir_lower_variable_initializers, nir_var_function_temp);
   NIR_PASS(_, nir, nir_lower_returns);
   NIR_PASS(_, nir, nir_inline_functions);
   nir_remove_non_entrypoints(nir);
   NIR_PASS(_, nir, nir_lower_variable_initializers, ~0);
   NIR_PASS(_, nir, nir_split_var_copies);
   NIR_PASS(_, nir, nir_split_per_member_structs);
   optimize(nir);
   NIR_PASS(_, nir, nir_remove_dead_variables, nir_var_function_temp | nir_var_shader_temp,
            NULL);
   NIR_PASS(_, nir, nir_lower_system_values);
   bool bind_failed = false;
   NIR_PASS(_, nir, nir_lower_samplers);
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_image_derefs, nir_metadata_control_flow,
            &bind_failed);
   nir_lower_compute_system_values_options cs = {0};
   NIR_PASS(_, nir, nir_lower_compute_system_values, &cs);

   if (!nir->info.shared_memory_explicit_layout) {
      NIR_PASS(_, nir, nir_lower_vars_to_explicit_types, nir_var_mem_shared,
               glsl_get_natural_size_align_bytes);
   }
   NIR_PASS(_, nir, nir_lower_explicit_io, nir_var_mem_shared, nir_address_format_32bit_offset);

   struct layout l = {0};
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_descriptors, nir_metadata_control_flow, &l);
   l.push_base_B = l.bindings * 8;
   NIR_PASS(_, nir, nir_lower_explicit_io,
            nir_var_mem_ssbo | nir_var_mem_ubo | nir_var_mem_global,
            nir_address_format_64bit_global);
   NIR_PASS(_, nir, nir_lower_explicit_io, nir_var_mem_push_const,
            nir_address_format_32bit_offset);
   unsigned push_size_B = 0;
   nir_foreach_variable_with_modes(var, nir, nir_var_mem_push_const)
      push_size_B = MAX2(push_size_B, glsl_get_explicit_size(var->type, false));
   optimize(nir);
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_push_constants, nir_metadata_control_flow,
            &l);
   if (l.failed)
      return 1;
   optimize(nir);

   /* agx_shader_initialize (gallium), as for a compute shader. */
   NIR_PASS(_, nir, agx_nir_lower_texture_early, true);
   nir_shader_gather_info(nir, nir_shader_get_entrypoint(nir));
   unsigned textures_end = 0;
   nir_shader_instructions_pass(nir, max_texture_unit, nir_metadata_all, &textures_end);
   struct bindings bindings = {.textures_end = textures_end};
   NIR_PASS(_, nir, nir_shader_instructions_pass, lower_bindings, nir_metadata_control_flow,
            &bindings);
   if (bind_failed || bindings.failed)
      return 1;
   NIR_PASS(_, nir, nir_lower_alu_to_scalar, NULL, NULL);
   NIR_PASS(_, nir, nir_lower_load_const_to_scalar);
   NIR_PASS(_, nir, agx_nir_cleanup_amul);
   NIR_PASS(_, nir, nir_opt_constant_folding);
   NIR_PASS(_, nir, nir_copy_prop);
   NIR_PASS(_, nir, nir_opt_cse);
   NIR_PASS(_, nir, nir_opt_dce);
   NIR_PASS(_, nir, nir_opt_shrink_vectors, true);
   NIR_PASS(_, nir, nir_copy_prop);
   NIR_PASS(_, nir, nir_opt_load_store_vectorize,
            &(const nir_load_store_vectorize_options){
               .modes = nir_var_mem_global | nir_var_mem_constant | nir_var_mem_ssbo,
               .callback = agx_mem_vectorize_cb,
            });
   NIR_PASS(_, nir, agx_nir_lower_texture);
   NIR_PASS(_, nir, nir_shader_instructions_pass, lower_lod_bias, nir_metadata_control_flow,
            NULL);
   agx_preprocess_nir(nir, libagx);

   /* The bindless table's address: the argument after the push constants, 8-byte aligned. */
   bool table = false;
   nir_shader_intrinsics_pass(nir, uses_texture_handle, nir_metadata_all, &table);
   unsigned table_B = ALIGN(l.push_base_B + push_size_B, 8);
   unsigned table_uniform = table_B / 2;
   if (table)
      NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_texture_handle,
               nir_metadata_control_flow, &table_uniform);

   /* agx_compile_nir (gallium): the arguments take the reserved uniforms. */
   unsigned args_B = table ? table_B + 8 : l.push_base_B + push_size_B;
   struct agx_shader_key key = {
      .libagx = libagx,
      .has_scratch = true,
      .promote_constants = true,
      .reserved_preamble = DIV_ROUND_UP(args_B, 2),
   };
   if (getenv("GLSL_COMPUTE_PRINT"))
      nir_print_shader(nir, stderr);
   nir_foreach_function(f, nir) {
      if (f->impl && !f->is_entrypoint) {
         fprintf(stderr, "glsl_compute: function %s not linked (set GLSL_COMPUTE_LIBAGX_SPV)\n",
                 f->name ? f->name : "(unnamed)");
         return 1;
      }
   }
   struct agx_shader_part compiled;
   agx_compile_shader_nir(nir, &key, NULL, &compiled);

   struct agx_precompiled_kernel_info info = agx_compact_kernel_info(&compiled.info);
   FILE *out = fopen(argv[2], "wb");
   if (!out || fwrite(&info, sizeof(info), 1, out) != 1 ||
       fwrite(compiled.binary, compiled.info.binary_size, 1, out) != 1 || fclose(out)) {
      fprintf(stderr, "glsl_compute: cannot write %s\n", argv[2]);
      return 1;
   }
   for (unsigned i = 0; i < l.bindings; ++i)
      printf("arg %u 1 64 binding%u\n", 8 * i, i);
   for (unsigned o = 0; o < push_size_B; o += 4)
      printf("arg %u 1 32 push%u\n", l.push_base_B + o, o);
   if (table)
      printf("arg %u 1 64 table\n", table_B);
   if (bindings.pbe)
      printf("pbe_used\n");
   if (argc == 4) {
      size_t spec_size;
      char *spec = read_file(argv[3], &spec_size);
      if (!spec)
         return 1;
      spec = realloc(spec, spec_size + 1);
      spec[spec_size] = 0;
      /* ss0: the texel-fetch sampler the driver reserves (agx_upload_samplers) */
      struct agx_sampler_packed txf;
      agx_pack_txf_sampler(&txf);
      const uint32_t *t = (const uint32_t *)&txf;
      printf("sampler_state 0 %u %u\n", t[0], t[1]);
      for (char *line = strtok(spec, "\n"); line; line = strtok(NULL, "\n")) {
         if (!place_resource(line, argv[2], textures_end)) {
            fprintf(stderr, "glsl_compute: bad resource line: %s\n", line);
            return 1;
         }
      }
      free(spec);
   }
   printf("args_size %u\nscratch %u\n", args_B,
          compiled.info.scratch_size + compiled.info.preamble_scratch_size);
   free(compiled.binary);
   ralloc_free(mem);
   glsl_type_singleton_decref();
   return 0;
}
