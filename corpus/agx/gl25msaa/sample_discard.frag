#version 450
// samples: 4
// discard of one sample under sample shading: that sample keeps the clear colour
// clear: 0.2 0.4 0.6 0.8
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    if (gl_SampleID == ((p.x + p.y) & 3))
        discard;
    o = vec4(v.x, v.y, float(gl_SampleID) / 4.0, 1.0);
}
