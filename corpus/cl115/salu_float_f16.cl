// RDNA3.5 SALU float, f16: uniform half math that LLVM keeps in SGPRs on gfx1150/gfx1151 (s_add/sub/mul/fmac_f16, s_floor/ceil/trunc/rndne_f16, s_cvt_f16_f32, s_cmp_*_f16). Separate from salu_float.cl because PoCL (the f32 reference) has no cl_khr_fp16.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// No contraction: every fused multiply-add is an explicit fma().
#pragma OPENCL FP_CONTRACT OFF
__kernel void salu_f16(__global half *out, half a, half b, half c, float f)
{
    uint i = get_global_id(0);
    half s0 = a + b;
    half s1 = a * c - b;
    half s2 = fma(a, b, c);
    half s3 = fmin(a, b);
    half s4 = fmax(b, c);
    half s5 = floor(a) + ceil(c) + trunc(b) + rint(c);
    half s6 = (half)f;
    float s7 = (float)a * f;
    half s8 = (a < c) ? a : c;
    half s9 = (b == c) ? (half)1.0h : (half)2.0h;
    __global half *o = out + i * 12u;
    o[0] = s0 + (half)i;
    o[1] = s1;
    o[2] = s2;
    o[3] = s3;
    o[4] = s4;
    o[5] = s5;
    o[6] = s6;
    o[7] = (half)s7;
    o[8] = s8;
    o[9] = s9;
    o[10] = (half)((float)s0 + (float)s2);
    o[11] = (half)(i & 3u) * s0;
}

