#version 450
// vs: vs.vert; format: rgba32f
// Interpolated colour and uv: o = color * uv.x + uv.y.
layout(location=0) in vec4 color;
layout(location=1) in vec2 uv;
layout(location=0) out vec4 o;
void main() { o = color * uv.x + vec4(uv.y); }
