// Exercises OpenCL 2.0 work-group collectives (lowered by the device library to LDS + sub-group code): work_group_reduce_add/min/max, broadcast, scans, any/all.
__kernel void workgroup_collectives(__global const int *in, __global int *out)
{
    uint i = get_global_id(0);
    int v = in[i];
    __global int *o = out + i * 8u;
    o[0] = work_group_reduce_add(v);
    o[1] = work_group_reduce_min(v);
    o[2] = work_group_reduce_max(v);
    o[3] = work_group_broadcast(v, 7u);
    o[4] = work_group_scan_inclusive_add(v);
    o[5] = work_group_scan_exclusive_max(v);
    o[6] = work_group_any(v == 123) != 0;
    o[7] = work_group_all(v >= -500) != 0;
}
