#include "common.h"
struct i64_args { global ulong *a; global ulong *b; global ulong *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct i64_args);
   for (uint i = LANE; i < args->n; i += 32)
      args->out[i] = args->a[i] * 3 + (args->b[i] >> 5) + ((ulong)i << 40);
}
