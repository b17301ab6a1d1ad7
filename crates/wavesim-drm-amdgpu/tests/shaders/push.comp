#version 450
// Push constants: a scale, an offset and a selector shape every element.
layout(local_size_x = 32, local_size_y = 2) in;
layout(push_constant) uniform P { uint scale; int offset; float fscale; uint mode; } pc;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { int b[]; };
layout(set = 0, binding = 2) buffer F { float f[]; };
void main() {
    uint i = gl_GlobalInvocationID.y * 64u + gl_GlobalInvocationID.x;
    uint x = a[i];
    b[i] = int(x * pc.scale) + pc.offset * int(gl_GlobalInvocationID.y + 1u);
    f[i] = (pc.mode == 1u) ? float(x) * pc.fscale : float(x) - pc.fscale;
}
