#include "common.h"
struct atomics_args { global uint *keys; global uint *hist; global uint *old; global int *minv; uint n; };
void libagx_helper(void)
{
   ARGS(struct atomics_args);
   for (uint i = LANE; i < args->n; i += 32) {
      uint k = args->keys[i];
      args->old[i] = atomic_add(&args->hist[k % 16], 1u);
      atomic_min(args->minv, (int)k - 1000);
   }
}
