#version 450
// The vertex shader of ps_flat_coord.frag: a flat output next to an interpolated one.
layout(location=0) in vec4 pos;
layout(location=1) in vec4 col;
layout(location=0) flat out vec4 vcol;
layout(location=1) out vec2 vuv;
void main() { gl_Position = pos; vcol = col; vuv = pos.xy; }
