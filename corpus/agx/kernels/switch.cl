/* A switch on data plus an argument (divergent control flow) */
void wk_switch(global const uint *a, global uint *out, uint k, uint n)
{
   uint i = get_global_id(0);
   if (i >= n)
      return;
   uint v = a[i], r;
   switch ((v + k) % 6) {
   case 0: r = v * 7; break;
   case 1: r = v + 100; break;
   case 2: r = v ^ 0x5555; break;
   case 3: r = v >> 2; break;
   default: r = 42 + k;
   }
   out[i] = r;
}
