// Exercises LDS + barriers: per-workgroup tree reduction (sum and max) in a statically sized __local array, with a bounds-checked partial last group.
#define WG 128
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void lds_reduce(__global const uint *in, __global uint *sums, __global uint *maxs, uint n)
{
    __local uint s[WG];
    __local uint m[WG];
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    uint v = gid < n ? in[gid] : 0u;
    s[lid] = v;
    m[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint stride = WG / 2u; stride > 0u; stride >>= 1) {
        if (lid < stride) {
            s[lid] += s[lid + stride];
            m[lid] = max(m[lid], m[lid + stride]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0u) {
        sums[get_group_id(0)] = s[0];
        maxs[get_group_id(0)] = m[0];
    }
}
