// wavesim example: y = a*x + y over n floats (a grid may be larger than n: extra work-items idle).
__kernel void saxpy(uint n, float a, __global const float *x, __global float *y)
{
    uint i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
