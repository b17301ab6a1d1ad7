// Exercises 1-3-D work-item functions: get_global_id/local_id/group_id/local_size/enqueued_local_size/num_groups/global_size/global_offset/work_dim (incl. non-uniform last groups).
__kernel void grid_ids(__global uint *out)
{
    uint gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
    uint ox = gx - get_global_offset(0), oy = gy - get_global_offset(1), oz = gz - get_global_offset(2);
    uint lin = (oz * get_global_size(1) + oy) * get_global_size(0) + ox;
    __global uint *o = out + lin * 20u;
    o[0] = gx; o[1] = gy; o[2] = gz;
    o[3] = get_local_id(0); o[4] = get_local_id(1); o[5] = get_local_id(2);
    o[6] = get_group_id(0); o[7] = get_group_id(1); o[8] = get_group_id(2);
    o[9] = get_local_size(0); o[10] = get_local_size(1); o[11] = get_local_size(2);
    o[12] = get_num_groups(0) | (get_num_groups(1) << 8) | (get_num_groups(2) << 16);
    o[13] = get_global_size(0) | (get_global_size(1) << 8) | (get_global_size(2) << 16);
    o[14] = get_global_offset(0) | (get_global_offset(1) << 8) | (get_global_offset(2) << 16);
    o[15] = get_work_dim();
    o[16] = get_enqueued_local_size(0) | (get_enqueued_local_size(1) << 8) | (get_enqueued_local_size(2) << 16);
    o[17] = get_local_linear_id();
    o[18] = get_global_linear_id();
    o[19] = 0xC0FFEEu;
}
