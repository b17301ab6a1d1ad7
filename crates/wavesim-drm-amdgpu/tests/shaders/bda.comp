#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// A raw device address from push constants (VK_KHR_buffer_device_address): each invocation
// reads the word at `ptr + 4 * i` and stores it doubled through a second pointer. With the
// pointer aimed outside every allocation, a GPU page-faults; the shim's sandbox reports it.
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Words { uint w[]; };
layout(push_constant) uniform P { Words src; Words dst; } pc;
layout(set = 0, binding = 0) buffer A { uint a[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    pc.dst.w[i] = pc.src.w[i] * 2u + a[i];
}
