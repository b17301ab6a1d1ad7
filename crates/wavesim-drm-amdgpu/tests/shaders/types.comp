#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
// 64-bit integers and floats, 16-bit integers and halves in storage and arithmetic.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer Q { uint64_t q[]; };
layout(set = 0, binding = 2) buffer D { double d[]; };
layout(set = 0, binding = 3) buffer H { uint16_t h[]; };
layout(set = 0, binding = 4) buffer HF { float16_t hf[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint64_t w = uint64_t(x) * 0x9E3779B97F4A7C15ul + (uint64_t(i) << 40);
    q[i] = w ^ (w >> 29);
    // Only exactly defined double operations (no division or sqrt: approximate in Vulkan).
    precise double dx = double(x);
    precise double dd = dx * 0.3333333333333333lf + double(i) * double(i) - 0.25lf;
    d[i] = dd;
    uint16_t s = uint16_t(x) * uint16_t(7) + uint16_t(i);
    h[i] = s >> 1;
    precise float16_t hx = float16_t(x & 0x3ffu);
    precise float16_t hh = hx * float16_t(0.125) + float16_t(i);
    hf[i] = hh;
}
