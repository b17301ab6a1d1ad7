#include "common.h"
struct shuffle_args { global uint *a; global uint *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct shuffle_args);
   uint lane = LANE;
   uint v = lane < args->n ? args->a[lane] : 0;
   uint from = intel_sub_group_shuffle(v, (lane * 5) & 31);
   uint x = intel_sub_group_shuffle_xor(v, 1u);
   if (lane < args->n)
      args->out[lane] = from + x * 3;
}
