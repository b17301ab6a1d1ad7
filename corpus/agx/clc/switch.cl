#include "common.h"
struct switch_args { global uint *a; global uint *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct switch_args);
   for (uint i = LANE; i < args->n; i += 32) {
      uint v = args->a[i], r;
      switch (v % 6) {
      case 0: r = v * 7; break;
      case 1: r = v + 100; break;
      case 2: r = v ^ 0x5555; break;
      case 3: r = v >> 2; break;
      default: r = 42;
      }
      args->out[i] = r;
   }
}
