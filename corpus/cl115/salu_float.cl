// RDNA3.5 SALU float: uniform (kernel-argument and loop-counter) f32 math that LLVM keeps in SGPRs on gfx1150/gfx1151 (s_add/sub/mul/fmac/fmamk/fmaak_f32, s_cvt_*, s_ceil/floor/trunc/rndne_f32, s_cmp_*_f32).
// No contraction: every fused multiply-add is an explicit fma() (PoCL and the model agree on it).
#pragma OPENCL FP_CONTRACT OFF
__kernel void salu_f32(__global float *out, float a, float b, float c, int n, uint u)
{
    uint i = get_global_id(0);
    // Every value below is the same in all lanes: LLVM computes it with SALU float ops.
    float s0 = a + b;
    float s1 = a - c;
    float s2 = a * b;
    float s3 = fma(a, b, c);
    float s4 = fma(a, 3.0f, c);
    float s5 = fma(a, b, 0.75f);
    float s6 = fmin(a, c);
    float s7 = fmax(b, c);
    float s8 = floor(a) + ceil(b) + trunc(c) + rint(a * 0.5f);
    float s9 = (float)n + (float)u;
    int k = (int)s3 + (int)(uint)fabs(s2);
    float s10 = (a < b) ? s0 : s1;
    float s11 = (c >= a) ? s2 : s4;
    float s12 = isnan(a * c) ? 1.0f : 0.0f;
    __global float *o = out + i * 16u;
    float li = (float)i;
    o[0] = s0 + li;
    o[1] = s1 - li;
    o[2] = s2 * li;
    o[3] = s3;
    o[4] = s4;
    o[5] = s5 + li;
    o[6] = s6;
    o[7] = s7;
    o[8] = s8;
    o[9] = s9;
    o[10] = (float)k;
    o[11] = s10;
    o[12] = s11;
    o[13] = s12;
    o[14] = (float)(uint)(a * 1000.0f);
    o[15] = (float)(int)(c * -100.0f);
}

// A uniform loop: the running value and the trip count live in SGPRs.
__kernel void salu_loop(__global float *out, float x0, float step, int iters)
{
    float x = x0;
    float acc = 0.0f;
    for (int k = 0; k < iters; ++k) {
        acc = fma(x, step, acc);
        x = fma(x, 0.5f, step);
        if (acc > 1000.0f)
            acc = acc - 1000.0f;
    }
    uint i = get_global_id(0);
    out[i] = acc + x * (float)i;
}
