// Exercises the f64 math library (AMD ocml): sin, cos, exp, log, pow, atan2, tanh, cbrt; one kernel per function.
#define UNARY(NAME, EXPR) \
__kernel void f64_##NAME(__global const double *a, __global double *out, uint n) \
{ \
    uint i = get_global_id(0); \
    if (i < n) { double x = a[i]; out[i] = (EXPR); } \
}
#define BINARY(NAME, EXPR) \
__kernel void f64_##NAME(__global const double *a, __global const double *b, __global double *out, uint n) \
{ \
    uint i = get_global_id(0); \
    if (i < n) { double x = a[i], y = b[i]; out[i] = (EXPR); } \
}
UNARY(sin, sin(x))
UNARY(cos, cos(x))
UNARY(exp, exp(x))
UNARY(log, log(x))
UNARY(tanh, tanh(x))
UNARY(cbrt, cbrt(x))
BINARY(pow, pow(x, y))
BINARY(atan2, atan2(x, y))
