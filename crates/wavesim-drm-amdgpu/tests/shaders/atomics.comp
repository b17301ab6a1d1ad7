#version 450
// Global and shared atomics: every invocation adds to counters and races for maxima; the
// final values do not depend on the order invocations run in (workgroups run on several host
// threads): the compare-swap targets the invocation's own element, so it always succeeds.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer C { uint counters[8]; int smax; int smin; uint hist[16]; };
shared uint lsum;
void main() {
    uint g = gl_GlobalInvocationID.x;
    if (gl_LocalInvocationID.x == 0u) lsum = 0u;
    barrier();
    uint v = a[g];
    atomicAdd(lsum, v & 0xffu);
    atomicAdd(counters[0], 1u);
    atomicAdd(counters[1], v);
    atomicOr(counters[2], 1u << (v & 31u));
    atomicAnd(counters[3], ~(1u << (g & 31u)));
    atomicXor(counters[4], v);
    atomicMax(smax, int(v) - 1000);
    atomicMin(smin, int(v) - 1000);
    atomicAdd(hist[v & 15u], 1u);
    uint prev = atomicCompSwap(a[g], v, v + 1u);
    atomicAdd(counters[5], prev == v ? 1u : 0u);
    barrier();
    if (gl_LocalInvocationID.x == 0u) atomicAdd(counters[6], lsum);
    atomicExchange(counters[7], 7u);
}
