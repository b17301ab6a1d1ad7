/* Reference for corpus/agx/gl25: draw one GLSL 4.50 fragment shader on the GL driver EGL gives
 * (Debian's llvmpipe) over a 16x16 RGBA8 framebuffer with a 32-bit float depth buffer, and print
 * every pixel's colour and depth.
 *
 * Usage: gl_fragment_ref SHADER.vert SHADER.frag SPEC
 * The vertex shader (written by tools/agx/gl25_corpus.py) draws one triangle, (-1,-1) (3,-1)
 * (-1,3) at z = 0 (window depth 0.5), counter-clockwise; SPEC lines are `ubo BINDING WORD...`
 * (32-bit words in hex), `rts N` (N RGBA8 colour attachments, draw buffer i to attachment i; 1
 * or 2), `blend alpha` (glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA)) or `blend add`
 * (glBlendFunc(GL_ONE, GL_ONE)), `clear R G B A` (the clear colour; default 0). Depth test on
 * with GL_ALWAYS and writes on, cleared to 1.0. Output: `X Y R G B A DEPTHBITS` per pixel (depth
 * as f32 bits in hex), then R G B A of attachment 1 when there are two.
 * Built and run by tools/agx/gl25_corpus.py. */
#include "../mesa/shader_test_common.h"

#define GL_FUNCS(X)                                                                         \
   COMMON_GL_FUNCS(X)                                                                       \
   X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                             \
   X(PFNGLENABLEPROC, glEnable)                                                             \
   X(PFNGLDEPTHFUNCPROC, glDepthFunc)                                                       \
   X(PFNGLCLEARCOLORPROC, glClearColor)                                                     \
   X(PFNGLCLEARDEPTHPROC, glClearDepth)                                                     \
   X(PFNGLCLEARPROC, glClear)                                                               \
   X(PFNGLREADPIXELSPROC, glReadPixels)                                                     \
   X(PFNGLREADBUFFERPROC, glReadBuffer)                                                     \
   X(PFNGLBLENDFUNCPROC, glBlendFunc)
#define DECLARE(type, name) static type p_##name;
GL_FUNCS(DECLARE)

#define W 16
#define H 16

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

static int compile(GLuint prog, GLenum stage, const char *source)
{
   static char log[8192];
   GLint ok = 0;
   GLuint sh = p_glCreateShader(stage);
   p_glShaderSource(sh, 1, &source, NULL);
   p_glCompileShader(sh);
   p_glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      p_glGetShaderInfoLog(sh, sizeof(log), NULL, log);
      return fail("compile", log);
   }
   p_glAttachShader(prog, sh);
   return 0;
}

int main(int argc, char **argv)
{
   if (argc != 4) {
      fprintf(stderr, "usage: gl_fragment_ref SHADER.vert SHADER.frag SPEC\n");
      return 2;
   }
   file = argv[2];
   char *vs = read_all(argv[1]), *fs = read_all(argv[2]), *spec = read_all(argv[3]);
   if (!vs || !fs || !spec)
      return fail("cannot read the shaders or the spec", NULL);

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

   GLuint prog = p_glCreateProgram();
   if (compile(prog, GL_VERTEX_SHADER, vs) || compile(prog, GL_FRAGMENT_SHADER, fs))
      return 1;
   GLint ok = 0;
   static char log[8192];
   p_glLinkProgram(prog);
   p_glGetProgramiv(prog, GL_LINK_STATUS, &ok);
   if (!ok) {
      p_glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      return fail("link", log);
   }
   p_glUseProgram(prog);

   static uint32_t words[1 << 16];
   unsigned rts = 1;
   float clear[4] = {0, 0, 0, 0};
   for (char *line = strtok(spec, "\n"); line; line = strtok(NULL, "\n")) {
      unsigned b, n = 0, w;
      int used, step;
      char mode[16];
      if (sscanf(line, "rts %u", &rts) == 1)
         continue;
      if (sscanf(line, "clear %f %f %f %f", &clear[0], &clear[1], &clear[2], &clear[3]) == 4)
         continue;
      if (sscanf(line, "blend %15s", mode) == 1) {
         p_glEnable(GL_BLEND);
         if (!strcmp(mode, "alpha"))
            p_glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
         else if (!strcmp(mode, "add"))
            p_glBlendFunc(GL_ONE, GL_ONE);
         else
            return fail("bad blend mode", mode);
         continue;
      }
      if (sscanf(line, "ubo %u%n", &b, &used) != 1)
         return fail("bad spec line", line);
      for (char *p = line + used; n < (1 << 16) && sscanf(p, "%x%n", &w, &step) == 1; p += step)
         words[n++] = w;
      GLuint buf;
      p_glGenBuffers(1, &buf);
      p_glBindBuffer(GL_UNIFORM_BUFFER, buf);
      p_glBufferData(GL_UNIFORM_BUFFER, 4 * n, words, GL_STATIC_DRAW);
      p_glBindBufferBase(GL_UNIFORM_BUFFER, b, buf);
   }

   if (rts < 1 || rts > 2)
      return fail("rts: 1 or 2", NULL);
   GLuint fb, rb[3];
   p_glGenFramebuffers(1, &fb);
   p_glBindFramebuffer(GL_FRAMEBUFFER, fb);
   p_glGenRenderbuffers(3, rb);
   for (unsigned i = 0; i < rts; ++i) {
      p_glBindRenderbuffer(GL_RENDERBUFFER, rb[i]);
      p_glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
      p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i, GL_RENDERBUFFER,
                                  rb[i]);
   }
   p_glBindRenderbuffer(GL_RENDERBUFFER, rb[2]);
   p_glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT32F, W, H);
   p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, rb[2]);
   GLenum draw[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
   p_glDrawBuffers(rts, draw);
   p_glViewport(0, 0, W, H);
   p_glEnable(GL_DEPTH_TEST);
   p_glDepthFunc(GL_ALWAYS);
   p_glClearColor(clear[0], clear[1], clear[2], clear[3]);
   p_glClearDepth(1.0);
   p_glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);

   GLuint vao;
   p_glGenVertexArrays(1, &vao);
   p_glBindVertexArray(vao);
   p_glDrawArrays(GL_TRIANGLES, 0, 3);
   p_glFinish();

   static uint8_t rgba[W * H * 4], rgba1[W * H * 4];
   static float depth[W * H];
   p_glReadBuffer(GL_COLOR_ATTACHMENT0);
   p_glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
   if (rts == 2) {
      p_glReadBuffer(GL_COLOR_ATTACHMENT1);
      p_glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, rgba1);
   }
   p_glReadPixels(0, 0, W, H, GL_DEPTH_COMPONENT, GL_FLOAT, depth);
   if (p_glGetError() != GL_NO_ERROR)
      return fail("GL error", NULL);
   for (unsigned y = 0; y < H; ++y) {
      for (unsigned x = 0; x < W; ++x) {
         const uint8_t *c = &rgba[4 * (y * W + x)];
         uint32_t bits;
         memcpy(&bits, &depth[y * W + x], 4);
         printf("%u %u %u %u %u %u %08x", x, y, c[0], c[1], c[2], c[3], bits);
         const uint8_t *d = &rgba1[4 * (y * W + x)];
         if (rts == 2)
            printf(" %u %u %u %u", d[0], d[1], d[2], d[3]);
         printf("\n");
      }
   }
   return 0;
}
