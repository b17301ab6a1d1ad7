#include "common.h"
struct bytes_args { global uchar *in; global uchar *out; uint n; };
void libagx_helper(void)
{
   ARGS(struct bytes_args);
   for (uint i = LANE; i < args->n; i += 32) {
      uchar c = args->in[i];
      args->out[i] = (c >= 'a' && c <= 'z') ? (uchar)(c - 32) : (uchar)(c ^ 0x20);
   }
}
