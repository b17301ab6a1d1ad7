#version 450
// samples: 4
// interpolateAtSample with constant and dynamic indices
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    vec4 a = interpolateAtSample(v, 2);
    vec4 b = interpolateAtSample(v, gl_SampleID ^ 1);
    o = vec4(fract(a.x * 8.0), fract(a.y * 8.0), fract(b.x * 8.0), fract(b.y * 8.0));
}
