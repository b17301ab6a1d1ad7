#include "common.h"
struct minmax_args { global int *a; global int *b; global int *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct minmax_args);
   for (uint i = LANE; i < args->n; i += 32) {
      int x = args->a[i], y = args->b[i];
      args->out[i] = (x < y ? y - x : x - y) + max(x, y) * 2 - min(x, 0) + (x > 100 ? 7 : -3);
   }
}
