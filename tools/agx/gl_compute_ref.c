/* Reference for corpus/agx/glsl: run one GLSL compute shader on the GL driver EGL gives (Debian's
 * llvmpipe) with the buffers of its job and print every buffer afterwards.
 *
 * Usage: gl_compute_ref SHADER.comp GROUPS SPEC   (GROUPS: X or X,Y,Z)
 * SPEC lines: `ssbo BINDING WORD...` or `ubo BINDING WORD...` (32-bit words in hex).
 * Output: one line per buffer, `BINDING: WORD...` in hex, after glDispatchCompute(X, Y, Z).
 * Built and run by tools/agx/glsl_compute_corpus.py. */
#include "../mesa/shader_test_common.h"

#define GL_FUNCS(X)                                                                         \
   COMMON_GL_FUNCS(X)                                                                       \
   X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                             \
   X(PFNGLDISPATCHCOMPUTEPROC, glDispatchCompute)                                           \
   X(PFNGLMEMORYBARRIERPROC, glMemoryBarrier)                                               \
   X(PFNGLGETBUFFERSUBDATAPROC, glGetBufferSubData)
#define DECLARE(type, name) static type p_##name;
GL_FUNCS(DECLARE)

#define MAX_BUFFERS 16
#define MAX_WORDS (1 << 20)

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
   if (argc != 4) {
      fprintf(stderr, "usage: gl_compute_ref SHADER.comp GROUPS SPEC\n");
      return 2;
   }
   file = argv[1];
   char *source = read_all(argv[1]);
   char *spec = read_all(argv[3]);
   if (!source || !spec)
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

   GLuint sh = p_glCreateShader(GL_COMPUTE_SHADER);
   p_glShaderSource(sh, 1, (const char *const *)&source, NULL);
   p_glCompileShader(sh);
   GLint ok = 0;
   static char log[8192];
   p_glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      p_glGetShaderInfoLog(sh, sizeof(log), NULL, log);
      return fail("compile", log);
   }
   GLuint prog = p_glCreateProgram();
   p_glAttachShader(prog, sh);
   p_glLinkProgram(prog);
   p_glGetProgramiv(prog, GL_LINK_STATUS, &ok);
   if (!ok) {
      p_glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      return fail("link", log);
   }
   p_glUseProgram(prog);

   static uint32_t words[MAX_WORDS];
   GLuint bufs[MAX_BUFFERS];
   unsigned binding[MAX_BUFFERS], size[MAX_BUFFERS], count = 0;
   for (char *line = strtok(spec, "\n"); line; line = strtok(NULL, "\n")) {
      char kind[8];
      unsigned b;
      int used;
      if (sscanf(line, "%7s %u%n", kind, &b, &used) != 2 || count == MAX_BUFFERS)
         return fail("bad spec line", line);
      unsigned n = 0, w;
      int step;
      for (char *p = line + used; n < MAX_WORDS && sscanf(p, "%x%n", &w, &step) == 1; p += step)
         words[n++] = w;
      GLenum target = !strcmp(kind, "ubo") ? GL_UNIFORM_BUFFER : GL_SHADER_STORAGE_BUFFER;
      p_glGenBuffers(1, &bufs[count]);
      p_glBindBuffer(target, bufs[count]);
      p_glBufferData(target, 4 * n, words, GL_DYNAMIC_COPY);
      p_glBindBufferBase(target, b, bufs[count]);
      binding[count] = b;
      size[count++] = n;
   }
   unsigned gx = 1, gy = 1, gz = 1;
   if (sscanf(argv[2], "%u,%u,%u", &gx, &gy, &gz) < 1)
      return fail("bad GROUPS", argv[2]);
   p_glDispatchCompute(gx, gy, gz);
   p_glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
   p_glFinish();
   for (unsigned i = 0; i < count; ++i) {
      p_glBindBuffer(GL_COPY_READ_BUFFER, bufs[i]);
      p_glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 4 * size[i], words);
      printf("%u:", binding[i]);
      for (unsigned k = 0; k < size[i]; ++k)
         printf(" %08x", words[k]);
      printf("\n");
   }
   if (p_glGetError() != GL_NO_ERROR)
      return fail("GL error", NULL);
   return 0;
}
