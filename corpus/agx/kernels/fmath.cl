/* Exactly rounded float ops: floor, ceil, fabs, fmin/fmax, clamp to [lo, hi] */
void wk_fmath(global const float *a, global float *out, float lo, float hi, uint n)
{
   uint i = get_global_id(0);
   if (i < n) {
      float x = a[i];
      out[i] = floor(x) + ceil(x * 0.25f) + fabs(x) * 0.5f + fmin(x, hi) + fmax(x, lo);
   }
}
