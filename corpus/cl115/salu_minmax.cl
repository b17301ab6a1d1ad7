// RDNA3.5 SALU float min/max: with finite math LLVM computes uniform fmin/fmax with s_min_f32/s_max_f32 on gfx1150/gfx1151 (and uniform sums with s_add_f32, compares with s_cmp_*_f32).
// build-flags: -cl-finite-math-only
#pragma OPENCL FP_CONTRACT OFF
__kernel void salu_minmax(__global float *out, float a, float b, float c)
{
    uint i = get_global_id(0);
    float lo = fmin(a, b);
    float hi = fmax(b, c);
    out[2 * i] = lo * (float)i;
    out[2 * i + 1] = (a < c) ? hi : -hi;
}
