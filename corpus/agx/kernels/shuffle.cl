/* Shuffles with a lane mask and a rotation taken from arguments */
void wk_shuffle(global const uint *a, global uint *out, uint mask, uint step, uint n)
{
   uint i = get_global_id(0);
   uint lane = get_sub_group_local_id();
   uint v = i < n ? a[i] : 0;
   uint x = intel_sub_group_shuffle_xor(v, mask);
   uint r = intel_sub_group_shuffle(v, (lane + step) & 31);
   if (i < n)
      out[i] = x * 3 + r;
}
