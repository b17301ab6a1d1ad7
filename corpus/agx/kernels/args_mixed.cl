/* Every argument kind: pointer, 8/16/32/64-bit integers and a float, in an order that needs padding */
void wk_args_mixed(global ulong *out, uchar a, ushort b, uint c, ulong d, float e, ushort f, uint n)
{
   uint i = get_global_id(0);
   if (i < n)
      out[i] = d + (ulong)i * c + (ulong)(a * 1000u + b) + ((ulong)f << 48) + (ulong)(int)(e * (float)i);
}
