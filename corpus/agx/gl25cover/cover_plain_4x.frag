#version 450
// samples: 4
// triangle: 3.375 2.125 13.875 2.125 3.375 12.625
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// a smooth colour over a triangle whose edges pass through sample 0 of many pixels (top-left)
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xyz, 0.5);
}
