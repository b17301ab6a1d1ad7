#include "common.h"
struct collatz_args { global uint *start; global uint *steps; uint n; };
void libagx_helper(void)
{
   ARGS(struct collatz_args);
   for (uint i = LANE; i < args->n; i += 32) {
      uint x = args->start[i], s = 0;
      while (x != 1 && s < 1000) {
         x = (x & 1) ? 3 * x + 1 : x / 2;
         s++;
      }
      args->steps[i] = s;
   }
}
