#version 450
// The vertex shader the pixel shaders are linked with (its outputs decide their input slots).
layout(location=0) in vec4 pos;
layout(location=1) in vec4 col;
layout(location=0) out vec4 vcol;
layout(location=1) out vec2 vuv;
void main() { gl_Position = pos; vcol = col; vuv = pos.xy; }
