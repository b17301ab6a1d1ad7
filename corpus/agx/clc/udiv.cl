#include "common.h"
struct udiv_args { global uint *a; global uint *b; global uint *quot; global uint *rem; uint n; };
void libagx_helper(void)
{
   ARGS(struct udiv_args);
   for (uint i = LANE; i < args->n; i += 32) {
      uint d = args->b[i] | 1;
      args->quot[i] = args->a[i] / d;
      args->rem[i] = args->a[i] % d;
   }
}
