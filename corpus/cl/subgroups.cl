// Exercises cl_khr_subgroups (wave-level DPP/permlane code): sub_group_reduce_add/min/max, broadcast, inclusive/exclusive scans, any/all and the sub-group ids. Results depend on the wave size.
#pragma OPENCL EXTENSION cl_khr_subgroups : enable
__kernel void subgroups(__global const int *in, __global int *out)
{
    uint i = get_global_id(0);
    int v = in[i];
    __global int *o = out + i * 12u;
    o[0] = sub_group_reduce_add(v);
    o[1] = sub_group_reduce_min(v);
    o[2] = sub_group_reduce_max(v);
    o[3] = sub_group_broadcast(v, 5u);
    o[4] = sub_group_scan_inclusive_add(v);
    o[5] = sub_group_scan_exclusive_add(v);
    o[6] = sub_group_scan_inclusive_max(v);
    o[7] = sub_group_any(v > 900) != 0;
    o[8] = sub_group_all(v > -1000) != 0;
    o[9] = (int)get_sub_group_local_id();
    o[10] = (int)get_sub_group_id();
    o[11] = (int)(get_sub_group_size() * 1000u + get_num_sub_groups());
}
