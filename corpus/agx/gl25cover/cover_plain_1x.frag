#version 450
// triangle: 2.5 1.5 13.5 1.5 2.5 12.5
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// a smooth colour over a triangle whose edges pass through pixel centres (ties: top-left)
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xyz, 0.5);
}
