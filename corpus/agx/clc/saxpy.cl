#include "common.h"
struct saxpy_args { global float *x; global float *y; global float *out; float alpha; uint n; };
void libagx_helper(void)
{
   ARGS(struct saxpy_args);
   for (uint i = LANE; i < args->n; i += 32)
      args->out[i] = args->alpha * args->x[i] + args->y[i];
}
