#include "common.h"
struct vadd_args { global uint *a; global uint *b; global uint *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct vadd_args);
   for (uint i = LANE; i < args->n; i += 32)
      args->out[i] = args->a[i] + args->b[i];
}
