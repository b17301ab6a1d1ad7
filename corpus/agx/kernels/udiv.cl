/* Unsigned division and remainder by a runtime divisor (the compiler's division sequence) */
void wk_udiv(global const uint *a, global uint *quot, global uint *rem, uint d, uint n)
{
   uint i = get_global_id(0);
   if (i < n) {
      uint dd = d + i;
      quot[i] = a[i] / dd;
      rem[i] = a[i] % dd;
   }
}
