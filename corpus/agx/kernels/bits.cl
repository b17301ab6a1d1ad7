/* Bit operations: popcount, rotate by an argument, clz, shifts, masks */
void wk_bits(global const uint *a, global uint *out, uint n, uint rot)
{
   uint i = get_global_id(0);
   if (i < n) {
      uint v = a[i];
      out[i] = popcount(v) ^ rotate(v, rot) ^ (clz(v) << 24) ^ ((v & 0xff00) << 8) ^ (v >> (rot & 7));
   }
}
