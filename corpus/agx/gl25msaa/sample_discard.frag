#version 450
// samples: 4
// discard of one sample under sample shading: that sample keeps the clear colour
// approximate
// (Mesa's gallium driver tests every sample in each pass of the sample loop, which Mesa's own
// sample_mask rules forbid: the opt-in computes GL's per-sample discard, exec/coverage.rs)
// clear: 0.2 0.4 0.6 0.8
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (gl_SampleID == ((p.x + p.y) & 3))
        discard;
    o = vec4(v.x, v.y, float(gl_SampleID) / 4.0, 1.0);
}
