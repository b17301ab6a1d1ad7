// RDNA3.5 SALU float compares: uniform ordered/unordered f32 comparisons (NaN inputs included) that LLVM computes with s_cmp_*_f32 (s_cmp_nge/nlt/u/o/lg/...) on gfx1150/gfx1151.
#pragma OPENCL FP_CONTRACT OFF
__kernel void salu_cmp(__global int *out, float a, float b)
{
    uint i = get_global_id(0);
    int r = 0;
    r |= (a < b) << 0;
    r |= (a <= b) << 1;
    r |= (a > b) << 2;
    r |= (a >= b) << 3;
    r |= (a == b) << 4;
    r |= (a != b) << 5;
    r |= !(a < b) << 6;
    r |= !(a >= b) << 7;
    r |= !(a > b) << 8;
    r |= !(a <= b) << 9;
    r |= isunordered(a, b) << 10;
    r |= isordered(a, b) << 11;
    r |= islessgreater(a, b) << 12;
    out[i] = r + (int)i * 0x10000;
}
