#version 450
// vs: vs_flat.vert; format: rgba8
// A flat input, gl_FragCoord and an interpolated input; an RGBA8 target (16-bit exports).
layout(location=0) flat in vec4 color;
layout(location=1) in vec2 uv;
layout(location=0) out vec4 o;
void main() { o = vec4(color.xy * gl_FragCoord.x, color.z + gl_FragCoord.y, uv.y); }
