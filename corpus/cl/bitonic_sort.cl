// Exercises an LDS bitonic sort of 256 keys per work-group (nested data-independent loops, barriers, compare-exchange with XOR partner lanes).
#define N 256
__kernel __attribute__((reqd_work_group_size(N / 2, 1, 1)))
void bitonic_sort(__global uint *data)
{
    __local uint s[N];
    uint lid = get_local_id(0);
    __global uint *d = data + get_group_id(0) * N;
    s[lid] = d[lid];
    s[lid + N / 2] = d[lid + N / 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    #pragma unroll 1
    for (uint k = 2u; k <= N; k <<= 1) {
        #pragma unroll 1
        for (uint j = k >> 1; j > 0u; j >>= 1) {
            for (uint t = lid; t < N; t += N / 2) {
                uint p = t ^ j;
                if (p > t) {
                    uint a = s[t], b = s[p];
                    bool up = (t & k) == 0u;
                    if ((a > b) == up) {
                        s[t] = b;
                        s[p] = a;
                    }
                }
            }
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    d[lid] = s[lid];
    d[lid + N / 2] = s[lid + N / 2];
}
