#version 450
// samples: 4
// triangle: 3.375 2.125 13.875 2.125 3.375 12.625
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// interpolateAtSample at partially covered pixels (positions outside the triangle too)
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    vec4 a = interpolateAtSample(v, 3);
    vec4 b = interpolateAtSample(v, gl_SampleID ^ 2);
    o = vec4(fract(a.x * 8.0), fract(a.y * 8.0), fract(b.x * 8.0), fract(b.y * 8.0));
}
