#version 450
// samples: 2
// triangle: 1.25 0.75 14.75 4.25 5.25 15.25
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// a smooth colour over a triangle with partially covered pixels at 2 samples
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xyz, 0.5);
}
