/* y[i] = a * x[i] + y[i] for i < n (a float argument between two pointers and a count) */
void wk_saxpy(global const float *x, global float *y, float a, uint n)
{
   uint i = get_global_id(0);
   if (i < n)
      y[i] = a * x[i] + y[i];
}
