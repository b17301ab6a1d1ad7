// Exercises an LDS-tiled SGEMM (16x16 tiles, zero-padded edge tiles, two barriers per K step) on a 2-D grid.
#define TS 16
__kernel __attribute__((reqd_work_group_size(TS, TS, 1)))
void sgemm_tiled(__global const float *A, __global const float *B, __global float *C, uint M, uint N, uint K)
{
    __local float As[TS][TS];
    __local float Bs[TS][TS];
    uint tx = get_local_id(0), ty = get_local_id(1);
    uint col = get_group_id(0) * TS + tx;
    uint row = get_group_id(1) * TS + ty;
    float acc = 0.0f;
    for (uint t = 0; t < K; t += TS) {
        uint ka = t + tx, kb = t + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < TS; k++)
            acc = fma(As[ty][k], Bs[k][tx], acc);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}
