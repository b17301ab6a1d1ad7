#version 450
// One sample per pixel, chosen by the pixel: sample (x + y) mod 4 of texel (x mod 4, y mod 4).
layout(binding = 0) uniform sampler2DMS t;
layout(location = 0) out vec4 o;
void main() {
    ivec2 q = ivec2(gl_FragCoord.xy);
    o = texelFetch(t, q & 3, (q.x + q.y) & 3);
}
