/* Byte loads and stores with an 8-bit argument */
void wk_bytes(global const uchar *in, global uchar *out, uchar key, uint n)
{
   uint i = get_global_id(0);
   if (i < n) {
      uchar c = in[i];
      out[i] = (c >= 'a' && c <= 'z') ? (uchar)(c - 32) : (uchar)(c ^ key);
   }
}
