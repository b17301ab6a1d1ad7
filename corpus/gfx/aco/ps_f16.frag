#version 450
// vs: vs_f16.vert; format: rgba32f
// A 16-bit float input (v_interp_*_f16_f32), doubled in f16: o = color * 2.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(location=0) in f16vec4 color;
layout(location=0) out vec4 o;
void main() { o = vec4(color * float16_t(2.0)); }
