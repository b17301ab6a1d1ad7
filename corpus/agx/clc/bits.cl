#include "common.h"
struct bits_args { global uint *a; global uint *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct bits_args);
   for (uint i = LANE; i < args->n; i += 32) {
      uint v = args->a[i];
      args->out[i] = popcount(v) ^ (v >> 3) ^ rotate(v, 7u) ^ (clz(v) << 24) ^ ((v & 0xff00) << 8);
   }
}
