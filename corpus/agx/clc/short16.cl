#include "common.h"
struct short16_args { global ushort *a; global ushort *b; global ushort *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct short16_args);
   for (uint i = LANE; i < args->n; i += 32) {
      ushort x = args->a[i], y = args->b[i];
      args->out[i] = (ushort)(x * y + (x >> 2) - (y & 0x0f0f));
   }
}
