// Exercises divergent control flow: if/else on lane id, nested branches, data-dependent loop trip counts (Collatz), early return, switch, break/continue.
__kernel void branchy(__global const int *in, __global int *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint lid = get_local_id(0);
    int v = in[i];
    int r;
    if (lid & 1u) {
        if (v > 0)
            r = v * 3;
        else
            r = -v + 7;
    } else if ((lid & 6u) == 4u) {
        r = v ^ 0x5a5a;
    } else {
        r = v - (int)lid;
        if (r < 0)
            r = r * r;
    }
    switch (v & 7) {
    case 0: r += 100; break;
    case 1: r -= 3;
    case 2: r *= 2; break;
    case 5: r = ~r; break;
    default: r ^= 1; break;
    }
    out[i] = r;
}

__kernel void collatz(__global const uint *in, __global uint *steps, __global uint *peak, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    ulong x = in[i];
    uint s = 0u;
    ulong p = x;
    while (x != 1ul && s < 1000u) {
        x = (x & 1ul) ? 3ul * x + 1ul : x >> 1;
        p = max(p, x);
        s++;
    }
    steps[i] = s;
    peak[i] = (uint)min(p, (ulong)0xffffffffu);
}

__kernel void early_exit(__global const int *in, __global int *out, uint n, int limit)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    int acc = 0;
    out[i] = -1;
    for (int k = 0; k < 64; k++) {
        int v = in[(i + (uint)k) % n];
        if (v == 0)
            continue;
        if (v < -900) {
            out[i] = -1000 - k;
            return;
        }
        acc += v;
        if (acc > limit)
            break;
    }
    out[i] = acc;
}
