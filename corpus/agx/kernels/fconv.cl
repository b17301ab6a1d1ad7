/* int -> float -> int conversions with a float scale argument */
void wk_fconv(global const int *a, global float *f, global int *back, float scale, uint n)
{
   uint i = get_global_id(0);
   if (i < n) {
      float v = (float)a[i] * scale + 0.25f;
      f[i] = v;
      back[i] = (int)(v * 3.0f);
   }
}
