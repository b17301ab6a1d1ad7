#version 450
// The resolve a gallium blit does: the mean of the 4 samples of texel (x mod 4, y mod 4).
layout(binding = 0) uniform sampler2DMS t;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) & 3;
    vec4 sum = vec4(0.0);
    for (int s = 0; s < 4; s++)
        sum += texelFetch(t, p, s);
    o = sum * 0.25;
}
