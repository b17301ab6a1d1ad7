#include "common.h"
struct fmath_args { global float *a; global float *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct fmath_args);
   for (uint i = LANE; i < args->n; i += 32) {
      float x = args->a[i];
      args->out[i] = floor(x) + ceil(x * 0.25f) + fabs(x) * 0.5f + fmin(x, 1.0f) + fmax(x, -2.0f);
   }
}
