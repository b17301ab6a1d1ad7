/* Reference for corpus/agx/gl25's vertex shaders: run one GLSL 4.50 vertex shader on the GL driver
 * EGL gives (Debian's llvmpipe) over 4 points with transform feedback, rasterizer discard on.
 *
 * Usage: gl_vertex_ref SHADER.vert SPEC WORDS NAME...
 * SPEC lines: `attr LOCATION COMPONENTS V...` (floats, 4 vertices' worth). The NAMEs are captured
 * interleaved, WORDS 32-bit words per vertex; output: per vertex, `V: WORD...` in hex.
 * Built and run by tools/agx/gl25_corpus.py. */
#include "../mesa/shader_test_common.h"

#define GL_FUNCS(X)                                                                         \
   COMMON_GL_FUNCS(X)                                                                       \
   X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                             \
   X(PFNGLENABLEPROC, glEnable)                                                             \
   X(PFNGLTRANSFORMFEEDBACKVARYINGSPROC, glTransformFeedbackVaryings)                       \
   X(PFNGLBEGINTRANSFORMFEEDBACKPROC, glBeginTransformFeedback)                             \
   X(PFNGLENDTRANSFORMFEEDBACKPROC, glEndTransformFeedback)                                 \
   X(PFNGLGETBUFFERSUBDATAPROC, glGetBufferSubData)
#define DECLARE(type, name) static type p_##name;
GL_FUNCS(DECLARE)

#define VERTICES 4

static char *read_all(const char *path)
{
   FILE *f = fopen(path, "rb");
   if (!f)
      return NULL;
   fseek(f, 0, SEEK_END);
   long n = ftell(f);
   fseek(f, 0, SEEK_SET);
   char *s = calloc(n + 1, 1);
   if (fread(s, 1, n, f) != (size_t)n) {
      fclose(f);
      free(s);
      return NULL;
   }
   fclose(f);
   return s;
}

int main(int argc, char **argv)
{
   if (argc < 5) {
      fprintf(stderr, "usage: gl_vertex_ref SHADER.vert SPEC WORDS NAME...\n");
      return 2;
   }
   unsigned per_vertex = (unsigned)atoi(argv[3]);
   if (per_vertex == 0 || per_vertex > 64)
      return fail("bad WORDS", argv[3]);
   file = argv[1];
   char *vs = read_all(argv[1]), *spec = read_all(argv[2]);
   if (!vs || !spec)
      return fail("cannot read the shader or the spec", NULL);
   EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
   if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL))
      return fail("eglInitialize", NULL);
   if (!eglBindAPI(EGL_OPENGL_API))
      return fail("eglBindAPI(EGL_OPENGL_API)", NULL);
   EGLint core[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
   EGLContext ctx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, core);
   if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx))
      return fail("GL 4.5 core context", NULL);
#define LOAD(type, name)                                                                    \
   p_##name = (type)eglGetProcAddress(#name);                                               \
   if (!p_##name)                                                                           \
      return fail("no entry point", #name);
   GL_FUNCS(LOAD)

   static char log[8192];
   GLint ok = 0;
   GLuint sh = p_glCreateShader(GL_VERTEX_SHADER);
   p_glShaderSource(sh, 1, (const char *const *)&vs, NULL);
   p_glCompileShader(sh);
   p_glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      p_glGetShaderInfoLog(sh, sizeof(log), NULL, log);
      return fail("compile", log);
   }
   GLuint prog = p_glCreateProgram();
   p_glAttachShader(prog, sh);
   p_glTransformFeedbackVaryings(prog, argc - 4, (const char *const *)&argv[4],
                                 GL_INTERLEAVED_ATTRIBS);
   p_glLinkProgram(prog);
   p_glGetProgramiv(prog, GL_LINK_STATUS, &ok);
   if (!ok) {
      p_glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      return fail("link", log);
   }
   p_glUseProgram(prog);

   GLuint vao;
   p_glGenVertexArrays(1, &vao);
   p_glBindVertexArray(vao);
   static float values[VERTICES * 4];
   for (char *line = strtok(spec, "\n"); line; line = strtok(NULL, "\n")) {
      unsigned loc, comps, n = 0;
      int used, step;
      float v;
      if (sscanf(line, "attr %u %u%n", &loc, &comps, &used) != 2 || comps < 1 || comps > 4)
         return fail("bad spec line", line);
      for (char *p = line + used; n < VERTICES * comps && sscanf(p, "%f%n", &v, &step) == 1;
           p += step)
         values[n++] = v;
      GLuint buf;
      p_glGenBuffers(1, &buf);
      p_glBindBuffer(GL_ARRAY_BUFFER, buf);
      p_glBufferData(GL_ARRAY_BUFFER, 4 * n, values, GL_STATIC_DRAW);
      p_glEnableVertexAttribArray(loc);
      p_glVertexAttribPointer(loc, comps, GL_FLOAT, GL_FALSE, 4 * comps, NULL);
   }
   GLuint tf;
   static uint32_t words[VERTICES * 64];
   p_glGenBuffers(1, &tf);
   p_glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, tf);
   p_glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER, sizeof(words), NULL, GL_DYNAMIC_COPY);
   p_glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, tf);
   /* a surfaceless context has no default framebuffer; a draw needs a complete one */
   GLuint fb, rb;
   p_glGenFramebuffers(1, &fb);
   p_glBindFramebuffer(GL_FRAMEBUFFER, fb);
   p_glGenRenderbuffers(1, &rb);
   p_glBindRenderbuffer(GL_RENDERBUFFER, rb);
   p_glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 1, 1);
   p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
   if (p_glGetError() != GL_NO_ERROR)
      return fail("GL error before the draw", NULL);
   p_glEnable(GL_RASTERIZER_DISCARD);
   p_glBeginTransformFeedback(GL_POINTS);
   p_glDrawArrays(GL_POINTS, 0, VERTICES);
   p_glEndTransformFeedback();
   p_glFinish();
   p_glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0, sizeof(words), words);
   if (p_glGetError() != GL_NO_ERROR)
      return fail("GL error", NULL);
   for (unsigned v = 0; v < VERTICES; ++v) {
      printf("%u:", v);
      for (unsigned k = 0; k < per_vertex; ++k)
         printf(" %08x", words[v * per_vertex + k]);
      printf("\n");
   }
   return 0;
}
