/* SIMD-group reductions and scans over a grid of several groups */
void wk_subgroup(global const uint *a, global uint *sum, global uint *scan, global uint *mx, uint n)
{
   uint i = get_global_id(0);
   uint v = i < n ? a[i] : 0;
   uint s = sub_group_reduce_add(v);
   uint e = sub_group_scan_exclusive_add(v);
   uint m = sub_group_reduce_max(v);
   if (i < n) {
      sum[i] = s;
      scan[i] = e;
      mx[i] = m;
   }
}
