#version 450
// samples: 4
// triangle: 3.375 2.125 3.375 12.625 13.875 2.125
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// a clockwise (back-facing) triangle: gl_FrontFacing false, and the fill rule for the other
// winding
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() {
    o = gl_FrontFacing ? c : vec4(1.0) - c;
}
