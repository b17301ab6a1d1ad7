#version 450
// samples: 4
// gl_FragDepth under sample shading: each pass of the linked sample loop emits its own sample's
// depth (zs_emit masked with r1l)
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xy, float(gl_SampleID) / 4.0, 1.0);
    gl_FragDepth = v.x * 0.5 + float(gl_SampleID) * 0.125;
}
