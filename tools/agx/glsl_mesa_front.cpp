/*
 * wavesim: Mesa 25.0.7's own GLSL front end for tools/agx/glsl_graphics.c (`--glsl`), so that
 * application GLSL (GLSL 1.10-4.60, compatibility built-ins such as gl_FragColor, gl_TexCoord,
 * gl_Color) reaches the asahi compiler as it does under the GL state tracker: each shader
 * compiled by _mesa_glsl_compile_shader, the program linked by gl_nir_link_glsl (which converts
 * to NIR with glsl_to_nir and links varyings and uniforms in NIR), then samplers lowered to
 * texture indices with gl_nir_lower_samplers, as st_glsl_to_nir.cpp does for a driver without
 * sampler derefs.
 *
 * The context is the standalone compiler's (standalone_scaffolding.cpp) with the limits of a GL
 * 4.6 compatibility driver and the asahi compiler's NIR options (agx_nir_options), which
 * glsl_to_nir reads. It differs from a real context only where the state tracker would consult
 * the driver: the limits (generous, so nothing a driver accepts is refused here).
 *
 * Build: tools/agx/build_glsl_graphics.sh.
 */
#include "ast.h"
#include "glsl_parser_extras.h"
#include "standalone_scaffolding.h"
#include "builtin_functions.h"
#include "nir.h"
#include "gl_nir.h"
#include "gl_nir_linker.h"
#include "linker_util.h"
#include "main/mtypes.h"

#include <stdio.h>
#include <string.h>

static void
set_limits(struct gl_context *ctx, const nir_shader_compiler_options *options)
{
   ctx->Version = 46;
   ctx->Const.GLSLVersion = 460;
   ctx->Const.GLSLVersionCompat = 460;
   ctx->Const.NativeIntegers = true;
   ctx->Const.UniformBooleanTrue = ~0u;
   /* asahi's screen: fs_position_is_sysval, fs_face_is_integer_sysval, not fs_point_is_sysval
    * (agx_pipe.c), which st_extensions.c turns into these. */
   ctx->Const.GLSLFragCoordIsSysVal = true;
   ctx->Const.GLSLFrontFacingIsSysVal = true;
   ctx->Const.GLSLPointCoordIsSysVal = false;
   ctx->Const.MaxLights = 8;
   ctx->Const.MaxClipPlanes = 8;
   ctx->Const.MaxTextureUnits = 8;
   ctx->Const.MaxTextureCoordUnits = 8;
   ctx->Const.MaxDrawBuffers = 8;
   ctx->Const.MaxDualSourceDrawBuffers = 1;
   ctx->Const.MaxVarying = 32;
   ctx->Const.MaxCombinedTextureImageUnits = 32;
   ctx->Const.MaxUniformBufferBindings = 16;
   ctx->Const.MaxCombinedUniformBlocks = 16;
   ctx->Const.MaxUserAssignableUniformLocations = 4096;
   ctx->Const.MinProgramTexelOffset = -8;
   ctx->Const.MaxProgramTexelOffset = 7;
   ctx->Const.MaxGeometryOutputVertices = 256;
   ctx->Const.MaxGeometryTotalOutputComponents = 1024;
   for (unsigned s = MESA_SHADER_VERTEX; s <= MESA_SHADER_FRAGMENT; ++s) {
      struct gl_program_constants *p = &ctx->Const.Program[s];
      p->MaxAttribs = 16;
      p->MaxTextureImageUnits = 16;
      p->MaxUniformComponents = 4096;
      p->MaxCombinedUniformComponents = 4096;
      p->MaxInputComponents = 128;
      p->MaxOutputComponents = 128;
      p->MaxUniformBlocks = 12;
      p->MaxAtomicBuffers = 0;
      p->MaxAtomicCounters = 0;
      p->MaxImageUniforms = 0;
      p->MaxShaderStorageBlocks = 0;
      ctx->Const.ShaderCompilerOptions[s].NirOptions = options;
   }
   ctx->Extensions.EXT_texture_array = true;
   /* more of what asahi's GL driver exposes (features.txt), so shaders enabling them compile */
   ctx->Extensions.ARB_shader_storage_buffer_object = true;
   ctx->Extensions.ARB_shader_image_load_store = true;
   ctx->Extensions.ARB_explicit_uniform_location = true;
   ctx->Extensions.ARB_texture_gather = true;
   ctx->Extensions.ARB_shader_atomic_counters = true;
   ctx->Extensions.ARB_enhanced_layouts = true;
   ctx->Extensions.ARB_shader_image_size = true;
   ctx->Extensions.ARB_shader_texture_lod = true;
   ctx->Extensions.EXT_gpu_shader4 = true;
}

/* Compile VS and FS (either may be NULL) and link them; on success returns the program, whose
 * linked stages hold NIR (`_LinkedShaders[stage]->Program->nir`), with samplers lowered. On
 * failure returns NULL and prints the compiler's or linker's log to stderr. */
extern "C" struct gl_shader_program *
wavesim_glsl_link(const char *vs, const char *fs, const nir_shader_compiler_options *options)
{
   static struct gl_context ctx_storage;
   struct gl_context *ctx = &ctx_storage;
   initialize_context_to_defaults(ctx, API_OPENGL_COMPAT);
   set_limits(ctx, options);
   _mesa_glsl_builtin_functions_init_or_ref();

   struct gl_shader_program *prog = standalone_create_shader_program();
   /* A stage alone is a separable program (glCreateShaderProgramv, GL 4.6 7.3): linked
    * without a producer or consumer, so its inputs and outputs are what the source has. */
   prog->SeparateShader = !vs || !fs;
   const char *sources[2] = {vs, fs};
   const GLenum types[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
   for (unsigned i = 0; i < 2; ++i) {
      if (!sources[i])
         continue;
      struct gl_shader *sh = standalone_add_shader_source(ctx, prog, types[i], sources[i]);
      _mesa_glsl_compile_shader(ctx, sh, NULL, false, false, true);
      if (!sh->CompileStatus) {
         fprintf(stderr, "glsl_graphics: %s shader does not compile: %s\n",
                 i ? "fragment" : "vertex", sh->InfoLog);
         return NULL;
      }
   }
   _mesa_clear_shader_program_data(ctx, prog);
   prog->data->LinkStatus = LINKING_SUCCESS;
   link_shaders_init(ctx, prog);
   gl_nir_link_glsl(ctx, prog);
   if (!prog->data->LinkStatus) {
      fprintf(stderr, "glsl_graphics: the program does not link: %s\n", prog->data->InfoLog);
      return NULL;
   }
   for (unsigned s = 0; s < MESA_SHADER_STAGES; ++s) {
      struct gl_linked_shader *l = prog->_LinkedShaders[s];
      if (l && l->Program->nir)
         gl_nir_lower_samplers(l->Program->nir, prog);
   }
   return prog;
}

/* The linked stage's NIR (NULL when the program has no such stage). */
extern "C" nir_shader *
wavesim_glsl_stage(struct gl_shader_program *prog, gl_shader_stage stage)
{
   struct gl_linked_shader *l = prog->_LinkedShaders[stage];
   return l ? l->Program->nir : NULL;
}

/* One sampler uniform element the stage uses: `index` is the texture (and sampler) state index
 * its texture instructions name, the GL program's sampler slot, which the application binds to a
 * texture unit with glUniform1i. */
struct wavesim_sampler {
   const char *name;
   unsigned element, index;
   enum glsl_sampler_dim dim;
   bool shadow, array;
};

extern "C" unsigned
wavesim_glsl_samplers(struct gl_shader_program *prog, gl_shader_stage stage,
                      struct wavesim_sampler *out, unsigned max)
{
   unsigned n_out = 0;
   for (unsigned i = 0; i < prog->data->NumUniformStorage; ++i) {
      const struct gl_uniform_storage *u = &prog->data->UniformStorage[i];
      const struct glsl_type *t = glsl_without_array(u->type);
      if (!glsl_type_is_sampler(t) || !u->opaque[stage].active)
         continue;
      unsigned n = MAX2(u->array_elements, 1);
      for (unsigned e = 0; e < n && n_out < max; ++e)
         out[n_out++] = (struct wavesim_sampler){
            u->name.string, e, u->opaque[stage].index + e, glsl_get_sampler_dim(t),
            glsl_sampler_type_is_shadow(t), glsl_sampler_type_is_array(t)};
   }
   return n_out;
}
