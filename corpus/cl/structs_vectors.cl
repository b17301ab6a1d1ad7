// Exercises structs in global memory and vector types: float4 math, int2, uchar4 (saturating ops), swizzles, vload/vstore, shuffle, convert_* on vectors.
#pragma OPENCL FP_CONTRACT OFF
typedef struct {
    float4 pos;
    float4 vel;
    int2 cell;
    uchar4 color;
    uint id;
} Particle;

__kernel void particles(__global Particle *p, float dt, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    Particle q = p[i];
    q.pos = q.pos + q.vel * dt;
    q.vel = q.vel.wzyx * (float4)(0.5f, 1.0f, -1.0f, 2.0f);
    q.cell = convert_int2_rtn(q.pos.xy) + (int2)(q.cell.y, -q.cell.x);
    q.color = add_sat(q.color, (uchar4)(200, 10, 0, 255)) ^ (uchar4)((uchar)q.id);
    q.id = q.id * 2u + 1u;
    p[i] = q;
}

__kernel void vec_ops(__global const float *a, __global const int *b, __global float *fo, __global int *io, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float4 x = vload4(i, a);
    int4 y = vload4(i, b);
    float4 r = fmax(x, (float4)(0.0f)) + convert_float4(y.yzwx) * 0.5f;
    vstore4(r, i, fo);
    int4 s = (y >> 2) * (int4)(1, -2, 3, -4) + convert_int4_rtz(x);
    int8 w = shuffle2(y, s, (uint8)(0, 4, 1, 5, 2, 6, 3, 7));
    vstore8(w, i, io);
    uchar4 c = convert_uchar4_sat(y);
    io[8u * n + i] = as_int(c.zyxw);
    float2 h = x.lo - x.hi;
    fo[4u * n + i] = h.x * h.y;
}
