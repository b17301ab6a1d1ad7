#include "common.h"
struct fconv_args { global int *a; global float *f; global int *back; uint n; };
void libagx_helper(void)
{
   ARGS(struct fconv_args);
   for (uint i = LANE; i < args->n; i += 32) {
      float v = (float)args->a[i] * 0.5f + 0.25f;
      args->f[i] = v;
      args->back[i] = (int)(v * 3.0f);
   }
}
