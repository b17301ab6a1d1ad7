// RDNA3.5 SALU f16 conversions: uniform half kernel arguments widened to float (s_cvt_f32_f16, s_cvt_hi_f32_f16 for the high half of a half2) on gfx1150/gfx1151. Model reference (PoCL has no cl_khr_fp16).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void salu_f16cvt(__global float *out, half h, half2 hv, float a)
{
    uint i = get_global_id(0);
    float hf = (float)h;
    float lo = (float)hv.x;
    float hi = (float)hv.y;
    out[4 * i] = hf * a;
    out[4 * i + 1] = lo + hi;
    out[4 * i + 2] = hi - (float)i;
    out[4 * i + 3] = (hf < hi) ? lo : hi;
}
