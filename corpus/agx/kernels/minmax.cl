/* Signed compares and selects against a signed argument */
void wk_minmax(global const int *a, global const int *b, global int *out, int bias, uint n)
{
   uint i = get_global_id(0);
   if (i < n) {
      int x = a[i], y = b[i];
      out[i] = (x < y ? y - x : x - y) + max(x, y) * 2 - min(x, bias) + (x > bias ? 7 : -3);
   }
}
