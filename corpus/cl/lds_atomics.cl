// Exercises atomics on __local memory: atomic_add/sub/inc/dec/min/max (signed and unsigned)/and/or/xor/xchg/cmpxchg, then one lane per group publishes the results.
__kernel void lds_atomics(__global const uint *in, __global uint *out, uint n)
{
    __local uint u[10];
    __local int s[2];
    __local uint hist[16];
    uint lid = get_local_id(0);
    uint gid = get_global_id(0);
    if (lid == 0u) {
        u[0] = 0u; u[1] = 0xffffffffu; u[2] = 0u; u[3] = 0u; u[4] = 0xffffffffu;
        u[5] = 0u; u[6] = 0u; u[7] = 1000000u; u[8] = 0u; u[9] = 0u;
        s[0] = 0x7fffffff; s[1] = (int)0x80000000;
    }
    if (lid < 16u)
        hist[lid] = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (gid < n) {
        uint v = in[gid];
        atomic_add(&u[0], v);
        atomic_min(&u[1], v);
        atomic_max(&u[2], v);
        atomic_or(&u[3], v & 0x00ff00ffu);
        atomic_and(&u[4], v | 0x0f0f0f0fu);
        atomic_xor(&u[5], v);
        atomic_inc(&u[6]);
        atomic_sub(&u[7], v & 0xffu);
        atomic_min(&s[0], (int)v);
        atomic_max(&s[1], (int)v);
        atomic_inc(&hist[v & 15u]);
        /* CAS loop: track the maximum of (v >> 8) using cmpxchg */
        uint want = v >> 8;
        uint old = u[8];
        while (want > old) {
            uint prev = atomic_cmpxchg(&u[8], old, want);
            if (prev == old)
                break;
            old = prev;
        }
        /* xchg: sum of (previous value + 1) over all exchanges of the same constant is order independent */
        uint prevx = atomic_xchg(&u[9], 7u);
        atomic_add(&hist[(prevx == 7u) ? 0u : 1u], 0u);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    __global uint *o = out + get_group_id(0) * 28u;
    if (lid < 10u)
        o[lid] = u[lid];
    else if (lid < 12u)
        o[lid] = (uint)s[lid - 10u];
    else if (lid < 28u)
        o[lid] = hist[lid - 12u];
}
