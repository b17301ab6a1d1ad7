/* 64-bit multiply-add and shifts with 64-bit arguments */
void wk_i64(global const ulong *a, global ulong *out, ulong mul, ulong add, uint n)
{
   uint i = get_global_id(0);
   if (i < n)
      out[i] = a[i] * mul + add + (a[i] >> 7) + ((ulong)i << 36);
}
