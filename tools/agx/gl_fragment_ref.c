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
 * `samples N` (2 or 4): the colour attachments are N-sample GL_RGBA8 textures
 * (glTexStorage2DMultisample, fixed sample locations) and the depth buffer an N-sample
 * GL_DEPTH_COMPONENT32F renderbuffer; after the draw each sample s of each attachment is read by a
 * second program, `texelFetch(sampler2DMS, ivec2(gl_FragCoord.xy), s)` written to a
 * single-sampled RGBA8 target and read back with glReadPixels (the k/255 values pass through
 * unchanged); output: `positions X0 Y0 X1 Y1 ...` (GL_SAMPLE_POSITION of each sample), then
 * `X Y S R G B A DEPTHBITS` per sample (then attachment 1's R G B A); the depth samples read
 * the same way from the N-sample GL_DEPTH_COMPONENT32F texture into a GL_R32F target. `alpha_to_coverage`:
 * glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE). `ms_texture`: see fill_ms_texture.
 * Built and run by tools/agx/gl25_corpus.py. */
#include "../mesa/shader_test_common.h"

#define GL_FUNCS(X)                                                                         \
   COMMON_GL_FUNCS(X)                                                                       \
   X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                             \
   X(PFNGLENABLEPROC, glEnable)                                                             \
   X(PFNGLDISABLEPROC, glDisable)                                                           \
   X(PFNGLDEPTHFUNCPROC, glDepthFunc)                                                       \
   X(PFNGLCLEARCOLORPROC, glClearColor)                                                     \
   X(PFNGLCLEARDEPTHPROC, glClearDepth)                                                     \
   X(PFNGLCLEARPROC, glClear)                                                               \
   X(PFNGLREADPIXELSPROC, glReadPixels)                                                     \
   X(PFNGLREADBUFFERPROC, glReadBuffer)                                                     \
   X(PFNGLBLENDFUNCPROC, glBlendFunc)                                                       \
   X(PFNGLGENTEXTURESPROC, glGenTextures)                                                   \
   X(PFNGLBINDTEXTUREPROC, glBindTexture)                                                   \
   X(PFNGLTEXSTORAGE2DMULTISAMPLEPROC, glTexStorage2DMultisample)                           \
   X(PFNGLFRAMEBUFFERTEXTURE2DPROC, glFramebufferTexture2D)                                 \
   X(PFNGLRENDERBUFFERSTORAGEMULTISAMPLEPROC, glRenderbufferStorageMultisample)             \
   X(PFNGLGETMULTISAMPLEFVPROC, glGetMultisamplefv)                                         \
   X(PFNGLGETUNIFORMLOCATIONPROC, glGetUniformLocation)                                     \
   X(PFNGLUNIFORM1IPROC, glUniform1i)                                                       \
   X(PFNGLACTIVETEXTUREPROC, glActiveTexture)                                               \
   X(PFNGLCHECKFRAMEBUFFERSTATUSPROC, glCheckFramebufferStatus)
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

/* The draw into the bound framebuffer: draw buffers 0..rts-1, the clear, depth ALWAYS, the
 * triangle. */
static void draw_triangle(unsigned rts, const float *clear)
{
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
}

/* A program of the triangle (-1,-1) (3,-1) (-1,3), covering the viewport, and fragment shader
 * FS; 0 (after printing WHAT) when it does not compile or link. */
static GLuint full_screen_program(const char *fs, const char *what)
{
   static const char *vs = "#version 450\n"
                           "const vec2 P[3] = vec2[](vec2(-1.0, -1.0), vec2(3.0, -1.0), "
                           "vec2(-1.0, 3.0));\n"
                           "void main() { gl_Position = vec4(P[gl_VertexID], 0.0, 1.0); }\n";
   GLuint p = p_glCreateProgram();
   if (compile(p, GL_VERTEX_SHADER, vs) || compile(p, GL_FRAGMENT_SHADER, fs))
      return 0;
   p_glLinkProgram(p);
   GLint ok = 0;
   p_glGetProgramiv(p, GL_LINK_STATUS, &ok);
   if (!ok) {
      fail(what, NULL);
      return 0;
   }
   return p;
}

/* The `ms_texture` spec line (corpus/agx/gl25msfetch): texture unit 0 holds a 4x4 GL_RGBA8
 * texture of 4 samples (`ms_texture 2`: 2), sample s of texel (x, y) = (16 x + 1, 16 y + 2, 64 s + 3, 0) / 255 (the
 * texture glsl_graphics gives a sampler2DMS). GL has no upload path for multisampled textures,
 * so a fill pass draws it: a fragment shader reading gl_SampleID runs once per sample (GL 4.6
 * 14.3.1.1), writing k/255 values that the RGBA8 store keeps exactly. */
static int fill_ms_texture(GLuint prog, unsigned samples)
{
   static const char *fs = "#version 450\n"
                           "layout(location = 0) out vec4 o;\n"
                           "void main() {\n"
                           "   ivec2 p = ivec2(gl_FragCoord.xy);\n"
                           "   o = vec4(16 * p.x + 1, 16 * p.y + 2, 64 * gl_SampleID + 3, 0) "
                           "/ 255.0;\n"
                           "}\n";
   GLuint fp = full_screen_program(fs, "ms_texture fill program link");
   if (!fp)
      return 1;
   p_glUseProgram(fp);
   GLuint fb, tex, vao;
   p_glGenFramebuffers(1, &fb);
   p_glBindFramebuffer(GL_FRAMEBUFFER, fb);
   p_glActiveTexture(GL_TEXTURE0);
   p_glGenTextures(1, &tex);
   p_glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex);
   p_glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA8, 4, 4, GL_TRUE);
   p_glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, tex,
                            0);
   if (p_glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      return fail("ms_texture framebuffer incomplete", NULL);
   GLenum draw = GL_COLOR_ATTACHMENT0;
   p_glDrawBuffers(1, &draw);
   p_glViewport(0, 0, 4, 4);
   p_glGenVertexArrays(1, &vao);
   p_glBindVertexArray(vao);
   p_glDrawArrays(GL_TRIANGLES, 0, 3);
   p_glFinish();
   p_glUseProgram(prog);
   p_glBindFramebuffer(GL_FRAMEBUFFER, 0);
   return p_glGetError() != GL_NO_ERROR ? fail("ms_texture fill: GL error", NULL) : 0;
}

/* The `samples N` path (see the top): draw into N-sample attachments, then read every sample. */
static int draw_multisampled(GLuint prog, unsigned rts, unsigned samples, const float *clear)
{
   GLuint fb, tex[2], depth;
   p_glGenFramebuffers(1, &fb);
   p_glBindFramebuffer(GL_FRAMEBUFFER, fb);
   p_glGenTextures(2, tex);
   for (unsigned i = 0; i < rts; ++i) {
      p_glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex[i]);
      p_glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_RGBA8, W, H, GL_TRUE);
      p_glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0 + i,
                               GL_TEXTURE_2D_MULTISAMPLE, tex[i], 0);
   }
   p_glGenTextures(1, &depth);
   p_glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, depth);
   p_glTexStorage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, samples, GL_DEPTH_COMPONENT32F, W, H,
                               GL_TRUE);
   p_glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D_MULTISAMPLE,
                            depth, 0);
   if (p_glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      return fail("multisampled framebuffer incomplete", NULL);
   GLenum draw[2] = {GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1};
   draw_triangle(rts, clear);
   printf("positions");
   for (unsigned s = 0; s < samples; ++s) {
      float pos[2];
      p_glGetMultisamplefv(GL_SAMPLE_POSITION, s, pos);
      printf(" %g %g", pos[0], pos[1]);
   }
   printf("\n");

   /* read each sample back through texelFetch into a single-sampled target */
   static const char *fs = "#version 450\n"
                           "uniform sampler2DMS t;\nuniform int s;\n"
                           "layout(location = 0) out vec4 o;\n"
                           "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), s); }\n";
   GLuint rp = full_screen_program(fs, "readback program link");
   if (!rp)
      return 1;
   p_glUseProgram(rp);
   GLuint rfb, rrb[2];
   p_glGenFramebuffers(1, &rfb);
   p_glBindFramebuffer(GL_FRAMEBUFFER, rfb);
   p_glGenRenderbuffers(2, rrb);
   p_glBindRenderbuffer(GL_RENDERBUFFER, rrb[0]);
   p_glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
   /* depth samples through a 32-bit float colour target (their bits unchanged) */
   p_glBindRenderbuffer(GL_RENDERBUFFER, rrb[1]);
   p_glRenderbufferStorage(GL_RENDERBUFFER, GL_R32F, W, H);
   p_glDrawBuffers(1, draw);
   p_glDisable(GL_DEPTH_TEST);
   p_glDisable(GL_BLEND);
   p_glActiveTexture(GL_TEXTURE0);
   p_glUniform1i(p_glGetUniformLocation(rp, "t"), 0);
   static uint8_t rgba[2][4][W * H * 4];
   static float depths[4][W * H];
   for (unsigned i = 0; i <= rts; ++i) {
      /* attachments 0 .. rts - 1, then the depth texture */
      unsigned z = i == rts;
      p_glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                                  rrb[z]);
      p_glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, z ? depth : tex[i]);
      for (unsigned s = 0; s < samples; ++s) {
         p_glUniform1i(p_glGetUniformLocation(rp, "s"), (GLint)s);
         p_glDrawArrays(GL_TRIANGLES, 0, 3);
         if (z)
            p_glReadPixels(0, 0, W, H, GL_RED, GL_FLOAT, depths[s]);
         else
            p_glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, rgba[i][s]);
      }
   }
   if (p_glGetError() != GL_NO_ERROR)
      return fail("GL error", NULL);
   for (unsigned y = 0; y < H; ++y)
      for (unsigned x = 0; x < W; ++x)
         for (unsigned s = 0; s < samples; ++s) {
            uint32_t bits;
            memcpy(&bits, &depths[s][y * W + x], 4);
            const uint8_t *c = &rgba[0][s][4 * (y * W + x)];
            printf("%u %u %u %u %u %u %u %08x", x, y, s, c[0], c[1], c[2], c[3], bits);
            if (rts == 2) {
               c = &rgba[1][s][4 * (y * W + x)];
               printf(" %u %u %u %u", c[0], c[1], c[2], c[3]);
            }
            printf("\n");
         }
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
   unsigned rts = 1, samples = 1;
   float clear[4] = {0, 0, 0, 0};
   for (char *line = strtok(spec, "\n"); line; line = strtok(NULL, "\n")) {
      unsigned b, n = 0, w;
      int used, step;
      char mode[16];
      if (sscanf(line, "rts %u", &rts) == 1)
         continue;
      if (sscanf(line, "samples %u", &samples) == 1)
         continue;
      if (!strcmp(line, "ms_texture") || !strcmp(line, "ms_texture 2")) {
         if (fill_ms_texture(prog, line[10] ? 2 : 4))
            return 1;
         continue;
      }
      if (!strcmp(line, "alpha_to_coverage")) {
         p_glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
         continue;
      }
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
   if (samples != 1 && samples != 2 && samples != 4)
      return fail("samples: 1, 2 or 4", NULL);
   if (samples > 1)
      return draw_multisampled(prog, rts, samples, clear);
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
   draw_triangle(rts, clear);
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
