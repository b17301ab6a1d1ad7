// Exercises histograms with atomics: direct global atomic_inc into 256 bins, and an LDS-privatised histogram merged with global atomic_add.
__kernel void histogram_global(__global const uchar *data, __global uint *bins, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        atomic_inc(&bins[data[i]]);
}

__kernel void histogram_local(__global const uchar *data, __global uint *bins, uint n)
{
    __local uint lh[256];
    uint lid = get_local_id(0);
    uint lsz = get_local_size(0);
    for (uint b = lid; b < 256u; b += lsz)
        lh[b] = 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    /* grid-stride loop: each work-item handles several bytes */
    for (uint i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_add(&lh[data[i]], 1u);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < 256u; b += lsz) {
        uint c = lh[b];
        if (c != 0u)
            atomic_add(&bins[b], c);
    }
}
