/* out[i] = a[i] + b[i] * scale (a 16-bit argument followed by a 32-bit one: padding) */
void wk_vadd_scaled(global const uint *a, global const uint *b, global uint *out, ushort scale,
                    uint n)
{
   uint i = get_global_id(0);
   if (i < n)
      out[i] = a[i] + b[i] * scale;
}
