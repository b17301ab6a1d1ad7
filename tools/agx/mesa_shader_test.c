/* The asahi corpus's copy of tools/mesa/shader_test.c (tools/agx/mesa_corpus.py builds it for its
 * llvmpipe references; the r600 corpus grew its own modes in the original).
 *
 * Compile one shader-db `.shader_test` file with the GL driver EGL gives, and draw once so that
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
#include "../mesa/shader_test_common.h"

#define GL_FUNCS(X)                                                                         \
   COMMON_GL_FUNCS(X)                                                                       \
   X(PFNGLTRANSFORMFEEDBACKVARYINGSPROC, glTransformFeedbackVaryings)                       \
   X(PFNGLGETTRANSFORMFEEDBACKVARYINGPROC, glGetTransformFeedbackVarying)                   \
   X(PFNGLBEGINTRANSFORMFEEDBACKPROC, glBeginTransformFeedback)                             \
   X(PFNGLENDTRANSFORMFEEDBACKPROC, glEndTransformFeedback)                                 \
   X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                             \
   X(PFNGLGETBUFFERSUBDATAPROC, glGetBufferSubData)                                         \
   X(PFNGLREADBUFFERPROC, glReadBuffer)                                                     \
   X(PFNGLREADPIXELSPROC, glReadPixels)                                                     \
   X(PFNGLGETINTEGERVPROC, glGetIntegerv)

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

/* Every active uniform gets values no other uniform component has, so a dump of the constant
 * buffers the driver uploads says where each one went: component c of array element e of the k-th
 * active uniform holds (k + 1) + (4 e + c + 1) / 64 (floats; ints and uints hold 1000 (k + 1) + 4 e
 * + c; bools 1). Each sampler gets its own texture unit holding a 4x4 (x4) RGBA8 texture whose texel
 * (x, y, z) on unit u is (16 x + 1, 16 y + 2, 16 z + 3, 32 u + 4) (mip 0 only, NEAREST). The same
 * rule in the reference run gives the same inputs; SHADER_TEST_LINEAR=1 makes the filters
 * LINEAR. */
/* asahi corpus references: SHADER_TEST_PRINT_UNIFORMS=1 prints "uniform NAME K UNIT" for every
 * uniform set (K its active-uniform index, UNIT its first texture unit); SHADER_TEST_UNIFORMS=FILE
 * (such lines) makes a uniform of the same name get that K and UNIT, so a run with a replaced
 * vertex shader gives the fragment shader the values and textures of the original program. */
static void uniform_numbering(const char *name, GLint *k, GLint *unit)
{
   if (getenv("SHADER_TEST_PRINT_UNIFORMS"))
      printf("uniform %s %d %d\n", name, *k, *unit);
   const char *path = getenv("SHADER_TEST_UNIFORMS");
   FILE *f = path ? fopen(path, "r") : NULL;
   if (!f)
      return;
   char n[256];
   int kk, uu;
   while (fscanf(f, "uniform %255s %d %d\n", n, &kk, &uu) == 3)
      if (!strcmp(n, name)) {
         *k = kk;
         *unit = uu;
      }
   fclose(f);
}

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
      GLint k_orig = k, kn = k;
      uniform_numbering(name, &kn, &unit);
      k = kn;
      float f[16 * 64];
      GLint iv[16 * 64];
      GLuint uv[16 * 64];
      int count = size > 64 ? 64 : size;
      for (int e = 0; e < count; ++e)
         for (int c = 0; c < 16; ++c) {
            f[e * 16 + c] = (float)(k + 1) + (float)(4 * e + c + 1) / 64.0f;
            iv[e * 16 + c] = 1000 * (k + 1) + 4 * e + c;
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
      k = k_orig;
      if (!target)
         continue;
      for (int e = 0; e < count; ++e, ++unit) {
         GLubyte texels[4 * 4 * 4 * 4];
         for (int z = 0; z < 4; ++z)
            for (int y = 0; y < 4; ++y)
               for (int x = 0; x < 4; ++x) {
                  GLubyte *t = &texels[((z * 4 + y) * 4 + x) * 4];
                  t[0] = (GLubyte)(16 * x + 1);
                  t[1] = (GLubyte)(16 * y + 2);
                  t[2] = (GLubyte)(16 * z + 3);
                  t[3] = (GLubyte)(32 * unit + 4);
               }
         GLuint tex;
         p_glActiveTexture(GL_TEXTURE0 + (GLenum)unit);
         p_glGenTextures(1, &tex);
         p_glBindTexture(target, tex);
         /* Shadow samplers get a depth texture (GL 4.6 8.23.1: a comparison is defined only on
          * one), 4x4 GL_DEPTH_COMPONENT32F holding d(x, y) = (x + 4y + 0.5) / 16, compared with
          * the default LEQUAL; 2D and rectangle ones (the shader-db programs have no others). */
         int shadow2d = type == GL_SAMPLER_2D_SHADOW || type == GL_SAMPLER_2D_RECT_SHADOW;
         GLfloat depth[16];
         for (int i = 0; i < 16; ++i)
            depth[i] = ((GLfloat)i + 0.5f) / 16.0f;
         if (shadow2d) {
            p_glTexImage2D(target, 0, GL_DEPTH_COMPONENT32F, 4, 4, 0, GL_DEPTH_COMPONENT, GL_FLOAT,
                           depth);
            p_glTexParameteri(target, GL_TEXTURE_COMPARE_MODE, GL_COMPARE_REF_TO_TEXTURE);
         } else if (target == GL_TEXTURE_1D)
            p_glTexImage1D(target, 0, GL_RGBA8, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
         else if (target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY)
            p_glTexImage3D(target, 0, GL_RGBA8, 4, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
         else if (target == GL_TEXTURE_CUBE_MAP)
            for (GLenum face = 0; face < 6; ++face)
               p_glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, GL_RGBA8, 4, 4, 0, GL_RGBA,
                              GL_UNSIGNED_BYTE, texels);
         else
            p_glTexImage2D(target, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
         /* SHADER_TEST_LINEAR=1: LINEAR filters (no mipmaps: level 0 only) */
         GLint filter = getenv("SHADER_TEST_LINEAR") ? GL_LINEAR : GL_NEAREST;
         p_glTexParameteri(target, GL_TEXTURE_MIN_FILTER, filter);
         p_glTexParameteri(target, GL_TEXTURE_MAG_FILTER, filter);
         p_glUniform1i(loc + e, unit);
      }
   }
   return 0;
}

/* ---- asahi corpus references (tools/agx/corpus_refs.py; unused unless SHADER_TEST_XFB is set) ----
 * SHADER_TEST_XFB="gl_Position,name,..." captures those vertex outputs of the draw's three vertices by
 * transform feedback and prints each to stdout as "xfb VERTEX NAME WORD..." (32-bit words in hex). */
static GLuint xfb_buf;
static int xfb_count;

static void xfb_before_link(GLuint prog)
{
   static char names_buf[8192];
   static const GLchar *names[64];
   const char *env = getenv("SHADER_TEST_XFB");
   if (!env)
      return;
   snprintf(names_buf, sizeof(names_buf), "%s", env);
   for (char *tok = strtok(names_buf, ","); tok && xfb_count < 64; tok = strtok(NULL, ","))
      names[xfb_count++] = tok;
   p_glTransformFeedbackVaryings(prog, xfb_count, names, GL_INTERLEAVED_ATTRIBS);
}

static void xfb_begin(void)
{
   if (!xfb_count)
      return;
   p_glGenBuffers(1, &xfb_buf);
   p_glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, xfb_buf);
   p_glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, 3 * 64 * 16 * 4, NULL, GL_STREAM_READ);
   p_glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, xfb_buf);
   p_glBeginTransformFeedback(GL_TRIANGLES);
}

static void xfb_end_print(GLuint prog)
{
   if (!xfb_count)
      return;
   p_glEndTransformFeedback();
   static GLuint words[3 * 64 * 16];
   p_glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, sizeof(words), words);
   int sizes[64], total = 0;
   char names[64][256];
   for (int i = 0; i < xfb_count; ++i) {
      GLsizei len;
      GLint size;
      GLenum type;
      p_glGetTransformFeedbackVarying(prog, (GLuint)i, sizeof(names[i]), &len, &size, &type,
                                      names[i]);
      int comps = type == GL_FLOAT_VEC4 || type == GL_INT_VEC4 || type == GL_UNSIGNED_INT_VEC4 ? 4
                : type == GL_FLOAT_VEC3 || type == GL_INT_VEC3 || type == GL_UNSIGNED_INT_VEC3 ? 3
                : type == GL_FLOAT_VEC2 || type == GL_INT_VEC2 || type == GL_UNSIGNED_INT_VEC2 ? 2
                : type == GL_FLOAT_MAT4 ? 16 : type == GL_FLOAT_MAT3 ? 9 : type == GL_FLOAT_MAT2 ? 4
                : 1;
      sizes[i] = comps * size;
      total += sizes[i];
   }
   for (int v = 0; v < 3; ++v) {
      int at = v * total;
      for (int i = 0; i < xfb_count; ++i) {
         printf("xfb %d %s", v, names[i]);
         for (int c = 0; c < sizes[i]; ++c)
            printf(" %08x", words[at++]);
         printf("\n");
      }
   }
}

/* SHADER_TEST_VS=FILE replaces the vertex shader by FILE's text (a shader that holds the fragment
 * shader's inputs constant); SHADER_TEST_PIXELS=1 prints render target 0 after the draw as
 * "pixel X Y R G B A" (bytes). */
static char *vs_override(char *vs)
{
   const char *path = getenv("SHADER_TEST_VS");
   if (!path)
      return vs;
   char *text = read_file(path);
   return text ? text : vs;
}

static void print_pixels(void)
{
   if (!getenv("SHADER_TEST_PIXELS"))
      return;
   static GLubyte px[16 * 16 * 4];
   p_glReadBuffer(GL_COLOR_ATTACHMENT0);
   p_glReadPixels(0, 0, 16, 16, GL_RGBA, GL_UNSIGNED_BYTE, px);
   for (int i = 0; i < 16 * 16; ++i)
      printf("pixel %d %d %u %u %u %u\n", i % 16, i / 16, px[4 * i], px[4 * i + 1], px[4 * i + 2],
             px[4 * i + 3]);
}
/* ---- end of the asahi corpus block ---- */

int main(int argc, char **argv)
{
   if (argc != 2) {
      fprintf(stderr, "usage: shader_test FILE.shader_test\n");
      return 2;
   }
   file = argv[1];
   char *text = read_file(file);
   if (!text)
      return fail("cannot read the file", NULL);

   /* Sections start at "[name]" lines; a stage's text runs to the next header line. */
   char *src[NSTAGES] = { 0 };
   int glsl = 110; /* "GLSL >= 1.30" in [require] -> 130 */
   int stage = -1, in_require = 0;
   char *body = NULL;
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
   src[VS] = vs_override(src[VS]);

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
   xfb_before_link(prog);
   p_glLinkProgram(prog);
   GLint linked = 0;
   p_glGetProgramiv(prog, GL_LINK_STATUS, &linked);
   if (!linked) {
      p_glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      return fail("link", log);
   }

   /* A 16x16 RGBA8 target with four draw buffers (as many as the driver has, up to four: Mesa
    * 22.3's asahi has one), a VAO, and every attribute fed from one buffer of three vec4s, so the
    * draw reaches the driver's shader compile. */
   GLuint fb, rb[4];
   GLint nbufs = 0;
   p_glGetIntegerv(GL_MAX_DRAW_BUFFERS, &nbufs);
   nbufs = nbufs < 1 ? 1 : nbufs > 4 ? 4 : nbufs;
   p_glGenFramebuffers(1, &fb);
   p_glBindFramebuffer(GL_FRAMEBUFFER, fb);
   p_glGenRenderbuffers(nbufs, rb);
   GLenum bufs[4];
   for (int i = 0; i < nbufs; ++i) {
      p_glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
      p_glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 16, 16);
      p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, GL_RENDERBUFFER, rb[i]);
      bufs[i] = GL_COLOR_ATTACHMENT0 + i;
   }
   p_glDrawBuffers(nbufs, bufs);
   p_glViewport(0, 0, 16, 16);
   GLuint vao, vbo;
   p_glGenVertexArrays(1, &vao);
   p_glBindVertexArray(vao);
   static const float verts[12] = { -1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1 };
   p_glGenBuffers(1, &vbo);
   p_glBindBuffer(GL_ARRAY_BUFFER, vbo);
   p_glBufferData(GL_ARRAY_BUFFER, sizeof(verts), verts, GL_STATIC_DRAW);
   GLint nattr = 0;
   p_glGetProgramiv(prog, GL_ACTIVE_ATTRIBUTES, &nattr);
   for (GLint a = 0; a < nattr; ++a) {
      char name[256];
      GLint size;
      GLenum type;
      p_glGetActiveAttrib(prog, (GLuint)a, sizeof(name), NULL, &size, &type, name);
      GLint loc = p_glGetAttribLocation(prog, name);
      /* gl_Vertex is generic attribute 0 in a compatibility context (GL 2.1, 2.7 "Vertex
       * Arrays": attribute 0 aliases the vertex position), so it gets the same vertices. */
      if (loc < 0 && !strcmp(name, "gl_Vertex"))
         loc = 0;
      if (loc < 0)
         continue; /* other built-ins (gl_Normal, gl_Color, ...) keep their current values */
      p_glEnableVertexAttribArray((GLuint)loc);
      p_glVertexAttribPointer((GLuint)loc, 4, GL_FLOAT, GL_FALSE, 0, 0);
   }
   p_glUseProgram(prog);
   if (set_uniforms(prog))
      return 1;
   xfb_begin();
   p_glDrawArrays(GL_TRIANGLES, 0, 3);
   xfb_end_print(prog);
   p_glFinish();
   print_pixels();
   GLenum err = p_glGetError();
   if (err != GL_NO_ERROR) {
      snprintf(log, sizeof(log), "GL error 0x%x", err);
      return fail("draw", log);
   }
   fprintf(stderr, "shader_test: %s: linked\n", file);
   eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
   eglDestroyContext(dpy, ctx);
   eglTerminate(dpy);
   return 0;
}
