// Exercises a naive SGEMM (C = alpha*A*B + beta*C, row-major) on a 2-D grid with bounds checks; inner loop is a contracted multiply-add.
__kernel void sgemm_naive(__global const float *A, __global const float *B, __global float *C,
                          uint M, uint N, uint K, float alpha, float beta)
{
    uint col = get_global_id(0);
    uint row = get_global_id(1);
    if (row >= M || col >= N)
        return;
    float acc = 0.0f;
    for (uint k = 0; k < K; k++)
        acc += A[row * K + k] * B[k * N + col];
    C[row * N + col] = alpha * acc + beta * C[row * N + col];
}
