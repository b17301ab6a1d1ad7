// Exercises the f32 math library (AMD ocml): sin, cos, tan, exp, exp2, log, log2, pow, sqrt, rsqrt, division, tanh, atan2, cbrt; one kernel per function.
#define UNARY(NAME, EXPR) \
__kernel void f32_##NAME(__global const float *a, __global float *out, uint n) \
{ \
    uint i = get_global_id(0); \
    if (i < n) { float x = a[i]; out[i] = (EXPR); } \
}
#define BINARY(NAME, EXPR) \
__kernel void f32_##NAME(__global const float *a, __global const float *b, __global float *out, uint n) \
{ \
    uint i = get_global_id(0); \
    if (i < n) { float x = a[i], y = b[i]; out[i] = (EXPR); } \
}
UNARY(sin, sin(x))
UNARY(cos, cos(x))
UNARY(tan, tan(x))
UNARY(exp, exp(x))
UNARY(exp2, exp2(x))
UNARY(log, log(x))
UNARY(log2, log2(x))
UNARY(sqrt, sqrt(x))
UNARY(rsqrt, rsqrt(x))
UNARY(tanh, tanh(x))
UNARY(cbrt, cbrt(x))
BINARY(pow, pow(x, y))
BINARY(div, x / y)
BINARY(atan2, atan2(x, y))
