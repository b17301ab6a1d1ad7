/*
 * wavesim: compile a GLSL fragment shader (Vulkan SPIR-V from glslangValidator -V) with Mesa
 * 25.0.7's asahi compiler, for G13, as its gallium driver compiles and links one for a draw to a
 * single-sampled RGBA8 unorm render target with blending off:
 *
 *  - the main part: spirv_to_nir, then the passes of agx_shader_initialize (nir_lower_io with
 *    interpolated inputs, nir_lower_mediump_io of every input but flat ones and texture
 *    coordinates, scalarize, vectorize), agx_preprocess_nir with libagx, those of
 *    agx_compile_variant for a fragment shader (agx_nir_lower_discard_zs_emit,
 *    agx_nir_lower_fs_output_to_epilog, agx_nir_lower_sample_mask,
 *    agx_nir_lower_fs_active_samples_to_register) and agx_compile_nir's
 *    (agx_nir_lower_interpolation; not terminal: no stop, the epilog follows);
 *  - the FS prolog (agx_nir_fs_prolog with the default key: sample mask 0xff) and the FS epilog
 *    (agx_nir_fs_epilog with the main part's link info, render target 0 R8G8B8A8_UNORM, blend
 *    ONE/ZERO/ADD, colour mask 0xf), built as agx_build_meta_shader_internal builds them;
 *  - linked as agx_fast_link links them with no sample loop: prolog, main part, epilog (each
 *    from its main_offset, main_size bytes); the main part's preamble runs before;
 *  - the end-of-tile program the driver builds for that tile buffer
 *    (agx_build_end_of_tile_shader: one image_store_block_agx of render target 0 from its tile
 *    buffer offset, texture state 0 holding the render target's PBE descriptor).
 *
 * Only the places of the system values differ from the driver (it lays out sysvals with
 * agx_nir_lower_sysvals): uniform block binding N's 64-bit address is uniform half 16 + 4N (the
 * fragment ABI keeps halves 0-15: agx_abi.h, agx_nir_prolog_epilog.c), loaded with load_preamble.
 *
 * Usage: glsl_graphics IN.frag.spv OUT   (writes OUT.bin: the linked program followed by the main
 * part's preamble, OUT.eot.bin: the end-of-tile program; prints "key value" lines: offsets,
 * register counts, coefficient bindings, the promoted constants)
 * Build: tools/agx/build_glsl_graphics.sh (against tools/mesa/build_new.sh's tree).
 */

#include "asahi/compiler/agx_compile.h"
#include "asahi/compiler/agx_nir.h"
#include "asahi/genxml/agx_pack.h"
#include "asahi/layout/layout.h"
#include "asahi/lib/agx_abi.h"
#include "asahi/lib/agx_linker.h"
#include "asahi/lib/agx_tilebuffer.h"
#include "asahi/lib/agx_uvs.h"
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

#define MAX_BINDINGS 8
#define UBO_BASE_HALF 16

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

struct layout {
   unsigned bindings;
   bool failed;
   /* the uniform half of block 0's address (UBO_BASE_HALF, or after a vertex shader's prolog
    * uniforms) */
   unsigned ubo_base;
};

/* Set 0's uniform blocks: binding N's address is uniform half 16 + 4N. */
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
         fprintf(stderr, "glsl_graphics: only set 0, bindings below %u, no arrays\n",
                 MAX_BINDINGS);
         l->failed = true;
         return false;
      }
      l->bindings = MAX2(l->bindings, binding + 1);
      nir_def_replace(&intr->def,
                      nir_load_preamble(b, 1, 64, .base = UBO_BASE_HALF + binding * 4));
      return true;
   }
   case nir_intrinsic_load_vulkan_descriptor:
      nir_def_replace(&intr->def, intr->src[0].ssa);
      return true;
   default:
      return false;
   }
}

/* The framebuffer's sample count (GLSL_GRAPHICS_SAMPLES: 1, 2 or 4), and alpha to coverage
 * (GLSL_GRAPHICS_A2C set: glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE), which the driver keys only for
 * multisampled rasterization: `alpha_to_coverage &= msaa`). */
static unsigned gl_nr_samples = 1;
static bool gl_a2c = false;

/* Flat varyings read the plane's B instead of C for the first provoking vertex of a triangle fan
 * (agx_nir_lower_interpolation); the driver's sysval is "provoking vertex == 1"
 * (agx_nir_lower_sysvals). The draw here is a triangle list: false. Other sysvals of the root
 * table the driver lowers the same way are given their values for this draw. */
static bool
lower_draw_sysvals(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   b->cursor = nir_before_instr(&intr->instr);
   if (intr->intrinsic == nir_intrinsic_load_is_first_fan_agx) {
      nir_def_replace(&intr->def, nir_imm_false(b));
      return true;
   }
   /* The driver's `no_epilog_discard` (agx_state.c): ~0 unless the epilog discards (alpha to
    * coverage, GLSL_GRAPHICS_A2C), so the main part runs the depth/stencil tests after its
    * discards; with alpha to coverage 0: the epilog runs them. */
   if (intr->intrinsic == nir_intrinsic_load_shader_part_tests_zs_agx) {
      nir_def_replace(&intr->def, nir_imm_intN_t(b, gl_a2c ? 0 : 0xffff, 16));
      return true;
   }
   /* The API sample mask (glSampleMask, the root table's `sample_mask`): all samples, GL's
    * default; and PPP_MULTISAMPLECTL's sample positions (the root table's
    * `ppp_multisamplectl`), which the driver fills with agx_default_sample_positions for the
    * framebuffer's sample count: sample n in byte n, x in the low nibble, y in the high one, in
    * 1/16 pixel (agx_state.c). */
   if (intr->intrinsic == nir_intrinsic_load_api_sample_mask_agx) {
      nir_def_replace(&intr->def, nir_imm_intN_t(b, 0xff, intr->def.bit_size));
      return true;
   }
   if (intr->intrinsic == nir_intrinsic_load_sample_positions_agx) {
      unsigned n = gl_nr_samples;
      uint32_t packed = n == 4 ? 0xeaa26e26u : n == 2 ? 0x44ccu : 0x88u;
      nir_def_replace(&intr->def, nir_imm_intN_t(b, packed, intr->def.bit_size));
      return true;
   }
   /* A vertex shader's UVS index of each output (the driver's root table `uvs_index`, filled
    * from agx_assign_uvs): the linked layout computed here. */
   if (intr->intrinsic == nir_intrinsic_load_uvs_index_agx && data) {
      const struct agx_varyings_vs *vs = data;
      unsigned loc = nir_intrinsic_io_semantics(intr).location;
      nir_def_replace(&intr->def, nir_imm_intN_t(b, vs->slots[loc], intr->def.bit_size));
      return true;
   }
   return false;
}

/* The sampler's LOD bias, which the driver keeps in its uniform table (agx_nir_lower_sysvals:
 * `lod_bias[sampler]` for agx_nir_lower_texture's nir_texop_lod_bias_agx) and which the harness
 * leaves at GL's default, 0 (GL 4.6, 8.14.1: TEXTURE_LOD_BIAS of sampler and unit). */
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

/* The draw's first vertex and base instance: the uniforms the prolog's ABI gives them (6n and
 * 6n + 2 for n attributes, agx_abi.h / map_vs_part_uniform), where the driver would read its root
 * table (agx_nir_lower_sysvals). */
static bool
lower_vs_draw_params(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   unsigned n = *(unsigned *)data;
   unsigned base;
   if (intr->intrinsic == nir_intrinsic_load_first_vertex)
      base = 6 * n;
   else if (intr->intrinsic == nir_intrinsic_load_base_instance)
      base = 6 * n + 2;
   else
      return false;
   b->cursor = nir_before_instr(&intr->instr);
   nir_def_replace(&intr->def, nir_load_preamble(b, 1, 32, .base = base));
   return true;
}

/* A GL vertex shader's attribute count (glsl_front), ~0 for SPIR-V. */
static unsigned gl_nr_attribs = ~0u;

/* A hardware vertex shader (agx_compile_variant with key->hw): attributes from the prolog's
 * registers, outputs through the UVS at the layout agx_assign_uvs links (every varying smooth).
 * Writes OUT.bin (the binary from the main part on) and prints its offsets and the output slots. */
static int
compile_vertex(nir_shader *nir, const nir_shader *libagx, unsigned bindings, const char *out)
{
   BITSET_DECLARE(attribs, VERT_ATTRIB_MAX * 4) = {0};
   NIR_PASS(_, nir, agx_nir_lower_vs_input_to_prolog, attribs);
   NIR_PASS(_, nir, nir_lower_io_to_scalar, nir_var_shader_out, NULL, NULL);
   struct agx_unlinked_uvs_layout uvs = {0};
   NIR_PASS(_, nir, agx_nir_lower_uvs, &uvs);
   struct agx_varyings_vs vs;
   agx_assign_uvs(&vs, &uvs, 0, 0);
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_draw_sysvals, nir_metadata_control_flow,
            &vs);
   unsigned nr_attribs = DIV_ROUND_UP(BITSET_LAST_BIT(attribs), 4);
   if (gl_nr_attribs != ~0u && nr_attribs != gl_nr_attribs) {
      fprintf(stderr, "glsl_graphics: %u attributes read, %u placed\n", nr_attribs,
              gl_nr_attribs);
      return 1;
   }
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_vs_draw_params, nir_metadata_control_flow,
            &nr_attribs);
   /* The prolog's uniforms (AGX_ABI_VUNI_COUNT_GL: 6n + 4 halves), then the blocks. */
   unsigned ubo_base = ALIGN(6 * nr_attribs + 4, 4);
   struct agx_shader_key key = {
      .libagx = libagx,
      .has_scratch = true,
      .promote_constants = true,
      .reserved_preamble = ubo_base + 4 * bindings,
   };
   struct agx_shader_part part;
   agx_compile_shader_nir(nir, &key, NULL, &part);
   char path[4096];
   snprintf(path, sizeof(path), "%s.bin", out);
   /* From the main part on (the promoted constants before it are pushed as uniforms). */
   unsigned start = part.info.main_offset;
   if (part.info.has_preamble && part.info.preamble_offset < start)
      return 1;
   FILE *f = fopen(path, "wb");
   if (!f || fwrite(part.binary + start, part.info.binary_size - start, 1, f) != 1 || fclose(f))
      return 1;
   printf("main_offset 0\nhas_preamble %d\npreamble_offset %u\n", part.info.has_preamble,
          part.info.has_preamble ? part.info.preamble_offset - start : 0);
   printf("nr_gprs %u\nnr_preamble_gprs %u\nattribs %u\nubo_base %u\n", part.info.nr_gprs,
          part.info.nr_preamble_gprs, nr_attribs, ubo_base);
   printf("slot_pos %u\n", uvs.group_offs[UVS_POSITION]);
   unsigned i;
   BITSET_FOREACH_SET(i, attribs, VERT_ATTRIB_MAX * 4)
      printf("attrib_component %u %u\n", i / 4, i % 4);
   u_foreach_bit64(loc, uvs.written)
      printf("slot %u %u %u\n", (unsigned)loc, vs.slots[loc], uvs.components[loc]);
   const uint16_t *imm = (const uint16_t *)(part.binary + part.info.rodata.offset);
   printf("immediates %u", part.info.rodata.base_uniform);
   for (unsigned i = 0; i < part.info.rodata.size_16; ++i)
      printf(" %u", imm[i]);
   printf("\n");
   return 0;
}

/* A GL program's uniform block N (block 0 the default block: nir_lower_uniforms_to_ubo): its
 * address in uniform half 16 + 4N, as for SPIR-V's binding N (the driver's `ubo_base` sysval,
 * agx_nir_lower_sysvals.c's load_ubo, reads the same address from its table). */
static bool
lower_gl_ubo(nir_builder *b, nir_intrinsic_instr *intr, void *data)
{
   struct layout *l = data;
   if (intr->intrinsic != nir_intrinsic_load_ubo)
      return false;
   b->cursor = nir_before_instr(&intr->instr);
   if (!nir_src_is_const(intr->src[0]) || nir_src_as_uint(intr->src[0]) >= MAX_BINDINGS) {
      fprintf(stderr, "glsl_graphics: uniform block index not constant or above %u\n",
              MAX_BINDINGS);
      l->failed = true;
      return false;
   }
   unsigned block = nir_src_as_uint(intr->src[0]);
   l->bindings = MAX2(l->bindings, block + 1);
   nir_def *base = nir_load_preamble(b, 1, 64, .base = l->ubo_base + block * 4);
   nir_def *addr = nir_iadd(b, base, nir_u2u64(b, intr->src[1].ssa));
   nir_def_replace(&intr->def, nir_load_global_constant(b, addr, nir_intrinsic_align(intr),
                                                        intr->num_components,
                                                        intr->def.bit_size));
   return true;
}

/* The gallium driver's I/O type size (agx_state.c): vec4 slots. */
static int
io_type_size(const struct glsl_type *type, bool bindless)
{
   return glsl_count_attribute_slots(type, false);
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

static nir_shader *
spirv_front(const char *path, gl_shader_stage stage)
{
   size_t spirv_size;
   uint32_t *spirv = read_file(path, &spirv_size);
   if (!spirv || spirv_size % 4) {
      fprintf(stderr, "glsl_graphics: cannot read %s\n", path);
      return NULL;
   }
   nir_shader *nir = spirv_to_nir(spirv, spirv_size / 4, NULL, 0, stage, "main",
                                  &spirv_options, &agx_nir_options);
   if (!nir)
      fprintf(stderr, "glsl_graphics: spirv_to_nir failed\n");
   return nir;
}

/* tools/agx/glsl_mesa_front.cpp */
struct gl_shader_program;
struct gl_shader_program *wavesim_glsl_link(const char *vs, const char *fs,
                                            const nir_shader_compiler_options *options);
nir_shader *wavesim_glsl_stage(struct gl_shader_program *prog, gl_shader_stage stage);
struct wavesim_sampler {
   const char *name;
   unsigned element, index;
   enum glsl_sampler_dim dim;
   bool shadow, array;
};
unsigned wavesim_glsl_samplers(struct gl_shader_program *prog, gl_shader_stage stage,
                               struct wavesim_sampler *out, unsigned max);

/* The texture tools/agx/mesa_shader_test.c binds to a sampler, as the gallium driver lays it out
 * and describes it: 4x4 RGBA8 (4 wide for 1D, 4 layers for 2D arrays, depth 4 for 3D, 6 equal
 * faces for cubes), one level, twiddled (agx_select_best_modifier: too small to compress,
 * ail_can_compress), texel (x, y, z) = (16x + 1, 16y + 2, 16z + 3, A) with A the unit's alpha,
 * which the corpus script writes (the texel bytes are RGBA in every layout). The TEXTURE
 * descriptor as agx_pack_texture packs it (address 0: the job places the image), the SAMPLER
 * as agx_create_sampler_state packs GL's default sampler with the harness's NEAREST filters
 * (LINEAR with GLSL_GRAPHICS_LINEAR, as the harness's SHADER_TEST_LINEAR): no
 * mip filter, LOD range [0, 1000] (GL's defaults), REPEAT (CLAMP_TO_EDGE for rectangles, GL 4.6
 * 8.10), seamful cube maps (TEXTURE_CUBE_MAP_SEAMLESS off), unnormalized coordinates for
 * rectangles (st_convert_sampler). A 2D or rectangle shadow sampler gets the harness's 4x4
 * GL_DEPTH_COMPONENT32F texture (Z32_FLOAT, texel (x + 4y + 0.5) / 16) with comparison on
 * (LEQUAL, GL's default TEXTURE_COMPARE_FUNC) and the swizzle R R R 1: the compatibility
 * profile's default DEPTH_TEXTURE_MODE, LUMINANCE (compute_texture_format_swizzle in
 * teximage.c), composed with the depth format's broadcast as agx_pack_texture composes them.
 * A sampler2DMS gets a 4x4 texture of 4 samples (2 with GLSL_GRAPHICS_MS_SAMPLES=2; dimension 2D
 * multisampled, Samples the count), filled
 * as the comment in the body says (tools/agx/gl25_msfetch.py; mesa_shader_test.c has no
 * multisampled textures).
 * Writes OUT.texI.bin and prints `texture I SIZE rgba8|z32f W0..W5` and `sampler_desc I W0 W1`. */
static bool
write_texture(const struct wavesim_sampler *smp, const char *out)
{
   bool shadow = smp->shadow;
   if (shadow && ((smp->dim != GLSL_SAMPLER_DIM_2D && smp->dim != GLSL_SAMPLER_DIM_RECT) ||
                  smp->array)) {
      fprintf(stderr, "glsl_graphics: shadow sampler %s (only 2D and rectangle ones)\n",
              smp->name);
      return false;
   }
   enum pipe_format format = shadow ? PIPE_FORMAT_Z32_FLOAT : PIPE_FORMAT_R8G8B8A8_UNORM;
   struct ail_layout layout = {
      .width_px = 4,
      .height_px = smp->dim == GLSL_SAMPLER_DIM_1D ? 1 : 4,
      .depth_px = 1,
      .sample_count_sa = 1,
      .levels = 1,
      .tiling = AIL_TILING_TWIDDLED,
      .format = format,
   };
   enum agx_texture_dimension dim;
   switch (smp->dim) {
   case GLSL_SAMPLER_DIM_1D:
   case GLSL_SAMPLER_DIM_2D:
   case GLSL_SAMPLER_DIM_RECT:
      dim = smp->array ? AGX_TEXTURE_DIMENSION_2D_ARRAY : AGX_TEXTURE_DIMENSION_2D;
      if (smp->array)
         layout.depth_px = 4;
      break;
   case GLSL_SAMPLER_DIM_3D:
      dim = AGX_TEXTURE_DIMENSION_3D;
      layout.depth_px = 4;
      layout.mipmapped_z = true;
      break;
   case GLSL_SAMPLER_DIM_CUBE:
      if (smp->array) {
         fprintf(stderr, "glsl_graphics: cube array sampler %s\n", smp->name);
         return false;
      }
      dim = AGX_TEXTURE_DIMENSION_CUBE;
      layout.depth_px = 6;
      break;
   case GLSL_SAMPLER_DIM_MS:
      if (smp->array) {
         fprintf(stderr, "glsl_graphics: multisampled array sampler %s\n", smp->name);
         return false;
      }
      dim = AGX_TEXTURE_DIMENSION_2D_MULTISAMPLED;
      /* GLSL_GRAPHICS_MS_SAMPLES=2: a 2-sample texture (default 4) */
      layout.sample_count_sa = getenv("GLSL_GRAPHICS_MS_SAMPLES") &&
                                     !strcmp(getenv("GLSL_GRAPHICS_MS_SAMPLES"), "2")
                                  ? 2
                                  : 4;
      break;
   default:
      fprintf(stderr, "glsl_graphics: sampler %s of dimension %d\n", smp->name, smp->dim);
      return false;
   }
   if (smp->array && smp->dim == GLSL_SAMPLER_DIM_1D) {
      fprintf(stderr, "glsl_graphics: 1D array sampler %s\n", smp->name);
      return false;
   }
   ail_make_miptree(&layout);
   uint8_t *image = calloc(1, layout.size_B);
   /* A sampler2DMS: sample s of texel (x, y) holds (16 x + 1, 16 y + 2, 64 s + 3, 0),
    * stored where libagx_image_texel_address puts it (ms_address.h). */
   if (layout.sample_count_sa > 1) {
      for (unsigned y = 0; y < layout.height_px; ++y)
         for (unsigned x = 0; x < layout.width_px; ++x) {
            for (unsigned sa = 0; sa < layout.sample_count_sa; ++sa) {
               uint8_t *t = image + wavesim_ms_sample_index(&layout, x, y, sa) * 4;
               t[0] = 16 * x + 1;
               t[1] = 16 * y + 2;
               t[2] = 64 * sa + 3;
               t[3] = 0;
            }
         }
   }
   uint8_t linear[4 * 4 * 4];
   for (unsigned z = 0; z < (layout.sample_count_sa > 1 ? 0 : layout.depth_px); ++z) {
      for (unsigned y = 0; y < layout.height_px; ++y)
         for (unsigned x = 0; x < 4; ++x) {
            uint8_t *t = &linear[(y * 4 + x) * 4];
            if (shadow) {
               /* the harness's GL_DEPTH_COMPONENT32F texel: (x + 4y + 0.5) / 16 */
               float d = ((float)(x + 4 * y) + 0.5f) / 16.0f;
               memcpy(t, &d, 4);
               continue;
            }
            /* cube faces all hold the z = 0 image (the harness uploads the same to each) */
            unsigned zz = smp->dim == GLSL_SAMPLER_DIM_CUBE ? 0 : z;
            t[0] = 16 * x + 1;
            t[1] = 16 * y + 2;
            t[2] = 16 * zz + 3;
            t[3] = 0;
         }
      /* 3D textures: slice z of level 0 (mipmapped_z: slices are layers of the level) */
      ail_tile(image + z * layout.layer_stride_B, linear, &layout, 0, 16, 0, 0, 4,
               layout.height_px);
   }
   struct agx_texture_packed tex;
   agx_pack(&tex, TEXTURE, cfg) {
      cfg.dimension = dim;
      cfg.layout = AGX_LAYOUT_TWIDDLED;
      cfg.channels = ail_pixel_format[format].channels;
      cfg.type = ail_pixel_format[format].type;
      cfg.swizzle_r = AGX_CHANNEL_R;
      cfg.swizzle_g = shadow ? AGX_CHANNEL_R : AGX_CHANNEL_G;
      cfg.swizzle_b = shadow ? AGX_CHANNEL_R : AGX_CHANNEL_B;
      cfg.swizzle_a = shadow ? AGX_CHANNEL_1 : AGX_CHANNEL_A;
      cfg.width = layout.width_px;
      cfg.height = layout.height_px;
      cfg.first_level = cfg.last_level = 0;
      cfg.address = 0;
      cfg.depth = dim == AGX_TEXTURE_DIMENSION_CUBE ? 1 : layout.depth_px;
      cfg.page_aligned_layers = layout.page_aligned_layers;
      if (layout.sample_count_sa > 1)
         cfg.samples = layout.sample_count_sa == 4 ? AGX_SAMPLE_COUNT_4 : AGX_SAMPLE_COUNT_2;
   }
   bool rect = smp->dim == GLSL_SAMPLER_DIM_RECT;
   struct agx_sampler_packed sampler;
   agx_pack(&sampler, SAMPLER, cfg) {
      cfg.minimum_lod = 0;
      cfg.maximum_lod = 1000;
      cfg.maximum_anisotropy = 1;
      cfg.magnify = cfg.minify = getenv("GLSL_GRAPHICS_LINEAR") ? AGX_FILTER_LINEAR
                                                                 : AGX_FILTER_NEAREST;
      cfg.mip_filter = AGX_MIP_FILTER_NONE;
      cfg.wrap_s = cfg.wrap_t = cfg.wrap_r = rect ? AGX_WRAP_CLAMP_TO_EDGE : AGX_WRAP_REPEAT;
      cfg.pixel_coordinates = rect;
      cfg.compare_func = AGX_COMPARE_FUNC_LEQUAL;
      cfg.compare_enable = shadow;
      cfg.seamful_cube_maps = true;
   }
   char path[4096];
   snprintf(path, sizeof(path), "%s.tex%u.bin", out, smp->index);
   FILE *f = fopen(path, "wb");
   if (!f || fwrite(image, layout.size_B, 1, f) != 1 || fclose(f))
      return false;
   free(image);
   const uint32_t *tw = (const uint32_t *)&tex, *sw = (const uint32_t *)&sampler;
   printf("texture %u %" PRIu64 " %s", smp->index, layout.size_B, shadow ? "z32f" : "rgba8");
   for (unsigned i = 0; i < 6; ++i)
      printf(" %u", tw[i]);
   printf("\nsampler_desc %u %u %u\n", smp->index, sw[0], sw[1]);
   return true;
}

/* The default block's uniforms as the GL state tracker gives them to a driver with
 * nir->options->lower_uniforms_to_ubo (st_nir_lower_uniforms): each uniform at its own vec4
 * slots (the unpacked layout: arrays element by element, matrices column by column, a vec4 slot
 * each), loaded from uniform block 0 (nir_lower_uniforms_to_ubo). Prints `uniform NAME TYPE
 * ELEMENTS SLOT` for each (ELEMENTS 0 for a non-array). The GL built-in state uniforms
 * (gl_LightSource, gl_Fog, ...: the fixed-function state the state tracker keeps) and structs
 * are refused: the harness gives no values for them. */
static bool
place_gl_uniforms(nir_shader *nir)
{
   unsigned slot = 0;
   nir_foreach_variable_with_modes(var, nir, nir_var_uniform) {
      const struct glsl_type *t = glsl_without_array(var->type);
      if (glsl_type_is_sampler(t) || glsl_type_is_texture(t))
         continue;
      /* The fixed-function matrices hold GL's initial state in the harness, which never
       * loads them: every matrix stack starts as the identity (GL 4.6 compatibility, 12.1.1),
       * and so are their inverses, transposes and the normal matrix. */
      static const char *const identity[] = {
         "gl_ModelViewMatrix", "gl_ProjectionMatrix", "gl_ModelViewProjectionMatrix",
         "gl_TextureMatrix", "gl_NormalMatrix"};
      bool is_identity = false;
      for (unsigned i = 0; i < ARRAY_SIZE(identity); ++i)
         is_identity |= !strncmp(var->name, identity[i], strlen(identity[i])) &&
                        glsl_type_is_matrix(t);
      if ((var->num_state_slots || !strncmp(var->name, "gl_", 3)) && !is_identity) {
         fprintf(stderr, "glsl_graphics: built-in uniform %s (GL state)\n", var->name);
         return false;
      }
      if (!glsl_type_is_vector_or_scalar(t) && !glsl_type_is_matrix(t)) {
         fprintf(stderr, "glsl_graphics: uniform %s of type %s\n", var->name,
                 glsl_get_type_name(var->type));
         return false;
      }
      if (glsl_type_is_array(var->type) && glsl_type_is_array(glsl_get_array_element(var->type))) {
         fprintf(stderr, "glsl_graphics: uniform %s: array of arrays\n", var->name);
         return false;
      }
      var->data.driver_location = slot;
      printf("uniform %s %s %u %u%s\n", var->name, glsl_get_type_name(t),
             glsl_type_is_array(var->type) ? glsl_get_length(var->type) : 0, slot,
             is_identity ? " identity" : "");
      slot += glsl_count_vec4_slots(var->type, false, false);
   }
   nir->num_uniforms = slot * 16;
   nir_foreach_variable_with_modes(var, nir, nir_var_mem_ubo | nir_var_mem_ssbo) {
      fprintf(stderr, "glsl_graphics: uniform or storage block %s\n", var->name);
      return false;
   }
   return true;
}

/* A GL vertex shader's attributes and outputs, as the harness feeds and captures them: every
 * attribute a float vector (gl_Vertex, a generic one, or a built-in the harness leaves at its
 * current value: gl_Normal, gl_Color, gl_SecondaryColor, gl_FogCoord, gl_MultiTexCoordN) at
 * the attribute index the linker lowered
 * its loads to (the load_input base; the prolog fetches attribute a for base a), and the
 * outputs gl_Position and generic varyings (vectors; transform feedback captures them by name).
 * Prints `attribute NAME DRIVER VERT_ATTRIB` and `output NAME TYPE SLOT FRAC` (SLOT the varying
 * slot). */
static bool
place_gl_vertex_io(nir_shader *nir)
{
   nir_shader_gather_info(nir, nir_shader_get_entrypoint(nir));
   uint64_t read = nir->info.inputs_read;
   gl_nr_attribs = 0;
   /* the attribute index each load_input reads (its base: the linker lowered the inputs) */
   int base_of[VERT_ATTRIB_MAX];
   for (unsigned i = 0; i < VERT_ATTRIB_MAX; ++i)
      base_of[i] = -1;
   nir_foreach_function_impl(impl, nir) {
      nir_foreach_block(block, impl) {
         nir_foreach_instr(instr, block) {
            if (instr->type != nir_instr_type_intrinsic)
               continue;
            nir_intrinsic_instr *intr = nir_instr_as_intrinsic(instr);
            if (intr->intrinsic != nir_intrinsic_load_input)
               continue;
            unsigned loc = nir_intrinsic_io_semantics(intr).location;
            if (loc < VERT_ATTRIB_MAX)
               base_of[loc] = nir_intrinsic_base(intr);
         }
      }
   }
   nir_foreach_shader_in_variable(var, nir) {
      const struct glsl_type *t = var->type;
      unsigned loc = var->data.location;
      bool current = loc == VERT_ATTRIB_NORMAL || loc == VERT_ATTRIB_COLOR0 ||
                     loc == VERT_ATTRIB_COLOR1 || loc == VERT_ATTRIB_FOG ||
                     (loc >= VERT_ATTRIB_TEX0 && loc <= VERT_ATTRIB_TEX7);
      if ((loc != VERT_ATTRIB_POS && !current && loc < VERT_ATTRIB_GENERIC0) ||
          !glsl_type_is_vector_or_scalar(t) || glsl_get_base_type(t) != GLSL_TYPE_FLOAT) {
         fprintf(stderr, "glsl_graphics: attribute %s (%s at %s): the harness feeds gl_Vertex and "
                         "generic float vectors\n", var->name, glsl_get_type_name(t),
                 gl_vert_attrib_name(loc));
         return false;
      }
      if (!(read & BITFIELD64_BIT(loc)) || base_of[loc] < 0)
         continue;
      gl_nr_attribs = MAX2(gl_nr_attribs, (unsigned)base_of[loc] + 1);
      printf("attribute %s %d %u\n", var->name, base_of[loc], loc);
   }
   nir_foreach_shader_out_variable(var, nir) {
      const struct glsl_type *t = var->type;
      unsigned loc = var->data.location;
      /* the point size the linker adds for a driver that needs it written (the
       * PointSizeFixed state, nir_lower_point_size_mov): not the program's, not captured */
      if (loc == VARYING_SLOT_PSIZ && var->data.how_declared != nir_var_declared_normally)
         continue;
      /* gl_Position, the compatibility built-ins transform feedback can capture by name
       * (gl_FrontColor, gl_FrontSecondaryColor, gl_BackColor, gl_BackSecondaryColor,
       * gl_FogFragCoord, gl_TexCoord[i]) and generic vectors */
      bool builtin = loc == VARYING_SLOT_COL0 || loc == VARYING_SLOT_COL1 ||
                     loc == VARYING_SLOT_BFC0 || loc == VARYING_SLOT_BFC1 ||
                     loc == VARYING_SLOT_FOGC;
      bool texcoord = loc == VARYING_SLOT_TEX0 && glsl_type_is_array(t) &&
                      glsl_type_is_vector(glsl_get_array_element(t));
      if (!texcoord && ((loc != VARYING_SLOT_POS && !builtin && loc < VARYING_SLOT_VAR0) ||
                        !glsl_type_is_vector_or_scalar(t))) {
         fprintf(stderr, "glsl_graphics: output %s (%s at %s): gl_Position and generic vector "
                         "varyings are captured\n", var->name, glsl_get_type_name(t),
                 gl_varying_slot_name_for_stage(loc, MESA_SHADER_VERTEX));
         return false;
      }
      printf("output %s %s %u %u\n", var->name, glsl_get_type_name(t), loc,
             var->data.location_frac);
   }
   return true;
}

static int
vec4_slots(const struct glsl_type *type, bool bindless)
{
   return glsl_count_vec4_slots(type, false, bindless);
}

/* Application GLSL through Mesa's GLSL compiler and linker (tools/agx/glsl_mesa_front.cpp),
 * then what the GL state tracker does before the driver's create_fs_state: uniforms to block 0,
 * input locations, gl_FragCoord at the pixel centre (for drivers with integer pixel centres,
 * as asahi's are). */
static nir_shader *
glsl_front(const char *vs_path, const char *fs_path, const char *out, gl_shader_stage stage)
{
   size_t size = 0;
   const char *path = stage == MESA_SHADER_VERTEX ? vs_path : fs_path;
   char *src = read_file(path, &size);
   if (!src) {
      fprintf(stderr, "glsl_graphics: cannot read %s\n", path);
      return NULL;
   }
   src = realloc(src, size + 1);
   src[size] = 0;
   /* the stage alone, as a separable program (glsl_mesa_front.cpp) */
   struct gl_shader_program *prog =
      stage == MESA_SHADER_VERTEX ? wavesim_glsl_link(src, NULL, &agx_nir_options)
                                  : wavesim_glsl_link(NULL, src, &agx_nir_options);
   if (!prog)
      return NULL;
   nir_shader *nir = wavesim_glsl_stage(prog, stage);
   if (!nir) {
      fprintf(stderr, "glsl_graphics: no such stage\n");
      return NULL;
   }
   struct wavesim_sampler samplers[32];
   unsigned n_samplers = wavesim_glsl_samplers(prog, stage, samplers, 32);
   if (n_samplers && stage == MESA_SHADER_VERTEX) {
      fprintf(stderr, "glsl_graphics: samplers in a vertex shader are not placed\n");
      return NULL;
   }
   for (unsigned i = 0; i < n_samplers; ++i) {
      printf("sampler %s %u %u\n", samplers[i].name, samplers[i].element, samplers[i].index);
      if (!write_texture(&samplers[i], out))
         return NULL;
   }
   NIR_PASS(_, nir, nir_lower_global_vars_to_local);
   NIR_PASS(_, nir, nir_lower_io_to_temporaries, nir_shader_get_entrypoint(nir), true, true);
   NIR_PASS(_, nir, nir_lower_global_vars_to_local);
   NIR_PASS(_, nir, nir_split_var_copies);
   NIR_PASS(_, nir, nir_lower_var_copies);
   optimize(nir);
   NIR_PASS(_, nir, nir_remove_dead_variables, nir_var_uniform | nir_var_function_temp |
            nir_var_shader_temp, NULL);
   if (!place_gl_uniforms(nir))
      return NULL;
   NIR_PASS(_, nir, nir_lower_io, nir_var_uniform, vec4_slots, 0);
   NIR_PASS(_, nir, nir_lower_uniforms_to_ubo, false, false);
   NIR_PASS(_, nir, nir_lower_system_values);
   if (stage == MESA_SHADER_FRAGMENT) {
      NIR_PASS(_, nir, nir_lower_wpos_center);
      nir_assign_io_var_locations(nir, nir_var_shader_in, &nir->num_inputs, stage);
      nir_foreach_shader_in_variable(var, nir)
         printf("input %s %s %s %u %u\n", var->name, glsl_get_type_name(var->type),
                gl_varying_slot_name_for_stage(var->data.location, stage),
                var->data.location_frac, var->data.interpolation);
   } else if (!place_gl_vertex_io(nir)) {
      return NULL;
   } else {
      /* GL's vertex colour clamp (CLAMP_VERTEX_COLOR, TRUE in the compatibility profile;
       * GL 4.6 compat 12.2.3), which the state tracker lowers into the vertex shader of a
       * driver without the vertex_color_clamped cap, as asahi is (st_program.c clamp_color) */
      NIR_PASS(_, nir, nir_lower_clamp_color_outputs);
   }
   optimize(nir);
   return nir;
}

/* agx_build_meta_shader_internal: a prolog is compiled as built; an epilog or an internal program
 * is linked with libagx and preprocessed first. */
static void
compile_meta(nir_shader *s, const nir_shader *libagx, bool prolog, bool secondary,
             unsigned reserved_preamble, struct agx_shader_part *out)
{
   if (!prolog) {
      agx_link_libagx(s, libagx);
      NIR_PASS(_, s, nir_lower_vars_to_explicit_types, nir_var_mem_shared,
               glsl_get_cl_type_size_align);
      NIR_PASS(_, s, nir_lower_explicit_io, nir_var_mem_shared,
               nir_address_format_62bit_generic);
      agx_preprocess_nir(s, NULL);
      NIR_PASS(_, s, agx_nir_lower_texture);
      NIR_PASS(_, s, agx_nir_lower_multisampled_image_store);
   }
   if (s->info.stage == MESA_SHADER_FRAGMENT)
      NIR_PASS(_, s, agx_nir_lower_interpolation);
   if (getenv("GLSL_GRAPHICS_DEBUG"))
      nir_print_shader(s, stderr);
   /* agx_build_meta_shader_internal: an epilog that shades samples runs inside the linked
    * sample loop (agx_compile_nir's inside_sample_loop), so it is not terminal either */
   bool in_loop = s->info.stage == MESA_SHADER_FRAGMENT && s->info.fs.uses_sample_shading;
   struct agx_shader_key key = {
      .libagx = libagx,
      .has_scratch = !secondary,
      .promote_constants = true,
      .no_stop = prolog || in_loop,
      .fs.inside_sample_loop = in_loop,
      .secondary = secondary,
      .reserved_preamble = reserved_preamble,
   };
   agx_compile_shader_nir(s, &key, NULL, out);
}

static bool
write_parts(const char *path, struct agx_shader_part **parts, unsigned n, const uint8_t *extra,
            size_t extra_size)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return false;
   for (unsigned i = 0; i < n; ++i) {
      if (parts[i]->info.main_size &&
          fwrite(parts[i]->binary + parts[i]->info.main_offset, parts[i]->info.main_size, 1,
                 f) != 1)
         return false;
   }
   if (extra_size && fwrite(extra, extra_size, 1, f) != 1)
      return false;
   return fclose(f) == 0;
}

/* agx_fast_link's sample loop (agx_linker.c), for a program whose main part shades samples:
 * after the prolog, `mov_imm r0l, 0; mov_imm r1l, 1` (r1l, AGX_ABI_FIN_SAMPLE_MASK, the bit of the
 * sample being shaded); after the epilog, `iadd r1l, 0, r1l, lsl 1; while_icmp r0l, ult, r1l,
 * END; jmp_exec_any LOOP; pop_exec r0l, 1; stop` with END = (1 << samples) - 1 in bits 4-7 of byte
 * 11 and the jump's 32-bit displacement (from the jmp_exec_any back to the loop's first byte) at
 * byte 16; then 8 traps. For one sample shaded, the header and a stop. The bytes are those
 * agx_fast_link copies (it writes them as constants, not through the compiler). */
static const uint8_t loop_header[] = {0x62, 0x00, 0x00, 0x00, 0x62, 0x04, 0x01, 0x00};
static const uint8_t loop_stop[] = {0x88, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08,
                                    0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00};
static const uint8_t loop_footer[] = {0x0e, 0x04, 0x00, 0x20, 0x84, 0x00, 0x00, 0x00,
                                      0x52, 0x2c, 0x42, 0x00, 0x00, 0x00, 0x00, 0xc0,
                                      0x00, 0x00, 0x00, 0x00, 0x52, 0x0e, 0x00, 0x00,
                                      0x00, 0x00};

static size_t
sample_loop_size(unsigned shaded)
{
   if (!shaded)
      return 0;
   return sizeof(loop_header) + (shaded > 1 ? sizeof(loop_footer) : 0) + sizeof(loop_stop);
}

/* The linked program as agx_fast_link lays it out: the prolog, then (with sample shading) the
 * loop header, the main part and the epilog, then the loop footer or a stop; then the main
 * part's preamble (`extra`). */
static bool
write_linked(const char *path, struct agx_shader_part **parts, unsigned shaded,
             const uint8_t *extra, size_t extra_size)
{
   FILE *f = fopen(path, "wb");
   if (!f)
      return false;
   size_t body = 0;
   for (unsigned i = 0; i < 3; ++i) {
      if (i == 1 && shaded && fwrite(loop_header, sizeof(loop_header), 1, f) != 1)
         return false;
      if (parts[i]->info.main_size &&
          fwrite(parts[i]->binary + parts[i]->info.main_offset, parts[i]->info.main_size, 1,
                 f) != 1)
         return false;
      if (i > 0)
         body += parts[i]->info.main_size;
   }
   if (shaded > 1) {
      uint8_t footer[sizeof(loop_footer)];
      memcpy(footer, loop_footer, sizeof(footer));
      footer[11] = (uint8_t)(((1u << shaded) - 1) << 4);
      int32_t target = -(int32_t)(14 + body);
      memcpy(footer + 16, &target, 4);
      if (fwrite(footer, sizeof(footer), 1, f) != 1)
         return false;
   }
   if (shaded && fwrite(loop_stop, sizeof(loop_stop), 1, f) != 1)
      return false;
   if (extra_size && fwrite(extra, extra_size, 1, f) != 1)
      return false;
   return fclose(f) == 0;
}

int
main(int argc, char **argv)
{
   bool vertex = argc == 4 && !strcmp(argv[1], "--vertex");
   bool gl = argc == 5 && !strcmp(argv[1], "--glsl");
   bool gl_vertex = argc == 4 && !strcmp(argv[1], "--glsl-vertex");
   const char *vs_path = NULL, *fs_path = NULL;
   if (vertex) {
      argv++;
      argc--;
   }
   if (gl) {
      vs_path = argv[2];
      fs_path = argv[3];
      argv += 2;
      argc -= 2;
   }
   if (gl_vertex) {
      vertex = gl = true;
      vs_path = argv[2];
      argv++;
      argc--;
   }
   if (argc != 3) {
      fprintf(stderr,
              "usage: %s [--vertex] IN.spv OUT | --glsl VS FS OUT | --glsl-vertex VS OUT\n",
              argv[0]);
      return 1;
   }
   gl_shader_stage stage = vertex ? MESA_SHADER_VERTEX : MESA_SHADER_FRAGMENT;
   const char *samples_env = getenv("GLSL_GRAPHICS_SAMPLES");
   gl_nr_samples = samples_env ? atoi(samples_env) : 1;
   gl_a2c = getenv("GLSL_GRAPHICS_A2C") && gl_nr_samples > 1;
   if (gl_nr_samples != 1 && gl_nr_samples != 2 && gl_nr_samples != 4) {
      fprintf(stderr, "glsl_graphics: GLSL_GRAPHICS_SAMPLES=%u (1, 2 or 4)\n", gl_nr_samples);
      return 1;
   }
   glsl_type_singleton_init_or_ref();
   void *mem = ralloc_context(NULL);

   struct blob_reader blob;
   blob_reader_init(&blob, (void *)libagx_0_nir, sizeof(libagx_0_nir));
   nir_shader *libagx = nir_deserialize(mem, &agx_nir_options, &blob);

   nir_shader *nir =
      gl ? glsl_front(vs_path, fs_path, argv[2], stage) : spirv_front(argv[1], stage);
   if (!nir)
      return 1;
   ralloc_steal(mem, nir);
   if (gl)
      goto driver;

   /* What a SPIR-V consumer does before the driver sees the shader. */
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
   /* SPIR-V's FragCoord is the pixel's integer corner; the centre is +0.5 (the Vulkan driver's
    * nir_lower_wpos_center, hk_shader.c; GL's state tracker does the same for gallium). */
   if (!vertex)
      NIR_PASS(_, nir, nir_lower_wpos_center);
   NIR_PASS(_, nir, nir_lower_io_to_temporaries, nir_shader_get_entrypoint(nir), true, true);
   NIR_PASS(_, nir, nir_lower_global_vars_to_local);
   optimize(nir);

driver:;
   struct layout l = {.ubo_base = UBO_BASE_HALF};
   /* A GL vertex shader's blocks follow the prolog's uniforms (6n + 4 halves, compile_vertex). */
   if (gl && vertex)
      l.ubo_base = ALIGN(6 * gl_nr_attribs + 4, 4);
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_descriptors, nir_metadata_control_flow, &l);
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_gl_ubo, nir_metadata_control_flow, &l);
   NIR_PASS(_, nir, nir_lower_explicit_io,
            nir_var_mem_ssbo | nir_var_mem_ubo | nir_var_mem_global,
            nir_address_format_64bit_global);
   if (l.failed)
      return 1;
   optimize(nir);

   /* agx_shader_initialize (gallium), as for a fragment shader. */
   NIR_PASS(_, nir, agx_nir_lower_texture_early, true);
   /* Attribute a is the prolog's attribute a (the GL state tracker's driver locations). */
   if (vertex && !gl) {
      nir_foreach_shader_in_variable(var, nir)
         var->data.driver_location = var->data.location - VERT_ATTRIB_GENERIC0;
   }
   NIR_PASS(_, nir, nir_lower_io, nir_var_shader_in | nir_var_shader_out, io_type_size,
            nir_lower_io_lower_64bit_to_32 | nir_lower_io_use_interpolated_input_intrinsics);
   if (!vertex) {
      struct agx_interp_info interp = agx_gather_interp_info(nir);
      uint64_t texcoord = agx_gather_texcoords(nir);
      NIR_PASS(_, nir, nir_lower_mediump_io, nir_var_shader_in | nir_var_shader_out,
               ~(interp.flat | texcoord), false);
   }
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
   /* Texture instructions that crawl the descriptor (size queries, array layers clamped to
    * the layer count, txf of a nonzero level) read it through a bindless handle the driver
    * makes with agx_nir_lower_bindings from its texture table (a sysval): not placed here. */
   nir_foreach_function_impl(impl, nir) {
      nir_foreach_block(block, impl) {
         nir_foreach_instr(instr, block) {
            if (instr->type == nir_instr_type_tex &&
                (agx_nir_needs_texture_crawl(instr) || nir_instr_as_tex(instr)->is_array)) {
               fprintf(stderr, "glsl_graphics: a texture instruction reading the descriptor "
                               "(size query, array layer clamp or txf of a level): the driver's "
                               "bindless texture table is not placed\n");
               return 1;
            }
         }
      }
   }
   NIR_PASS(_, nir, agx_nir_lower_texture);
   agx_preprocess_nir(nir, libagx);
   if (vertex) {
      if (l.bindings && !gl) {
         fprintf(stderr, "glsl_graphics: uniform blocks in a vertex shader are not placed\n");
         return 1;
      }
      return compile_vertex(nir, libagx, l.bindings, argv[2]);
   }
   NIR_PASS(_, nir, agx_nir_lower_sample_intrinsics, true);

   /* agx_compile_variant, fragment. */
   nir_shader_gather_info(nir, nir_shader_get_entrypoint(nir));
   struct agx_fs_epilog_link_info link = {0};
   NIR_PASS(_, nir, agx_nir_lower_discard_zs_emit);
   NIR_PASS(_, nir, agx_nir_lower_fs_output_to_epilog, &link);
   bool sample_shading = nir->info.fs.uses_sample_shading;
   if (sample_shading) {
      /* As agx_compile_variant: keep the sample being shaded (r1l) for the epilog, and make
       * the main part's fragment I/O act on that sample only. */
      nir_builder sb = nir_builder_at(nir_after_impl(nir_shader_get_entrypoint(nir)));
      nir_export_agx(&sb, nir_load_exported_agx(&sb, 1, 16, .base = AGX_ABI_FIN_SAMPLE_MASK),
                     .base = AGX_ABI_FOUT_SAMPLE_MASK);
      NIR_PASS(_, nir, agx_nir_lower_to_per_sample);
   }
   NIR_PASS(_, nir, agx_nir_lower_sample_mask);
   NIR_PASS(_, nir, agx_nir_lower_fs_active_samples_to_register);
   NIR_PASS(_, nir, agx_nir_lower_multisampled_image_store);

   /* agx_compile_nir: not terminal (the epilog follows), not secondary. */
   NIR_PASS(_, nir, agx_nir_lower_interpolation);
   NIR_PASS(_, nir, nir_shader_intrinsics_pass, lower_draw_sysvals, nir_metadata_control_flow,
            NULL);
   NIR_PASS(_, nir, nir_shader_instructions_pass, lower_lod_bias, nir_metadata_control_flow,
            NULL);
   if (getenv("GLSL_GRAPHICS_DEBUG"))
      nir_print_shader(nir, stderr);
   struct agx_shader_key key = {
      .libagx = libagx,
      .has_scratch = true,
      .promote_constants = true,
      .no_stop = true,
      .reserved_preamble = UBO_BASE_HALF + 4 * l.bindings,
      /* the gallium driver always shades samples through the linked loop */
      .fs.inside_sample_loop = sample_shading,
   };
   struct agx_shader_part main_part;
   agx_compile_shader_nir(nir, &key, NULL, &main_part);

   /* The prolog and epilog for this draw. */
   struct agx_fs_prolog_key prolog_key = {.api_sample_mask = 0xff};
   nir_builder pb =
      nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, &agx_nir_options, "AGX meta shader");
   agx_nir_fs_prolog(&pb, &prolog_key);
   struct agx_shader_part prolog;
   compile_meta(pb.shader, libagx, true, true, 0, &prolog);

   /* The draw's render targets and blend state (environment, as tools/agx/gl25_corpus.py sets
    * them from the shader's header): GLSL_GRAPHICS_RTS render targets (1-2, RGBA8 unorm, draw
    * buffer i to render target i) and GLSL_GRAPHICS_BLEND for each: unset (blending off),
    * "alpha" (glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)) or "add" (glBlendFunc(GL_ONE,
    * GL_ONE)), equation ADD; as the gallium driver keys its epilog (agx_update_fs_epilog:
    * pipe_blend_state to agx_blend_rt_key). */
   const char *rts_env = getenv("GLSL_GRAPHICS_RTS");
   unsigned nr_rts = rts_env ? atoi(rts_env) : 1;
   const char *blend = getenv("GLSL_GRAPHICS_BLEND");
   enum pipe_blendfactor src = PIPE_BLENDFACTOR_ONE, dst = PIPE_BLENDFACTOR_ZERO;
   if (blend && !strcmp(blend, "alpha")) {
      src = PIPE_BLENDFACTOR_SRC_ALPHA;
      dst = PIPE_BLENDFACTOR_INV_SRC_ALPHA;
   } else if (blend && !strcmp(blend, "add")) {
      dst = PIPE_BLENDFACTOR_ONE;
   } else if (blend) {
      fprintf(stderr, "glsl_graphics: GLSL_GRAPHICS_BLEND=%s (alpha, add)\n", blend);
      return 1;
   }
   if (nr_rts < 1 || nr_rts > 2) {
      fprintf(stderr, "glsl_graphics: GLSL_GRAPHICS_RTS=%u (1 or 2)\n", nr_rts);
      return 1;
   }
   struct agx_fs_epilog_key ekey = {.link = link, .nr_samples = gl_nr_samples};
   for (unsigned i = 0; i < 8; ++i)
      ekey.remap[i] = -1;
   for (unsigned i = 0; i < nr_rts; ++i) {
      ekey.remap[i] = i;
      ekey.rt_formats[i] = PIPE_FORMAT_R8G8B8A8_UNORM;
      ekey.blend.rt[i] = (struct agx_blend_rt_key){
         .rgb_func = PIPE_BLEND_ADD,
         .rgb_src_factor = src,
         .rgb_dst_factor = dst,
         .alpha_func = PIPE_BLEND_ADD,
         .alpha_src_factor = src,
         .alpha_dst_factor = dst,
         .colormask = 0xf,
      };
   }
   ekey.blend.logicop_func = PIPE_LOGICOP_COPY;
   ekey.blend.alpha_to_coverage = gl_a2c;
   nir_builder eb =
      nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, &agx_nir_options, "AGX meta shader");
   agx_nir_fs_epilog(&eb, &ekey);
   struct agx_shader_part epilog;
   compile_meta(eb.shader, libagx, false, true, 0, &epilog);

   /* agx_build_end_of_tile_shader for the same tile buffer: render target i stored through
    * texture state i (its PBE descriptor). */
   struct agx_tilebuffer_layout tib =
      agx_build_tilebuffer_layout(ekey.rt_formats, 8, gl_nr_samples, true);
   nir_builder tb = nir_builder_init_simple_shader(MESA_SHADER_COMPUTE, &agx_nir_options,
                                                   "agx_eot");
   for (unsigned i = 0; i < nr_rts; ++i)
      nir_image_store_block_agx(&tb, nir_imm_intN_t(&tb, i, 16),
                                nir_imm_intN_t(&tb, agx_tilebuffer_offset_B(&tib, i), 16),
                                nir_undef(&tb, 1, 16),
                                .format = agx_tilebuffer_physical_format(&tib, i),
                                .image_dim = gl_nr_samples > 1 ? GLSL_SAMPLER_DIM_MS
                                                               : GLSL_SAMPLER_DIM_2D,
                                .image_array = false);
   agx_nir_lower_texture(tb.shader);
   agx_preprocess_nir(tb.shader, libagx);
   struct agx_shader_key tkey = {.libagx = libagx};
   struct agx_shader_part eot;
   agx_compile_shader_nir(tb.shader, &tkey, NULL, &eot);

   if (prolog.info.has_preamble || epilog.info.has_preamble) {
      fprintf(stderr, "glsl_graphics: a prolog or epilog with a preamble\n");
      return 1;
   }
   char path[4096];
   struct agx_shader_part *parts[] = {&prolog, &main_part, &epilog};
   size_t linked = prolog.info.main_size + main_part.info.main_size + epilog.info.main_size;
   const uint8_t *pre = main_part.binary + main_part.info.preamble_offset;
   size_t pre_size = main_part.info.has_preamble
                        ? main_part.info.binary_size - main_part.info.preamble_offset
                        : 0;
   snprintf(path, sizeof(path), "%s.bin", argv[2]);
   if (main_part.info.has_preamble &&
       main_part.info.preamble_offset < main_part.info.main_offset + main_part.info.main_size) {
      fprintf(stderr, "glsl_graphics: the preamble precedes the main part\n");
      return 1;
   }
   if (!write_linked(path, parts, sample_shading ? gl_nr_samples : 0, pre, pre_size))
      return 1;
   struct agx_shader_part *eparts[] = {&eot};
   snprintf(path, sizeof(path), "%s.eot.bin", argv[2]);
   if (eot.info.has_preamble || !write_parts(path, eparts, 1, NULL, 0))
      return 1;

   printf("prolog_size %u\nmain_size %u\nepilog_size %u\n", prolog.info.main_size,
          main_part.info.main_size, epilog.info.main_size);
   linked += sample_loop_size(sample_shading ? gl_nr_samples : 0);
   printf("preamble_offset %zu\nhas_preamble %d\n", linked, main_part.info.has_preamble);
   printf("samples %u\nsample_shading %d\ntile %u %u\nsample_size %u\n", gl_nr_samples,
          sample_shading, tib.tile_size.width, tib.tile_size.height, tib.sample_size_B);
   printf("nr_gprs %u\nnr_preamble_gprs %u\n",
          MAX3(prolog.info.nr_gprs, main_part.info.nr_gprs, epilog.info.nr_gprs),
          main_part.info.nr_preamble_gprs);
   printf("scratch %u\nbindings %u\nwrites_z %d\nwrites_s %d\n", main_part.info.scratch_size,
          l.bindings, link.write_z, link.write_s);
   printf("eot_nr_gprs %u\ntib_offset %u\n", eot.info.nr_gprs, agx_tilebuffer_offset_B(&tib, 0));
   for (unsigned i = 1; i < nr_rts; ++i)
      printf("tib_offset_%u %u\n", i, agx_tilebuffer_offset_B(&tib, i));
   const struct agx_varyings_fs *v = &main_part.info.varyings.fs;
   printf("nr_cf %u\n", v->nr_cf);
   for (unsigned i = 0; i < v->nr_bindings; ++i) {
      const struct agx_cf_binding *c = &v->bindings[i];
      printf("cf %u %u %u %u %d %d\n", c->cf_base, c->slot, c->offset, c->count, c->smooth,
             c->perspective);
   }
   const uint16_t *imm = (const uint16_t *)(main_part.binary + main_part.info.rodata.offset);
   printf("immediates %u", main_part.info.rodata.base_uniform);
   for (unsigned i = 0; i < main_part.info.rodata.size_16; ++i)
      printf(" %u", imm[i]);
   printf("\n");
   ralloc_free(mem);
   glsl_type_singleton_decref();
   return 0;
}
