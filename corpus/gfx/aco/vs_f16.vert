#version 450
// The vertex shader of ps_f16.frag: a 16-bit float output.
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(location=0) in vec4 pos;
layout(location=1) in vec4 col;
layout(location=0) out f16vec4 vcol;
void main() { gl_Position = pos; vcol = f16vec4(col); }
