// Exercises global-memory atomics: add/sub/inc/dec/min/max (signed+unsigned)/and/or/xor with order-independent results, xchg on private slots, cmpxchg claims and a CAS-loop float max.
__kernel void global_atomics(__global const uint *in, __global uint *acc, __global int *sacc, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint v = in[i];
    atomic_add(&acc[0], v);
    atomic_sub(&acc[1], v >> 4);
    atomic_inc(&acc[2]);
    atomic_dec(&acc[3]);
    atomic_min(&acc[4], v);
    atomic_max(&acc[5], v);
    atomic_and(&acc[6], v | 0x11111111u);
    atomic_or(&acc[7], v & 0x88888888u);
    atomic_xor(&acc[8], v);
    atomic_min(&sacc[0], (int)v);
    atomic_max(&sacc[1], (int)v);
    atomic_add(&sacc[2], (int)v >> 12);
}

__kernel void atomic_xchg_cmpxchg(__global const uint *in, __global uint *slots, __global uint *olds,
                                  __global uint *owner, __global uint *wins, __global float *fmaxv, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint v = in[i];
    /* each work-item owns slot i: the returned old value is deterministic */
    olds[i] = atomic_xchg(&slots[i], v);
    /* many work-items race to claim bucket b: exactly one cmpxchg succeeds per touched bucket */
    uint b = v & 63u;
    uint prev = atomic_cmpxchg(&owner[b], 0u, 1u);
    atomic_add(&wins[b], prev == 0u ? 1u : 0u);
    /* float max implemented with a compare-and-swap loop on the bit pattern */
    float f = (float)(v & 0xffffu) * 0.125f - 1000.0f;
    __global volatile uint *fp = (__global volatile uint *)&fmaxv[b];
    uint cur = *fp;
    while (as_float(cur) < f) {
        uint got = atomic_cmpxchg(fp, cur, as_uint(f));
        if (got == cur)
            break;
        cur = got;
    }
}
