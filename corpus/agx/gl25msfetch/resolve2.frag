#version 450
// ms_samples: 2
// The resolve of a 2-sample texture: the mean of both samples of texel (x mod 4, y mod 4).
layout(binding = 0) uniform sampler2DMS t;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) & 3;
    o = (texelFetch(t, p, 0) + texelFetch(t, p, 1)) * 0.5;
}
