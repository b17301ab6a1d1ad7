/* Compile one shader-db `.shader_test` file with the GL driver EGL gives, and draw once so that
 * gallium drivers that compile at draw time (r600, asahi) compile the shaders too.
 *
 *   shader_test FILE.shader_test
 *
 * The driver is chosen by Mesa's usual environment (tools/mesa/run_corpus.sh sets it): the radeon
 * no-op DRM shim for r600, GALLIUM_DRIVER=asahi for asahi. Prints one line to stderr:
 *   "shader_test: FILE: linked" or "shader_test: FILE: FAILED <why>"
 * and exits 0 when the program linked and drew, 1 otherwise.
 *
 * The .shader_test format (piglit's shader_runner): sections "[require]", "[vertex shader]",
 * "[fragment shader]", "[geometry shader]", "[compute shader]", ... each followed by its text.
 * Only vertex+fragment (and vertex-only / fragment-only) programs are drawn; the others report
 * FAILED with the stage named, so the corpus script can count them.
 */
#include "shader_test_common.h"

#define GL_FUNCS(X)                                                                         \
   COMMON_GL_FUNCS(X)                                                                       \
   R700_GL_FUNCS(X)

/* Compatibility-profile array entry points (GL 1.1-1.4; glcorearb.h has no types for them). */
typedef void (*r700_client_state_fn)(GLenum);
typedef void (*r700_pointer_fn)(GLint, GLenum, GLsizei, const void *);
typedef void (*r700_pointer3_fn)(GLenum, GLsizei, const void *);
typedef void (*r700_clip_plane_fn)(GLenum, const double *);

/* Entry points the r600 reference modes below use (issue 28). */
#define R700_GL_FUNCS(X)                                                                    \
   X(r700_client_state_fn, glEnableClientState)                                             \
   X(r700_client_state_fn, glClientActiveTexture)                                           \
   X(r700_pointer_fn, glVertexPointer)                                                      \
   X(r700_pointer_fn, glColorPointer)                                                       \
   X(r700_pointer_fn, glSecondaryColorPointer)                                              \
   X(r700_pointer_fn, glTexCoordPointer)                                                    \
   X(r700_pointer3_fn, glNormalPointer)                                                     \
   X(r700_pointer3_fn, glFogCoordPointer)                                                   \
   X(PFNGLVERTEXATTRIBIPOINTERPROC, glVertexAttribIPointer)                                 \
   X(PFNGLTRANSFORMFEEDBACKVARYINGSPROC, glTransformFeedbackVaryings)                       \
   X(PFNGLGETTRANSFORMFEEDBACKVARYINGPROC, glGetTransformFeedbackVarying)                   \
   X(PFNGLBEGINTRANSFORMFEEDBACKPROC, glBeginTransformFeedback)                             \
   X(r700_clip_plane_fn, glClipPlane)                                                       \
   X(PFNGLUNIFORMMATRIX2X3FVPROC, glUniformMatrix2x3fv)                                     \
   X(PFNGLUNIFORMMATRIX2X4FVPROC, glUniformMatrix2x4fv)                                     \
   X(PFNGLUNIFORMMATRIX3X2FVPROC, glUniformMatrix3x2fv)                                     \
   X(PFNGLUNIFORMMATRIX3X4FVPROC, glUniformMatrix3x4fv)                                     \
   X(PFNGLUNIFORMMATRIX4X2FVPROC, glUniformMatrix4x2fv)                                     \
   X(PFNGLUNIFORMMATRIX4X3FVPROC, glUniformMatrix4x3fv)                                     \
   X(PFNGLENDTRANSFORMFEEDBACKPROC, glEndTransformFeedback)                                 \
   X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                             \
   X(PFNGLGETBUFFERSUBDATAPROC, glGetBufferSubData)                                         \
   X(PFNGLENABLEPROC, glEnable)                                                             \
   X(PFNGLREADBUFFERPROC, glReadBuffer)                                                     \
   X(PFNGLREADPIXELSPROC, glReadPixels)                                                     \
   X(PFNGLCLEARBUFFERFVPROC, glClearBufferfv)

#define DECLARE(type, name) static type p_##name;
GL_FUNCS(DECLARE)

static char *read_file(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *buf = malloc((size_t)n + 1);
   if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
      fclose(f);
      free(buf);
      return NULL;
   }
   buf[n] = 0;
   fclose(f);
   return buf;
}

enum { VS, FS, NSTAGES };

/* The r600 corpus modes (issue 28; tools/r700/mesa_corpus.py). In them the values below are keyed
 * by names rather than by the order of the active uniforms/attributes, because the reference run of
 * a pixel shader replaces the vertex position (tools/r700/mesa_refs.py), which can make uniforms
 * and attributes that only fed gl_Position inactive and would renumber the others:
 *   --r700-dump          the r600 run (R600_DUMP_DIR): the values, and INFO lines on stdout;
 *   --r700-ref-vs NAMES  llvmpipe: capture the varyings named in file NAMES (one a line) of the
 *                        three vertices with transform feedback, print them on stdout;
 *   --r700-ref-ps        llvmpipe: the vertex shader has an extra `wavesim_pos` attribute (the
 *                        screen-covering triangle), every other attribute holds vertex 0's values
 *                        on all three vertices; print the 2x2 pixels of four RGBA32F targets. */
enum { R700_OFF, R700_DUMP, R700_REF_VS, R700_REF_PS };
static int r700_mode;
static const char *r700_names;

/* FNV-1a of a name, 1..251: the base of its uniform values (and its texture's tag). */
static unsigned r700_name_tag(const char *name)
{
   unsigned h = 2166136261u;
   for (const char *c = name; *c; ++c)
      h = (h ^ (unsigned char)*c) * 16777619u;
   return h % 251 + 1;
}

/* Float values of the r600 corpus modes: 1/4 + m/128 for m in 0..1020 (exact in binary32, in
 * [0.25, 8.22]), m a hash of the uniform's or attribute's tag and the component's position. Spread
 * rather than tag + small steps: with tag + (4 e + c + 1) / 64 every vec4 of an array was nearly
 * parallel to every other, and cross products and normalisations of such vectors (skinning,
 * tangent frames) cancel most of their bits, so the r600 and llvmpipe results differed by their
 * rounding alone and a wrong array element would have gone unseen (issue 28). */
static float r700_spread(unsigned tag, unsigned a, unsigned b, unsigned c)
{
   unsigned h = 2166136261u;
   unsigned in[4] = { tag, a, b, c };
   for (int i = 0; i < 4; ++i)
      h = (h ^ in[i]) * 16777619u;
   h ^= h >> 13;
   return 0.25f + (float)(h % 1021u) / 128.0f;
}

/* Shadow samplers in the r600 modes (issue 28) get a depth texture with the compare mode on, the
 * only texture a comparison is defined on (OpenGL 4.6, 8.23.1): GL_DEPTH_COMPONENT32F holding
 * d(i) = (i + 0.5) / n for texel i of the n counted row by row through the layers (or cube faces
 * +X..-Z), 4x4 (x4 layers, x6 faces; 1-D: 4, 1-D array: 4 x 4 layers), NEAREST, compared with
 * LEQUAL (GL's default) for an even name tag and GEQUAL for an odd one, so that both outcomes
 * occur. The depths spread over (0, 1), so the harness's references (0.25 and up) pass for some
 * texels and fail for others; and as every d lies strictly inside (0, 1), whether a unit clamps the
 * reference to [0, 1] (GL does only for fixed-point depth formats) cannot change a
 * LESS/LEQUAL/GREATER/GEQUAL result.
 * Returns 1 when it made one (bound to the active unit). */
static int r700_shadow_texture(GLenum type, GLenum target, GLint unit, unsigned tag)
{
   if (type != GL_SAMPLER_1D_SHADOW && type != GL_SAMPLER_2D_SHADOW &&
       type != GL_SAMPLER_2D_RECT_SHADOW && type != GL_SAMPLER_CUBE_SHADOW &&
       type != GL_SAMPLER_1D_ARRAY_SHADOW && type != GL_SAMPLER_2D_ARRAY_SHADOW)
      return 0;
   int n = target == GL_TEXTURE_1D ? 4 : target == GL_TEXTURE_2D_ARRAY ? 64
         : target == GL_TEXTURE_CUBE_MAP ? 96 : 16;
   GLfloat d[96];
   for (int i = 0; i < n; ++i)
      d[i] = ((GLfloat)i + 0.5f) / (GLfloat)n;
   if (target == GL_TEXTURE_1D)
      p_glTexImage1D(target, 0, GL_DEPTH_COMPONENT32F, 4, 0, GL_DEPTH_COMPONENT, GL_FLOAT, d);
   else if (target == GL_TEXTURE_2D_ARRAY)
      p_glTexImage3D(target, 0, GL_DEPTH_COMPONENT32F, 4, 4, 4, 0, GL_DEPTH_COMPONENT, GL_FLOAT, d);
   else if (target == GL_TEXTURE_CUBE_MAP)
      for (GLenum face = 0; face < 6; ++face)
         p_glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_DEPTH_COMPONENT32F, 4, 4, 0,
                        GL_DEPTH_COMPONENT, GL_FLOAT, d + 16 * face);
   else /* 2-D, rectangle, 1-D array (4 texels x 4 layers) */
      p_glTexImage2D(target, 0, GL_DEPTH_COMPONENT32F, 4, 4, 0, GL_DEPTH_COMPONENT, GL_FLOAT, d);
   p_glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
   p_glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
   p_glTexParameteri(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
   p_glTexParameteri(target, GL_TEXTURE_COMPARE_FUNC, tag % 2 ? GL_GEQUAL : GL_LEQUAL);
   printf("INFO depth_texture unit=%d\n", unit);
   return 1;
}

/* Every active uniform gets values keyed by its name: component c of array element e of the k-th
 * active uniform holds (k + 1) + (4 e + c + 1) / 64 off the r600 modes and r700_spread(tag, e, c, 0)
 * in them (floats; ints and uints hold 1000 base + 4 e + c; bools 1). Each sampler gets its own texture unit holding a 4x4 (x4) RGBA8 texture whose texel
 * (x, y, z) on unit u is (16 x + 1, 16 y + 2, 16 z + 3, 32 u + 4) (mip 0 only, NEAREST). The same
 * rule in the reference run gives the same inputs. */
static int set_uniforms(GLuint prog)
{
   GLint n = 0, unit = 0;
   p_glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
   for (GLint k = 0; k < n; ++k) {
      char name[256];
      GLint size;
      GLenum type;
      p_glGetActiveUniform(prog, (GLuint)k, sizeof(name), NULL, &size, &type, name);
      GLint loc = p_glGetUniformLocation(prog, name);
      if (loc < 0)
         continue; /* in a uniform block, or a built-in */
      /* Off the r600 modes: the k-th active uniform; in them: its name's tag (see above). */
      unsigned base = r700_mode ? r700_name_tag(name) : (unsigned)(k + 1);
      if (r700_mode)
         printf("INFO uniform %s type=0x%x size=%d base=%u\n", name, type, size, base);
      float f[16 * 64];
      GLint iv[16 * 64];
      GLuint uv[16 * 64];
      int count = size > 64 ? 64 : size;
      for (int e = 0; e < count; ++e)
         for (int c = 0; c < 16; ++c) {
            f[e * 16 + c] = r700_mode ? r700_spread(base, (unsigned)e, (unsigned)c, 0)
                                      : (float)base + (float)(4 * e + c + 1) / 64.0f;
            iv[e * 16 + c] = 1000 * (int)base + 4 * e + c;
            uv[e * 16 + c] = (GLuint)iv[e * 16 + c];
         }
      /* Pack arrays densely per element size. */
#define PACK(arr, per)                                                                      \
      for (int e = 0; e < count; ++e)                                                       \
         for (int c = 0; c < (per); ++c)                                                    \
            arr[e * (per) + c] = arr[e * 16 + c];
      GLenum target = 0;
      switch (type) {
      case GL_FLOAT: PACK(f, 1); p_glUniform1fv(loc, count, f); break;
      case GL_FLOAT_VEC2: PACK(f, 2); p_glUniform2fv(loc, count, f); break;
      case GL_FLOAT_VEC3: PACK(f, 3); p_glUniform3fv(loc, count, f); break;
      case GL_FLOAT_VEC4: PACK(f, 4); p_glUniform4fv(loc, count, f); break;
      case GL_FLOAT_MAT2: PACK(f, 4); p_glUniformMatrix2fv(loc, count, GL_FALSE, f); break;
      case GL_FLOAT_MAT3: PACK(f, 9); p_glUniformMatrix3fv(loc, count, GL_FALSE, f); break;
      case GL_FLOAT_MAT4: PACK(f, 16); p_glUniformMatrix4fv(loc, count, GL_FALSE, f); break;
      case GL_INT: PACK(iv, 1); p_glUniform1iv(loc, count, iv); break;
      case GL_INT_VEC2: PACK(iv, 2); p_glUniform2iv(loc, count, iv); break;
      case GL_INT_VEC3: PACK(iv, 3); p_glUniform3iv(loc, count, iv); break;
      case GL_INT_VEC4: PACK(iv, 4); p_glUniform4iv(loc, count, iv); break;
      case GL_UNSIGNED_INT: PACK(uv, 1); p_glUniform1uiv(loc, count, uv); break;
      case GL_UNSIGNED_INT_VEC2: PACK(uv, 2); p_glUniform2uiv(loc, count, uv); break;
      case GL_UNSIGNED_INT_VEC3: PACK(uv, 3); p_glUniform3uiv(loc, count, uv); break;
      case GL_UNSIGNED_INT_VEC4: PACK(uv, 4); p_glUniform4uiv(loc, count, uv); break;
      case GL_BOOL: case GL_BOOL_VEC2: case GL_BOOL_VEC3: case GL_BOOL_VEC4: {
         GLint ones[4 * 64];
         for (int i = 0; i < 4 * 64; ++i)
            ones[i] = 1;
         if (type == GL_BOOL) p_glUniform1iv(loc, count, ones);
         else if (type == GL_BOOL_VEC2) p_glUniform2iv(loc, count, ones);
         else if (type == GL_BOOL_VEC3) p_glUniform3iv(loc, count, ones);
         else p_glUniform4iv(loc, count, ones);
         break;
      }
      case GL_SAMPLER_1D: case GL_SAMPLER_1D_SHADOW: target = GL_TEXTURE_1D; break;
      case GL_SAMPLER_2D: case GL_SAMPLER_2D_SHADOW: target = GL_TEXTURE_2D; break;
      case GL_SAMPLER_3D: target = GL_TEXTURE_3D; break;
      case GL_SAMPLER_CUBE: case GL_SAMPLER_CUBE_SHADOW: target = GL_TEXTURE_CUBE_MAP; break;
      case GL_SAMPLER_2D_RECT: case GL_SAMPLER_2D_RECT_SHADOW: target = GL_TEXTURE_RECTANGLE; break;
      case GL_SAMPLER_2D_ARRAY: case GL_SAMPLER_2D_ARRAY_SHADOW: target = GL_TEXTURE_2D_ARRAY; break;
      default: {
         char why[300];
         snprintf(why, sizeof(why), "%s has GL type 0x%x", name, type);
         return fail("uniform type not set by this harness", why), -1;
      }
      }
#undef PACK
      if (!target)
         continue;
      for (int e = 0; e < count; ++e, ++unit) {
         /* Texel alpha: 32 unit + 4, or 32 (tag mod 8) + 4 in the r600 modes. */
         unsigned atag = r700_mode ? (base + (unsigned)e) % 8 : (unsigned)unit;
         if (r700_mode)
            printf("INFO sampler %s element=%d unit=%d target=0x%x alpha=%u\n", name, e, unit,
                   target, 32 * atag + 4);
         GLubyte texels[4 * 4 * 4 * 4];
         for (int z = 0; z < 4; ++z)
            for (int y = 0; y < 4; ++y)
               for (int x = 0; x < 4; ++x) {
                  GLubyte *t = &texels[((z * 4 + y) * 4 + x) * 4];
                  t[0] = (GLubyte)(16 * x + 1);
                  t[1] = (GLubyte)(16 * y + 2);
                  t[2] = (GLubyte)(16 * z + 3);
                  t[3] = (GLubyte)(32 * atag + 4);
               }
         GLuint tex;
         p_glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
         p_glGenTextures(1, &tex);
         p_glBindTexture(target, tex);
         if (r700_mode && r700_shadow_texture(type, target, unit, base + (unsigned)e)) {
            p_glUniform1i(loc + e, unit);
            continue;
         }
         if (target == GL_TEXTURE_1D)
            p_glTexImage1D(target, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
         else if (target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY)
            p_glTexImage3D(target, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
         else if (target == GL_TEXTURE_CUBE_MAP)
            for (GLenum face = 0; face < 6; ++face)
               p_glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 4, 4, 0, GL_RGBA,
                              GL_UNSIGNED_BYTE, texels);
         else
            p_glTexImage2D(target, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
         p_glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
         p_glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
         p_glUniform1i(loc + e, unit);
      }
   }
   return 0;
}

/* ---- r600 corpus modes (issue 28) ------------------------------------------------------------ */

/* Piglit's own uniform values (the r600 corpus modes only): the first `uniform TYPE NAME VALUES`
 * line of the [test] section for each NAME overrides the value set_uniforms gave it, so that a test
 * indexing an array or bounding a loop with a uniform gets the in-bounds index or the small loop
 * count piglit draws its first probe with (with the harness's values, 1000 x tag and more, arrays
 * were indexed out of bounds, undefined in GLSL, and loops ran past llvmpipe's limit of 65535
 * iterations, gallivm's LP_MAX_TGSI_LOOP_ITERATIONS). Sampler uniforms keep the harness's texture
 * units; names the program does not have are left alone. shader-db's files have no [test] section.
 * Float values written 0x... are bit patterns, as piglit's shader_runner reads them. */
static void r700_piglit_uniforms(GLuint prog, const char *test)
{
   enum { MAXN = 64 };
   char seen[MAXN][128];
   int nseen = 0;
   for (const char *line = test; line && *line && *line != '['; ) {
      const char *eol = strchr(line, '\n');
      size_t len = eol ? (size_t)(eol - line) : strlen(line);
      char buf[1024];
      if (len >= sizeof(buf))
         len = sizeof(buf) - 1;
      memcpy(buf, line, len);
      buf[len] = 0;
      line = eol ? eol + 1 : NULL;
      char type[32], name[128];
      int used = 0;
      if (sscanf(buf, " uniform %31s %127s %n", type, name, &used) != 2 || !used)
         continue;
      int dup = 0;
      for (int i = 0; i < nseen; ++i)
         dup |= !strcmp(seen[i], name);
      if (dup || nseen == MAXN)
         continue;
      strcpy(seen[nseen++], name);
      GLint loc = p_glGetUniformLocation(prog, name);
      if (loc < 0)
         continue;
      /* The active uniform this name belongs to (`a[2]` and `a` are `a[0]`'s array). */
      GLint n = 0, sampler = 0;
      size_t base_len = strcspn(name, "[");
      p_glGetProgramiv(prog, GL_ACTIVE_UNIFORMS, &n);
      for (GLint k = 0; k < n; ++k) {
         char an[256];
         GLint size;
         GLenum t;
         p_glGetActiveUniform(prog, (GLuint)k, sizeof(an), NULL, &size, &t, an);
         if (strncmp(an, name, base_len) || (an[base_len] && an[base_len] != '['))
            continue;
         sampler = (t >= GL_SAMPLER_1D && t <= GL_SAMPLER_2D_SHADOW) || t == GL_SAMPLER_2D_RECT ||
                   t == GL_SAMPLER_2D_RECT_SHADOW || t == GL_SAMPLER_2D_ARRAY ||
                   t == GL_SAMPLER_2D_ARRAY_SHADOW || t == GL_SAMPLER_CUBE_SHADOW ||
                   t == GL_SAMPLER_1D_ARRAY || t == GL_SAMPLER_1D_ARRAY_SHADOW;
      }
      if (sampler)
         continue;
      float f[16];
      GLint iv[16];
      int cnt = 0;
      for (char *tok = strtok(buf + used, " \t\r"); tok && cnt < 16; tok = strtok(NULL, " \t\r")) {
         if (!strncmp(tok, "0x", 2) || !strncmp(tok, "0X", 2)) {
            unsigned bits = (unsigned)strtoul(tok, NULL, 16);
            memcpy(&f[cnt], &bits, 4);
            iv[cnt] = (GLint)bits;
         } else {
            f[cnt] = strtof(tok, NULL);
            iv[cnt] = (GLint)strtol(tok, NULL, 10);
            if (!strcmp(tok, "true"))
               iv[cnt] = 1;
         }
         ++cnt;
      }
      int c = 0, r = 0;
      if (!strcmp(type, "float") && cnt == 1) p_glUniform1fv(loc, 1, f);
      else if (sscanf(type, "vec%d", &c) == 1 && cnt == c) {
         if (c == 2) p_glUniform2fv(loc, 1, f);
         else if (c == 3) p_glUniform3fv(loc, 1, f);
         else if (c == 4) p_glUniform4fv(loc, 1, f);
      } else if ((!strcmp(type, "int") || !strcmp(type, "bool")) && cnt == 1)
         p_glUniform1iv(loc, 1, iv);
      else if ((sscanf(type, "ivec%d", &c) == 1 || sscanf(type, "bvec%d", &c) == 1) && cnt == c) {
         if (c == 2) p_glUniform2iv(loc, 1, iv);
         else if (c == 3) p_glUniform3iv(loc, 1, iv);
         else if (c == 4) p_glUniform4iv(loc, 1, iv);
      } else if (!strcmp(type, "uint") && cnt == 1) p_glUniform1uiv(loc, 1, (GLuint *)iv);
      else if (sscanf(type, "uvec%d", &c) == 1 && cnt == c) {
         if (c == 2) p_glUniform2uiv(loc, 1, (GLuint *)iv);
         else if (c == 3) p_glUniform3uiv(loc, 1, (GLuint *)iv);
         else if (c == 4) p_glUniform4uiv(loc, 1, (GLuint *)iv);
      } else if ((sscanf(type, "mat%dx%d", &c, &r) == 2 || (sscanf(type, "mat%d", &c) == 1 && (r = c)))
                 && cnt == c * r) {
         int cr = c * 10 + r;
         if (cr == 22) p_glUniformMatrix2fv(loc, 1, GL_FALSE, f);
         else if (cr == 33) p_glUniformMatrix3fv(loc, 1, GL_FALSE, f);
         else if (cr == 44) p_glUniformMatrix4fv(loc, 1, GL_FALSE, f);
         else if (cr == 23) p_glUniformMatrix2x3fv(loc, 1, GL_FALSE, f);
         else if (cr == 24) p_glUniformMatrix2x4fv(loc, 1, GL_FALSE, f);
         else if (cr == 32) p_glUniformMatrix3x2fv(loc, 1, GL_FALSE, f);
         else if (cr == 34) p_glUniformMatrix3x4fv(loc, 1, GL_FALSE, f);
         else if (cr == 42) p_glUniformMatrix4x2fv(loc, 1, GL_FALSE, f);
         else if (cr == 43) p_glUniformMatrix4x3fv(loc, 1, GL_FALSE, f);
      }
      if (r700_mode)
         printf("INFO piglit uniform %s %s\n", type, name);
   }
}

/* Piglit's user clip planes (`clip plane N A B C D` in [test]) in a compatibility context, set with
 * glClipPlane but not enabled: Mesa's r600 driver uploads the planes into the vertex shader's driver
 * constant buffer (15) once they change from their initial zeros (r600_set_clip_state,
 * r600_update_driver_const_buffers), and a shader writing gl_ClipVertex reads them there to export
 * its clip distances. With the planes never set, that buffer was never bound for the vertex shader
 * and the dumped state had nothing for those reads. Left disabled, the planes clip nothing in either
 * run (OpenGL 4.6 compatibility profile, 13.7). */
static void r700_piglit_clip_planes(const char *test)
{
   for (const char *line = test; line && *line && *line != '['; ) {
      int n;
      double p[4];
      if (sscanf(line, " clip plane %d %lf %lf %lf %lf", &n, &p[0], &p[1], &p[2], &p[3]) == 5 &&
          n >= 0 && n < 8) {
         /* GL_CLIP_PLANE0 is GL_CLIP_DISTANCE0 (0x3000); glcorearb.h names only the latter. */
         p_glClipPlane(GL_CLIP_DISTANCE0 + (GLenum)n, p);
         printf("INFO piglit clip plane %d\n", n);
      }
      const char *eol = strchr(line, '\n');
      line = eol ? eol + 1 : NULL;
   }
}


static int r700_is_int_type(GLenum t)
{
   switch (t) {
   case GL_INT: case GL_INT_VEC2: case GL_INT_VEC3: case GL_INT_VEC4:
   case GL_UNSIGNED_INT: case GL_UNSIGNED_INT_VEC2: case GL_UNSIGNED_INT_VEC3:
   case GL_UNSIGNED_INT_VEC4:
      return 1;
   default:
      return 0;
   }
}

static int r700_columns(GLenum t)
{
   switch (t) {
   case GL_FLOAT_MAT2: case GL_FLOAT_MAT2x3: case GL_FLOAT_MAT2x4: return 2;
   case GL_FLOAT_MAT3: case GL_FLOAT_MAT3x2: case GL_FLOAT_MAT3x4: return 3;
   case GL_FLOAT_MAT4: case GL_FLOAT_MAT4x2: case GL_FLOAT_MAT4x3: return 4;
   default: return 1;
   }
}

/* A compatibility built-in attribute (gl_Vertex, gl_Normal, gl_Color, gl_SecondaryColor,
 * gl_FogCoord, gl_MultiTexCoordN) gets an array like a generic one (below), through its legacy
 * pointer: left at their current values, every vertex had (0, 0, 0, 1), (0, 0, 1) or (1, 1, 1, 1),
 * which made shaders normalise zero vectors and sample cube maps at the origin (issue 28). */
static int r700_builtin_attrib(const char *name)
{
   int r = (int)r700_name_tag(name);
   float data[12];
   for (int v = 0; v < 3; ++v)
      for (int c = 0; c < 4; ++c)
         data[v * 4 + c] = r700_spread((unsigned)r, 1u + (unsigned)(r700_mode == R700_REF_PS ? 0 : v),
                                       0, (unsigned)c);
   GLuint vbo;
   p_glGenBuffers(1, &vbo);
   p_glBindBuffer(GL_ARRAY_BUFFER, vbo);
   p_glBufferData(GL_ARRAY_BUFFER, sizeof(data), data, GL_STATIC_DRAW);
   printf("INFO attrib %s builtin tag=%d\n", name, r);
   int unit;
   if (!strcmp(name, "gl_Vertex")) {
      p_glEnableClientState(0x8074 /* GL_VERTEX_ARRAY */);
      p_glVertexPointer(4, GL_FLOAT, 16, 0);
   } else if (!strcmp(name, "gl_Normal")) {
      p_glEnableClientState(0x8075 /* GL_NORMAL_ARRAY */);
      p_glNormalPointer(GL_FLOAT, 16, 0);
   } else if (!strcmp(name, "gl_Color")) {
      p_glEnableClientState(0x8076 /* GL_COLOR_ARRAY */);
      p_glColorPointer(4, GL_FLOAT, 16, 0);
   } else if (!strcmp(name, "gl_SecondaryColor")) {
      p_glEnableClientState(0x845E /* GL_SECONDARY_COLOR_ARRAY */);
      p_glSecondaryColorPointer(3, GL_FLOAT, 16, 0);
   } else if (!strcmp(name, "gl_FogCoord")) {
      p_glEnableClientState(0x8457 /* GL_FOG_COORD_ARRAY */);
      p_glFogCoordPointer(GL_FLOAT, 16, 0);
   } else if (sscanf(name, "gl_MultiTexCoord%d", &unit) == 1 && unit >= 0 && unit < 8) {
      p_glClientActiveTexture(GL_TEXTURE0 + (GLenum)unit);
      p_glEnableClientState(0x8078 /* GL_TEXTURE_COORD_ARRAY */);
      p_glTexCoordPointer(4, GL_FLOAT, 16, 0);
      p_glClientActiveTexture(GL_TEXTURE0);
   } else {
      return fail("built-in attribute not set by this harness", name), -1;
   }
   return 0;
}

/* Every active generic attribute gets its own buffer: the one whose name has tag r
 * (r700_name_tag: a hash, not a rank, because the reference run of a pixel shader can make the
 * position attribute inactive) holds, for vertex v and column k, component c,
 *   floats: r700_spread(r, 1 + v, k, c), integers: 1000 r + 16 v + 4 k + c
 * (exact in binary32). In --r700-ref-ps every vertex holds vertex 0's values and wavesim_pos the
 * screen-covering triangle. */
static int r700_attribs(GLuint prog)
{
   GLint nattr = 0;
   p_glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &nattr);
   for (GLint a = 0; a < nattr; ++a) {
      char name[256];
      GLint size;
      GLenum type;
      p_glGetActiveAttrib(prog, (GLuint)a, sizeof(name), NULL, &size, &type, name);
      /* gl_VertexID and gl_InstanceID are system values, not arrays. */
      if (!strcmp(name, "gl_VertexID") || !strcmp(name, "gl_InstanceID"))
         continue;
      if (!strncmp(name, "gl_", 3)) {
         if (r700_builtin_attrib(name))
            return -1;
         continue;
      }
      GLint loc = p_glGetAttribLocation(prog, name);
      if (loc < 0)
         continue;
      if (!strcmp(name, "wavesim_pos")) {
         static const float tri[12] = { -1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1 };
         GLuint vbo;
         p_glGenBuffers(1, &vbo);
         p_glBindBuffer(GL_ARRAY_BUFFER, vbo);
         p_glBufferData(GL_ARRAY_BUFFER, sizeof(tri), tri, GL_STATIC_DRAW);
         p_glEnableVertexAttribArray((GLuint)loc);
         p_glVertexAttribPointer((GLuint)loc, 4, GL_FLOAT, GL_FALSE, 0, 0);
         continue;
      }
      int r = (int)r700_name_tag(name);
      int cols = r700_columns(type), isint = r700_is_int_type(type);
      printf("INFO attrib %s type=0x%x size=%d location=%d tag=%d\n", name, type, size, loc, r);
      for (int l = 0; l < size * cols; ++l) {
         int k = l % cols;
         union { float f; GLint i; } data[12];
         for (int v = 0; v < 3; ++v)
            for (int c = 0; c < 4; ++c) {
               int vv = r700_mode == R700_REF_PS ? 0 : v;
               if (isint)
                  data[v * 4 + c].i = 1000 * r + 16 * vv + 4 * k + c;
               else
                  data[v * 4 + c].f = r700_spread((unsigned)r, 1u + (unsigned)vv, (unsigned)k,
                                                  (unsigned)c);
            }
         GLuint vbo;
         p_glGenBuffers(1, &vbo);
         p_glBindBuffer(GL_ARRAY_BUFFER, vbo);
         p_glBufferData(GL_ARRAY_BUFFER, sizeof(data), data, GL_STATIC_DRAW);
         p_glEnableVertexAttribArray((GLuint)(loc + l));
         if (isint)
            p_glVertexAttribIPointer((GLuint)(loc + l), 4, GL_INT, 0, 0);
         else
            p_glVertexAttribPointer((GLuint)(loc + l), 4, GL_FLOAT, GL_FALSE, 0, 0);
      }
   }
   return 0;
}

/* --r700-ref-vs: declare the varyings to capture (before linking). */
static int r700_xfb_varyings(GLuint prog)
{
   char *text = read_file(r700_names);
   if (!text)
      return fail("cannot read the varying names", r700_names);
   const GLchar *names[128];
   GLsizei n = 0;
   for (char *t = strtok(text, "\n"); t && n < 128; t = strtok(NULL, "\n"))
      names[n++] = t;
   if (!n)
      return fail("no varying names", r700_names);
   p_glTransformFeedbackVaryings(prog, n, names, GL_INTERLEAVED_ATTRIBS);
   return 0;
}

static int r700_components(GLenum t)
{
   switch (t) {
   case GL_FLOAT: case GL_INT: case GL_UNSIGNED_INT: return 1;
   case GL_FLOAT_VEC2: case GL_INT_VEC2: case GL_UNSIGNED_INT_VEC2: return 2;
   case GL_FLOAT_VEC3: case GL_INT_VEC3: case GL_UNSIGNED_INT_VEC3: return 3;
   case GL_FLOAT_VEC4: case GL_INT_VEC4: case GL_UNSIGNED_INT_VEC4: case GL_FLOAT_MAT2: return 4;
   case GL_FLOAT_MAT3: return 9;
   case GL_FLOAT_MAT4: return 16;
   default: return 0;
   }
}

/* --r700-ref-vs: the captured varyings, "XFB name vertex bits..." (hex binary32/int words). */
static int r700_print_xfb(GLuint prog, GLuint buf)
{
   GLint n = 0;
   p_glGetProgramiv(prog, GL_TRANSFORM_FEEDBACK_VARYINGS, &n);
   int total = 0, comps[128];
   char names[128][256];
   for (GLint i = 0; i < n && i < 128; ++i) {
      GLsizei size;
      GLenum type;
      p_glGetTransformFeedbackVarying(prog, (GLuint)i, sizeof(names[i]), NULL, &size, &type, names[i]);
      comps[i] = r700_components(type) * size;
      if (!comps[i])
         return fail("varying type not captured by this harness", names[i]);
      total += comps[i];
   }
   GLuint *words = calloc((size_t)total * 3, 4);
   if (!words)
      return fail("out of memory", NULL);
   p_glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buf);
   p_glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, (GLsizeiptr)total * 12, words);
   for (int v = 0; v < 3; ++v) {
      int at = v * total;
      for (GLint i = 0; i < n && i < 128; ++i) {
         printf("XFB %s %d", names[i], v);
         for (int c = 0; c < comps[i]; ++c)
            printf(" %08x", words[at++]);
         printf("\n");
      }
   }
   free(words);
   return 0;
}

/* --r700-ref-ps: the 2x2 pixels (x, y from the lower left, as gl_FragCoord counts) of four RGBA32F
 * targets cleared to -1048576.0 (a value no corpus shader writes), "PIX target x y bits...". */
static void r700_print_pixels(void)
{
   for (int t = 0; t < 4; ++t) {
      GLuint px[2 * 2 * 4];
      p_glReadBuffer(GL_COLOR_ATTACHMENT0 + (GLenum)t);
      p_glReadPixels(0, 0, 2, 2, GL_RGBA, GL_FLOAT, px);
      for (int y = 0; y < 2; ++y)
         for (int x = 0; x < 2; ++x) {
            const GLuint *p = &px[(y * 2 + x) * 4];
            printf("PIX %d %d %d %08x %08x %08x %08x\n", t, x, y, p[0], p[1], p[2], p[3]);
         }
   }
}

int main(int argc, char **argv)
{
   int argi = 1;
   while (argi < argc - 1 && !strncmp(argv[argi], "--r700-", 7)) {
      if (!strcmp(argv[argi], "--r700-dump"))
         r700_mode = R700_DUMP;
      else if (!strcmp(argv[argi], "--r700-ref-ps"))
         r700_mode = R700_REF_PS;
      else if (!strcmp(argv[argi], "--r700-ref-vs") && argi + 2 < argc)
         r700_mode = R700_REF_VS, r700_names = argv[++argi];
      else
         break;
      ++argi;
   }
   if (argc - argi != 1) {
      fprintf(stderr, "usage: shader_test [--r700-dump | --r700-ref-vs NAMES | --r700-ref-ps] "
                      "FILE.shader_test\n");
      return 2;
   }
   file = argv[argi];
   char *text = read_file(file);
   if (!text)
      return fail("cannot read the file", NULL);

   /* Sections start at "[name]" lines; a stage's text runs to the next header line. */
   char *src[NSTAGES] = { 0 };
   int glsl = 110; /* "GLSL >= 1.30" in [require] -> 130 */
   int stage = -1, in_require = 0;
   char *body = NULL;
   const char *test_body = NULL; /* piglit's [test] section: its uniform lines (r600 modes) */
   for (char *line = text;; ) {
      char *eol = strchr(line, '\n');
      size_t len = eol ? (size_t)(eol - line) : strlen(line);
      int header = line[0] == '[';
      if ((header || !eol) && stage >= 0) {
         size_t n = (size_t)((header ? line : line + len) - body);
         src[stage] = strndup(body, n);
         stage = -1;
      }
      if (header) {
         in_require = !strncmp(line, "[require]", 9);
         body = eol ? eol + 1 : line + len;
         if (!strncmp(line, "[vertex shader]", 15))
            stage = VS;
         else if (!strncmp(line, "[fragment shader]", 17))
            stage = FS;
         else if (!strncmp(line, "[test]", 6))
            test_body = body; /* piglit's commands: only its uniform values are taken (below) */
         else if (!strncmp(line, "[vertex data]", 13))
            ; /* piglit's vertex data: the harness gives its own attributes */
         else if (!in_require && strncmp(line, "[vertex shader passthrough]", 27)) {
            line[len] = 0;
            return fail("stage not drawn by this harness", line);
         }
      } else if (in_require) {
         int major, minor;
         if (sscanf(line, "GLSL >= %d.%d", &major, &minor) == 2)
            glsl = major * 100 + minor;
      }
      if (!eol)
         break;
      line = eol + 1;
   }
   if (!src[VS] && !src[FS])
      return fail("no vertex or fragment shader", NULL);

   EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
   if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
      return fail("eglInitialize", NULL);
   if (!eglBindAPI(EGL_OPENGL_API))
      return fail("eglBindAPI(EGL_OPENGL_API)", NULL);
   /* GLSL 1.40 and later need a 3.x core context; older shaders a compatibility one. */
   EGLint core[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2,
                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
   EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
                                     glsl >= 140 ? core : NULL);
   if (ctx == EGL_NO_CONTEXT)
      return fail("eglCreateContext", glsl >= 140 ? "3.2 core" : "compatibility");
   if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
      return fail("eglMakeCurrent", NULL);
#define LOAD(type, name)                                                                    \
   p_##name = (type)eglGetProcAddress(#name);                                               \
   if (!p_##name)                                                                           \
      return fail("no entry point", #name);
   GL_FUNCS(LOAD)

   GLuint prog = p_glCreateProgram();
   static const GLenum kinds[NSTAGES] = { GL_VERTEX_SHADER, GL_FRAGMENT_SHADER };
   static char log[8192];
   for (int s = 0; s < NSTAGES; ++s) {
      if (!src[s])
         continue;
      GLuint sh = p_glCreateShader(kinds[s]);
      const GLchar *text_s = src[s];
      p_glShaderSource(sh, 1, &text_s, NULL);
      p_glCompileShader(sh);
      GLint ok = 0;
      p_glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
      if (!ok) {
         p_glGetShaderInfoLog(sh, sizeof(log), NULL, log);
         return fail(s == VS ? "vertex shader does not compile" : "fragment shader does not compile",
                     log);
      }
      p_glAttachShader(prog, sh);
   }
   if (r700_mode == R700_REF_VS && r700_xfb_varyings(prog))
      return 1;
   p_glLinkProgram(prog);
   GLint linked = 0;
   p_glGetProgramiv(prog, GL_LINK_STATUS, &linked);
   if (!linked) {
      p_glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      return fail("link", log);
   }

   /* A 16x16 RGBA8 target with four draw buffers, a VAO, and every attribute fed from one buffer
    * of three vec4s, so the draw reaches the driver's shader compile. */
   GLuint fb, rb[4];
   p_glGenFramebuffers(1, &fb);
   p_glBindFramebuffer(GL_FRAMEBUFFER, fb);
   p_glGenRenderbuffers(4, rb);
   GLenum bufs[4];
   /* --r700-ref-ps reads 2x2 unclamped pixels. */
   GLsizei rb_size = r700_mode == R700_REF_PS ? 2 : 16;
   for (int i = 0; i < 4; ++i) {
      p_glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
      p_glRenderbufferStorage(GL_RENDERBUFFER, r700_mode == R700_REF_PS ? GL_RGBA32F : GL_RGBA8,
                              rb_size, rb_size);
      p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, GL_RENDERBUFFER, rb[i]);
      bufs[i] = GL_COLOR_ATTACHMENT0 + i;
   }
   p_glDrawBuffers(4, bufs);
   p_glViewport(0, 0, rb_size, rb_size);
   if (r700_mode == R700_REF_PS)
      for (int i = 0; i < 4; ++i) {
         static const float clear[4] = { -1048576.0f, -1048576.0f, -1048576.0f, -1048576.0f };
         p_glClearBufferfv(GL_COLOR, i, clear);
      }
   GLuint vao, vbo;
   p_glGenVertexArrays(1, &vao);
   p_glBindVertexArray(vao);
   static const float verts[12] = { -1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1 };
   p_glGenBuffers(1, &vbo);
   p_glBindBuffer(GL_ARRAY_BUFFER, vbo);
   p_glBufferData(GL_ARRAY_BUFFER, sizeof(verts), verts, GL_STATIC_DRAW);
   GLint nattr = 0;
   p_glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &nattr);
   if (r700_mode && r700_attribs(prog))
      return 1;
   for (GLint a = 0; a < nattr && !r700_mode; ++a) {
      char name[256];
      GLint size;
      GLenum type;
      p_glGetActiveAttrib(prog, (GLuint)a, sizeof(name), NULL, &size, &type, name);
      GLint loc = p_glGetAttribLocation(prog, name);
      if (loc < 0)
         continue; /* built-ins such as gl_Vertex in a compatibility context */
      p_glEnableVertexAttribArray((GLuint)loc);
      p_glVertexAttribPointer((GLuint)loc, 4, GL_FLOAT, GL_FALSE, 0, 0);
   }
   p_glUseProgram(prog);
   if (set_uniforms(prog))
      return 1;
   if (r700_mode && test_body) {
      r700_piglit_uniforms(prog, test_body);
      if (glsl < 140)
         r700_piglit_clip_planes(test_body);
   }
   GLuint xfb = 0;
   if (r700_mode == R700_REF_VS) {
      p_glGenBuffers(1, &xfb);
      p_glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, xfb);
      p_glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 3 * 128 * 16, NULL, GL_STATIC_READ);
      p_glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb);
      p_glEnable(GL_RASTERIZER_DISCARD);
      p_glBeginTransformFeedback(GL_TRIANGLES);
   }
   p_glDrawArrays(GL_TRIANGLES, 0, 3);
   if (r700_mode == R700_REF_VS)
      p_glEndTransformFeedback();
   p_glFinish();
   GLenum err = p_glGetError();
   if (err != GL_NO_ERROR) {
      snprintf(log, sizeof(log), "GL error 0x%x", err);
      return fail("draw", log);
   }
   if (r700_mode == R700_REF_VS && r700_print_xfb(prog, xfb))
      return 1;
   if (r700_mode == R700_REF_PS)
      r700_print_pixels();
   fprintf(stderr, "shader_test: %s: linked\n", file);
   eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
   eglDestroyContext(dpy, ctx);
   eglTerminate(dpy);
   return 0;
}
