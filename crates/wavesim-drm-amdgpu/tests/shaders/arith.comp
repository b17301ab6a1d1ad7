#version 450
// Integer and float arithmetic on 64x4 elements. Only operations whose result Vulkan
// defines exactly (integer ops, float add/sub/mul correctly rounded, conversions; `precise`
// forbids contracting a*b+c into an fma) so lavapipe and RADV must agree bit for bit:
// division (2.5 ULP) and sqrt are implementation-approximate in Vulkan.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
layout(set = 0, binding = 2) buffer F { float f[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    b[i] = x * 3u + i + (x >> 3) ^ (x << 5);
    precise float y = float(x);
    precise float t = y * 0.5 + y * 0.142857;
    f[i] = t - float(int(i) - 100) * 1.25;
}
