#version 450
// A compute shader with a buffer device address and a count in push constants (RADV passes
// them in user SGPRs): data[i] = data[i] * 2 + i for the first n invocations.
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Data { float v[]; };
layout(push_constant) uniform PC { Data data; uint n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < pc.n)
        pc.data.v[i] = pc.data.v[i] * 2.0 + float(i);
}
