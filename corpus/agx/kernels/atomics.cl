/* Device atomics: histogram over a bucket count argument, and a global minimum */
void wk_atomics(global const uint *keys, global uint *hist, global int *minv, uint buckets, uint n)
{
   uint i = get_global_id(0);
   if (i < n) {
      uint k = keys[i];
      atomic_add(&hist[k % buckets], 1u);
      atomic_min(minv, (int)k - 1000);
   }
}
