// Exercises a kernel taking a __local pointer argument (size chosen at dispatch): work-group inclusive prefix sum (Hillis-Steele, double-buffered) plus block totals.
__kernel void local_arg_scan(__global const uint *in, __global uint *out, __global uint *block_sums, __local uint *tmp, uint n)
{
    uint lid = get_local_id(0);
    uint lsz = get_local_size(0);
    uint gid = get_global_id(0);
    __local uint *src = tmp;
    __local uint *dst = tmp + lsz;
    src[lid] = gid < n ? in[gid] : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1u; off < lsz; off <<= 1) {
        uint v = src[lid];
        if (lid >= off)
            v += src[lid - off];
        dst[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        __local uint *t = src;
        src = dst;
        dst = t;
    }
    if (gid < n)
        out[gid] = src[lid];
    if (lid == lsz - 1u)
        block_sums[get_group_id(0)] = src[lid];
}
