/* Host-side model of the llvm.r600.* intrinsics the R700 corpus uses, written from their LLVM IR
 * meaning (LangRef and the R600 back end's documentation of the intrinsics), for make_refs.py: the
 * corpus shader, retargeted to the host, is linked with this file and run by lli-19 to give reference
 * exports that wavesim's R700 executor must reproduce. Compiled with -ffp-contract=off (no fused
 * multiply-add, as in the IR). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef float float4 __attribute__((ext_vector_type(4)));

int host_thread;
int host_killed;
float4 cb0[64];
float4 cb1[64];
/* Textures: 4x4 RGBA8 (resource 0) and 4x4 RGBA8 (resource 1); samplers point + repeat. Resource 2 is a
 * cube map of six 4x4 RGBA8 faces in face-id order +X, -X, +Y, -Y, +Z, -Z. */
unsigned char host_tex_data[2][4 * 4 * 4];
unsigned char host_cube_data[6][4 * 4 * 4];

static uint32_t bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

void host_store_swizzle(float4 v, int target, int type) {
  const char *kind = type == 0 ? "pixel" : type == 1 ? "pos" : "param";
  int index = type == 1 ? target - 60 : target;
  printf("thread %d %s%d %08x %08x %08x %08x\n", host_thread, kind, index, bits(v.x), bits(v.y), bits(v.z), bits(v.w));
}

/* llvm.r600.store.stream.output(v, array base, stream, component mask) */
void host_stream(float4 v, int base, int stream, int mask) {
  printf("thread %d stream%d[%d]", host_thread, stream, base);
  float c[4] = {v.x, v.y, v.z, v.w};
  for (int k = 0; k < 4; k++) {
    if (mask >> k & 1) printf(" %08x", bits(c[k])); else printf(" _");
  }
  printf("\n");
}

/* llvm.r600.kill(x): discard the pixel when x < 0. */
void host_kill(float x) {
  if (x < 0.0f) host_killed = 1;
}

float host_dot4(float4 a, float4 b) {
  float s = a.x * b.x;
  s = s + a.y * b.y;
  s = s + a.z * b.z;
  s = s + a.w * b.w;
  return s;
}

/* llvm.r600.cube(v): (tc, sc, 2*major axis, face id) of the direction v.xyz. */
float4 host_cube(float4 v) {
  float x = v.x, y = v.y, z = v.z;
  float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
  float4 r;
  if (az >= ax && az >= ay) { r.x = -y; r.y = z < 0 ? -x : x; r.z = 2.0f * z; r.w = z < 0 ? 5.0f : 4.0f; }
  else if (ay >= ax) { r.x = y < 0 ? -z : z; r.y = x; r.z = 2.0f * y; r.w = y < 0 ? 3.0f : 2.0f; }
  else { r.x = -y; r.y = x < 0 ? z : -z; r.z = 2.0f * x; r.w = x < 0 ? 1.0f : 0.0f; }
  return r;
}

/* llvm.r600.tex(coord, offx, offy, offz, resource, sampler, ctx, cty, ctz, ctw): point sampling, repeat
 * addressing, level 0; coordinate type 0 = texel units, 1 = normalized. */
float4 host_tex(float4 c, int ox, int oy, int oz, int res, int smp, int ctx, int cty, int ctz, int ctw) {
  (void)ox; (void)oy; (void)oz; (void)smp; (void)ctz; (void)ctw;
  if (res == 2) {
    /* Cube map: OpenGL 4.6, 8.13: s = (sc / |ma| + 1) / 2 and t = (tc / |ma| + 1) / 2 on face `face`. The
     * shader passes x = sc / |2 ma| + 1.5 (CUBE returns 2 ma), so s = x - 1; likewise t = y - 1. The
     * face id is in the third coordinate. Point sampling, inside the face. */
    float s = c.x - 1.0f, t = c.y - 1.0f;
    int face = (int)c.z;
    int x = (int)floorf(s * 4.0f), y = (int)floorf(t * 4.0f);
    if (face < 0 || face > 5 || x < 0 || x > 3 || y < 0 || y > 3) {
      printf("thread %d cube sample outside a face\n", host_thread);
      x = y = face = 0;
    }
    unsigned char *p = &host_cube_data[face][(y * 4 + x) * 4];
    float4 r = {p[0] / 255.0f, p[1] / 255.0f, p[2] / 255.0f, p[3] / 255.0f};
    return r;
  }
  float u = c.x, v = c.y;
  if (ctx) u *= 4.0f;
  if (cty) v *= 4.0f;
  int x = (int)floorf(u), y = (int)floorf(v);
  x = ((x % 4) + 4) % 4;
  y = ((y % 4) + 4) % 4;
  unsigned char *t = &host_tex_data[res][(y * 4 + x) * 4];
  float4 r = {t[0] / 255.0f, t[1] / 255.0f, t[2] / 255.0f, t[3] / 255.0f};
  return r;
}
