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
 * Usage: glsl_compute IN.spv OUT.blob   (prints the argument layout: "arg OFFSET COMPONENTS BITS NAME")
 * Build: tools/agx/build_glsl_compute.sh (against tools/mesa/build_new.sh's tree).
 */

#include "asahi/compiler/agx_compile.h"
#include "asahi/compiler/agx_nir.h"
#include "asahi/lib/libagx_shaders.h"
#include "compiler/glsl_types.h"
#include "compiler/spirv/nir_spirv.h"
#include "nir.h"
#include "nir_builder.h"
#include "nir_serialize.h"
#include "util/blob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BINDINGS 16

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

int
main(int argc, char **argv)
{
   if (argc != 3) {
      fprintf(stderr, "usage: %s IN.spv OUT.blob\n", argv[0]);
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

   struct blob_reader blob;
   blob_reader_init(&blob, (void *)libagx_0_nir, sizeof(libagx_0_nir));
   nir_shader *libagx = nir_deserialize(mem, &agx_nir_options, &blob);

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
   agx_preprocess_nir(nir, libagx);

   /* agx_compile_nir (gallium): the arguments take the reserved uniforms. */
   unsigned args_B = l.push_base_B + push_size_B;
   struct agx_shader_key key = {
      .libagx = libagx,
      .has_scratch = true,
      .promote_constants = true,
      .reserved_preamble = DIV_ROUND_UP(args_B, 2),
   };
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
   printf("args_size %u\nscratch %u\n", args_B,
          compiled.info.scratch_size + compiled.info.preamble_scratch_size);
   free(compiled.binary);
   ralloc_free(mem);
   glsl_type_singleton_decref();
   return 0;
}
