/* 16-bit integer arithmetic with 16-bit arguments */
void wk_short16(global const ushort *a, global ushort *out, ushort mul, ushort add, uint n)
{
   uint i = get_global_id(0);
   if (i < n) {
      ushort x = a[i];
      out[i] = (ushort)(x * mul + add + (x >> 2) - (x & 0x0f0f));
   }
}
