#version 450
// triangle: 2.5 1.5 13.5 1.5 2.5 12.5
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// gl_FragDepth over a triangle: pixels outside keep the cleared depth
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xyz, 1.0);
    gl_FragDepth = v.y * 0.5 + 0.125;
}
