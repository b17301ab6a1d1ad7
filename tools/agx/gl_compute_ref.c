/* Reference for corpus/agx/glsl: run one GLSL compute shader on the GL driver EGL gives (Debian's
 * llvmpipe) with the buffers of its job and print every buffer afterwards.
 *
 * Usage: gl_compute_ref SHADER.comp GROUPS SPEC   (GROUPS: X or X,Y,Z)
 * SPEC lines: `ssbo BINDING WORD...` or `ubo BINDING WORD...` (32-bit words in hex), and
 * `texture UNIT DIM FORMAT W H D WORD...` / `image UNIT DIM FORMAT W H D WORD...` (DIM 2d, 2darray,
 * 3d, cube or buffer (W texels, H = D = 1: a buffer texture); FORMAT as tools/agx/glsl_compute.c names them; the words are level 0's texels row by
 * row, layer by layer, cube faces in GL's order): a texture on texture unit UNIT with NEAREST
 * filters, clamp to edge and no mipmaps (level 0 only), or an image bound read-write to image
 * unit UNIT (layered when it has layers; a 2D image line may say `levels=N,BASE` after D: N
 * levels, the words giving every level in turn, the image unit bound at level BASE and every
 * level printed; DIM `2dms` (D = 1) or `2dmsarray` (D layers) with `samples=S` after D: a
 * multisampled image or texture, the words layer by layer, each pixel's samples in turn, filled
 * by imageStore and not printed); `sampler UNIT linear|seamless|border=R,G,B,A` after a
 * texture line makes its filters LINEAR (seamless: with GL_TEXTURE_CUBE_MAP_SEAMLESS on), or its
 * wrap modes clamp to border with that colour.
 * Output: one line per buffer, `BINDING: WORD...` in hex, after glDispatchCompute(X, Y, Z), then
 * one per image, `image UNIT: WORD...`.
 * Built and run by tools/agx/glsl_compute_corpus.py. */
#include "../mesa/shader_test_common.h"

#include <stdbool.h>

#define MAX2(a, b) ((a) > (b) ? (a) : (b))

#define GL_FUNCS(X)                                                                         \
   COMMON_GL_FUNCS(X)                                                                       \
   X(PFNGLBINDBUFFERBASEPROC, glBindBufferBase)                                             \
   X(PFNGLDISPATCHCOMPUTEPROC, glDispatchCompute)                                           \
   X(PFNGLMEMORYBARRIERPROC, glMemoryBarrier)                                               \
   X(PFNGLGETBUFFERSUBDATAPROC, glGetBufferSubData)                                         \
   X(PFNGLACTIVETEXTUREPROC, glActiveTexture)                                               \
   X(PFNGLGENTEXTURESPROC, glGenTextures)                                                   \
   X(PFNGLBINDTEXTUREPROC, glBindTexture)                                                   \
   X(PFNGLTEXPARAMETERIPROC, glTexParameteri)                                               \
   X(PFNGLTEXIMAGE2DPROC, glTexImage2D)                                                     \
   X(PFNGLTEXIMAGE3DPROC, glTexImage3D)                                                     \
   X(PFNGLPIXELSTOREIPROC, glPixelStorei)                                                   \
   X(PFNGLBINDIMAGETEXTUREPROC, glBindImageTexture)                                         \
   X(PFNGLGETTEXIMAGEPROC, glGetTexImage)                                                   \
   X(PFNGLTEXBUFFERPROC, glTexBuffer)                                                       \
   X(PFNGLENABLEPROC, glEnable)                                                             \
   X(PFNGLTEXPARAMETERFVPROC, glTexParameterfv)                                             \
   X(PFNGLCOMPRESSEDTEXIMAGE2DPROC, glCompressedTexImage2D)                                 \
   X(PFNGLTEXSTORAGE2DMULTISAMPLEPROC, glTexStorage2DMultisample)                           \
   X(PFNGLTEXSTORAGE3DMULTISAMPLEPROC, glTexStorage3DMultisample)
#define DECLARE(type, name) static type p_##name;
GL_FUNCS(DECLARE)

#define MAX_BUFFERS 16

static const struct {
   const char *name;
   GLenum internal, format, type;
   unsigned bytes;
} formats[] = {
   {"rgba8", GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4},
   {"rgba8ui", GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4},
   {"r32f", GL_R32F, GL_RED, GL_FLOAT, 4},
   {"r32ui", GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4},
   {"r32i", GL_R32I, GL_RED_INTEGER, GL_INT, 4},
   {"rg16i", GL_RG16I, GL_RG_INTEGER, GL_SHORT, 4},
   {"rgba16f", GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8},
   {"rgba32f", GL_RGBA32F, GL_RGBA, GL_FLOAT, 16},
   {"rg32f", GL_RG32F, GL_RG, GL_FLOAT, 8},
   {"r16ui", GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT, 2},
   /* compressed: `bytes` is per texel of whole blocks (16-byte blocks) */
   {"astc4x4", 0x93B0 /* GL_COMPRESSED_RGBA_ASTC_4x4_KHR */, 0, 0, 0},
};

struct image {
   GLuint tex, unit, buffer;
   GLenum target, format, type;
   unsigned words, levels, w, h, bytes;
};
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

/* A compute program of `source`, or 0 (reported). */
static GLuint build_program(const char *source)
{
   GLuint sh = p_glCreateShader(GL_COMPUTE_SHADER);
   p_glShaderSource(sh, 1, &source, NULL);
   p_glCompileShader(sh);
   GLint ok = 0;
   static char log[8192];
   p_glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
   if (!ok) {
      p_glGetShaderInfoLog(sh, sizeof(log), NULL, log);
      fail("compile", log);
      return 0;
   }
   GLuint prog = p_glCreateProgram();
   p_glAttachShader(prog, sh);
   p_glLinkProgram(prog);
   p_glGetProgramiv(prog, GL_LINK_STATUS, &ok);
   if (!ok) {
      p_glGetProgramInfoLog(prog, sizeof(log), NULL, log);
      fail("link", log);
      return 0;
   }
   return prog;
}

/* A multisampled image or texture (`2dms`, `2dmsarray` with `samples=S`: R32UI or RGBA8) in
 * `tex`: GL has no upload path for multisampled data, so a compute pass stores each sample from a
 * buffer with imageStore (the words as for the AGX image: layer by layer, pixels row by row,
 * each pixel's samples in turn; RGBA8 words through unpackUnorm4x8, which the store converts
 * back exactly). It uses SSBO binding 0 and image unit `unit`; the caller rebinds both. */
static int fill_ms(GLuint tex, unsigned unit, const char *fmt, unsigned w, unsigned h,
                   unsigned samples, unsigned layers, bool array, const uint32_t *words,
                   GLuint main_prog)
{
   bool unorm = !strcmp(fmt, "rgba8");
   if (!unorm && strcmp(fmt, "r32ui"))
      return fail("multisampled resources are r32ui or rgba8", fmt);
   static char source[1024];
   snprintf(source, sizeof(source),
            "#version 450\n"
            "layout(local_size_x = 1) in;\n"
            "layout(binding = %u, %s) uniform writeonly %simage2DMS%s img;\n"
            "layout(std430, binding = 0) buffer W { uint w[]; };\n"
            "void main() {\n"
            "   ivec2 p = ivec2(gl_GlobalInvocationID.xy);\n"
            "   int s = int(gl_GlobalInvocationID.z) %% %u, z = int(gl_GlobalInvocationID.z) / %u;\n"
            "   uint v = w[((z * %u + p.y) * %u + p.x) * %u + s];\n"
            "   imageStore(img, %s, s, %s);\n"
            "}\n",
            unit, fmt, unorm ? "" : "u", array ? "Array" : "", samples, samples, h, w, samples,
            array ? "ivec3(p, z)" : "p", unorm ? "unpackUnorm4x8(v)" : "uvec4(v)");
   GLuint prog = build_program(source);
   if (!prog)
      return 1;
   GLuint buf;
   p_glGenBuffers(1, &buf);
   p_glBindBuffer(GL_SHADER_STORAGE_BUFFER, buf);
   p_glBufferData(GL_SHADER_STORAGE_BUFFER, 4 * w * h * samples * layers, words, GL_STATIC_DRAW);
   p_glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, buf);
   p_glBindImageTexture(unit, tex, 0, array, 0, GL_WRITE_ONLY, unorm ? GL_RGBA8 : GL_R32UI);
   p_glUseProgram(prog);
   p_glDispatchCompute(w, h, samples * layers);
   p_glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
   p_glUseProgram(main_prog);
   return p_glGetError() != GL_NO_ERROR ? fail("multisampled fill: GL error", NULL) : 0;
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

   GLuint prog = build_program(source);
   if (!prog)
      return 1;
   p_glUseProgram(prog);

   static uint32_t words[MAX_WORDS];
   GLuint bufs[MAX_BUFFERS];
   unsigned binding[MAX_BUFFERS], size[MAX_BUFFERS], count = 0;
   GLenum btarget[MAX_BUFFERS];
   struct image images[MAX_BUFFERS];
   unsigned nr_images = 0;
   GLenum unit_target[32] = {0};
   p_glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
   p_glPixelStorei(GL_PACK_ALIGNMENT, 1);
   for (char *line = strtok(spec, "\n"); line; line = strtok(NULL, "\n")) {
      char kind[8];
      unsigned b;
      int used;
      if (sscanf(line, "%7s %u%n", kind, &b, &used) != 2 || count == MAX_BUFFERS)
         return fail("bad spec line", line);
      char dim[16] = "", fmt[16] = "";
      unsigned w_px = 0, h_px = 0, d_px = 0;
      bool texture = !strcmp(kind, "texture"), image = !strcmp(kind, "image");
      if (!strcmp(kind, "sampler")) {
         /* `sampler UNIT linear|seamless`: that unit's texture gets LINEAR filters (seamless:
          * and GL_TEXTURE_CUBE_MAP_SEAMLESS on); it comes after the unit's texture line */
         char filter[64];
         if (sscanf(line + used, "%63s", filter) != 1 || b >= 32 || !unit_target[b])
            return fail("bad sampler line", line);
         p_glActiveTexture(GL_TEXTURE0 + b);
         float border[4];
         if (sscanf(filter, "border=%f,%f,%f,%f", &border[0], &border[1], &border[2],
                    &border[3]) == 4 ||
             sscanf(line + used, "border %f %f %f %f", &border[0], &border[1], &border[2],
                    &border[3]) == 4) {
            p_glTexParameteri(unit_target[b], GL_TEXTURE_WRAP_S, GL_CLAMP_TO_BORDER);
            p_glTexParameteri(unit_target[b], GL_TEXTURE_WRAP_T, GL_CLAMP_TO_BORDER);
            p_glTexParameteri(unit_target[b], GL_TEXTURE_WRAP_R, GL_CLAMP_TO_BORDER);
            p_glTexParameterfv(unit_target[b], GL_TEXTURE_BORDER_COLOR, border);
            continue;
         }
         p_glTexParameteri(unit_target[b], GL_TEXTURE_MIN_FILTER, GL_LINEAR);
         p_glTexParameteri(unit_target[b], GL_TEXTURE_MAG_FILTER, GL_LINEAR);
         if (!strcmp(filter, "seamless"))
            p_glEnable(GL_TEXTURE_CUBE_MAP_SEAMLESS);
         continue;
      }
      unsigned levels = 1, base = 0, samples = 0;
      if (texture || image) {
         int more;
         if (sscanf(line + used, "%15s %15s %u %u %u%n", dim, fmt, &w_px, &h_px, &d_px, &more) != 5)
            return fail("bad texture line", line);
         used += more;
         /* `levels=N,BASE` (2D images): N levels, the words giving each in turn; the image unit
          * binds level BASE */
         if (sscanf(line + used, " samples=%u%n", &samples, &more) == 1) {
            used += more;
            if (strcmp(dim, "2dms") && strcmp(dim, "2dmsarray"))
               return fail("samples= is for 2dms and 2dmsarray", line);
         } else if (sscanf(line + used, " levels=%u,%u%n", &levels, &base, &more) == 2) {
            used += more;
            if (!image || strcmp(dim, "2d") || !levels || base >= levels)
               return fail("levels= is for 2D images, BASE below N", line);
         }
      }
      unsigned n = 0, w;
      int step;
      for (char *p = line + used; n < MAX_WORDS && sscanf(p, "%x%n", &w, &step) == 1; p += step)
         words[n++] = w;
      if (texture || image) {
         unsigned f = 0;
         while (f < sizeof(formats) / sizeof(formats[0]) && strcmp(formats[f].name, fmt))
            f++;
         if (f == sizeof(formats) / sizeof(formats[0]))
            return fail("unknown format", fmt);
         if (samples) {
            /* a multisampled image (read-write on image unit b) or texture (on texture unit
             * b), D its layers; not read back (GL cannot) */
            bool array = !strcmp(dim, "2dmsarray");
            GLenum target = array ? GL_TEXTURE_2D_MULTISAMPLE_ARRAY : GL_TEXTURE_2D_MULTISAMPLE;
            if ((!array && d_px != 1) || 4 * n != w_px * h_px * d_px * samples * formats[f].bytes)
               return fail("bad multisampled resource", line);
            GLuint tex;
            p_glGenTextures(1, &tex);
            p_glActiveTexture(image ? GL_TEXTURE31 : GL_TEXTURE0 + b);
            p_glBindTexture(target, tex);
            if (array)
               p_glTexStorage3DMultisample(target, samples, formats[f].internal, w_px, h_px, d_px,
                                           GL_TRUE);
            else
               p_glTexStorage2DMultisample(target, samples, formats[f].internal, w_px, h_px,
                                           GL_TRUE);
            /* a texture's fill borrows image unit 7 */
            if (fill_ms(tex, image ? b : 7, fmt, w_px, h_px, samples, d_px, array, words, prog))
               return 1;
            for (unsigned i = 0; i < count; ++i)
               p_glBindBufferBase(btarget[i], binding[i], bufs[i]);
            if (image)
               p_glBindImageTexture(b, tex, 0, array, 0, GL_READ_WRITE, formats[f].internal);
            continue;
         }
         GLenum target = !strcmp(dim, "buffer")    ? GL_TEXTURE_BUFFER
                         : !strcmp(dim, "2d")      ? GL_TEXTURE_2D
                         : !strcmp(dim, "2darray") ? GL_TEXTURE_2D_ARRAY
                         : !strcmp(dim, "3d")      ? GL_TEXTURE_3D
                         : !strcmp(dim, "cube")    ? GL_TEXTURE_CUBE_MAP
                                                   : 0;
         bool compressed = formats[f].bytes == 0;
         unsigned texels = 0;
         for (unsigned l = 0; l < levels; ++l)
            texels += MAX2(w_px >> l, 1) * MAX2(h_px >> l, 1) * d_px;
         if (!target ||
             (compressed ? 4 * n != (w_px / 4) * (h_px / 4) * d_px * 16
                         : 4 * n != texels * formats[f].bytes))
            return fail("bad texture size or dimension", line);
         GLuint tex, buf = 0;
         p_glGenTextures(1, &tex);
         if (target == GL_TEXTURE_BUFFER) {
            /* a buffer texture: the texels in a buffer object */
            p_glGenBuffers(1, &buf);
            p_glBindBuffer(GL_TEXTURE_BUFFER, buf);
            p_glBufferData(GL_TEXTURE_BUFFER, 4 * n, words, GL_DYNAMIC_COPY);
            p_glActiveTexture(image ? GL_TEXTURE31 : GL_TEXTURE0 + b);
            p_glBindTexture(GL_TEXTURE_BUFFER, tex);
            p_glTexBuffer(GL_TEXTURE_BUFFER, formats[f].internal, buf);
            if (image) {
               p_glBindImageTexture(b, tex, 0, GL_FALSE, 0, GL_READ_WRITE, formats[f].internal);
               images[nr_images++] = (struct image){tex, b, buf, target, formats[f].format,
                                                    formats[f].type, n};
            }
            continue;
         }
         /* an image is created on a spare unit, so it does not replace the texture on
          * texture unit b (image units are their own namespace) */
         p_glActiveTexture(image ? GL_TEXTURE31 : GL_TEXTURE0 + b);
         p_glBindTexture(target, tex);
         p_glTexParameteri(target, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
         p_glTexParameteri(target, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
         p_glTexParameteri(target, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
         p_glTexParameteri(target, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
         p_glTexParameteri(target, GL_TEXTURE_WRAP_R, GL_CLAMP_TO_EDGE);
         p_glTexParameteri(target, GL_TEXTURE_MAX_LEVEL, levels - 1);
         if (levels > 1) {
            uint8_t *at = (uint8_t *)words;
            for (unsigned l = 0; l < levels; ++l) {
               unsigned lw = MAX2(w_px >> l, 1), lh = MAX2(h_px >> l, 1);
               p_glTexImage2D(target, l, formats[f].internal, lw, lh, 0, formats[f].format,
                              formats[f].type, at);
               at += lw * lh * formats[f].bytes;
            }
         } else if (compressed && target == GL_TEXTURE_2D) {
            p_glCompressedTexImage2D(target, 0, formats[f].internal, w_px, h_px, 0, 4 * n, words);
         } else if (compressed) {
            return fail("compressed formats only as 2D textures", line);
         } else if (target == GL_TEXTURE_2D) {
            p_glTexImage2D(target, 0, formats[f].internal, w_px, h_px, 0, formats[f].format,
                           formats[f].type, words);
         } else if (target == GL_TEXTURE_CUBE_MAP) {
            unsigned face_B = w_px * h_px * formats[f].bytes;
            for (unsigned face = 0; face < 6; ++face)
               p_glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, formats[f].internal,
                              w_px, h_px, 0, formats[f].format, formats[f].type,
                              (uint8_t *)words + face * face_B);
         } else {
            p_glTexImage3D(target, 0, formats[f].internal, w_px, h_px, d_px, 0,
                           formats[f].format, formats[f].type, words);
         }
         if (!image && b < 32)
            unit_target[b] = target;
         if (image) {
            p_glBindImageTexture(b, tex, base, target != GL_TEXTURE_2D, 0, GL_READ_WRITE,
                                 formats[f].internal);
            images[nr_images++] =
               (struct image){tex,    b,     0,    target, formats[f].format, formats[f].type,
                              n,      levels, w_px, h_px,   formats[f].bytes};
         }
         continue;
      }
      GLenum target = !strcmp(kind, "ubo") ? GL_UNIFORM_BUFFER : GL_SHADER_STORAGE_BUFFER;
      p_glGenBuffers(1, &bufs[count]);
      p_glBindBuffer(target, bufs[count]);
      p_glBufferData(target, 4 * n, words, GL_DYNAMIC_COPY);
      p_glBindBufferBase(target, b, bufs[count]);
      binding[count] = b;
      btarget[count] = target;
      size[count++] = n;
   }
   unsigned gx = 1, gy = 1, gz = 1;
   if (sscanf(argv[2], "%u,%u,%u", &gx, &gy, &gz) < 1)
      return fail("bad GROUPS", argv[2]);
   p_glDispatchCompute(gx, gy, gz);
   p_glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
   p_glFinish();
   for (unsigned i = 0; i < count; ++i) {
      p_glBindBuffer(GL_COPY_READ_BUFFER, bufs[i]);
      p_glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 4 * size[i], words);
      printf("%u:", binding[i]);
      for (unsigned k = 0; k < size[i]; ++k)
         printf(" %08x", words[k]);
      printf("\n");
   }
   for (unsigned i = 0; i < nr_images; ++i) {
      p_glBindTexture(images[i].target, images[i].tex);
      if (images[i].target == GL_TEXTURE_BUFFER) {
         p_glBindBuffer(GL_COPY_READ_BUFFER, images[i].buffer);
         p_glGetBufferSubData(GL_COPY_READ_BUFFER, 0, 4 * images[i].words, words);
      } else if (images[i].target == GL_TEXTURE_CUBE_MAP) {
         unsigned face_words = images[i].words / 6;
         for (unsigned face = 0; face < 6; ++face)
            p_glGetTexImage(GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, images[i].format,
                            images[i].type, words + face * face_words);
      } else if (images[i].levels > 1) {
         /* every level in turn, as the spec line gave them */
         uint8_t *at = (uint8_t *)words;
         for (unsigned l = 0; l < images[i].levels; ++l) {
            p_glGetTexImage(images[i].target, l, images[i].format, images[i].type, at);
            at += MAX2(images[i].w >> l, 1) * MAX2(images[i].h >> l, 1) * images[i].bytes;
         }
      } else {
         p_glGetTexImage(images[i].target, 0, images[i].format, images[i].type, words);
      }
      printf("image %u:", images[i].unit);
      for (unsigned k = 0; k < images[i].words; ++k)
         printf(" %08x", words[k]);
      printf("\n");
   }
   if (p_glGetError() != GL_NO_ERROR)
      return fail("GL error", NULL);
   return 0;
}
