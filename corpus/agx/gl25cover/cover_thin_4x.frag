#version 450
// samples: 4
// triangle: 0.5 7.25 15.75 8.5 8.25 9.0
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// a thin triangle: many partially covered pixels and quads with helpers
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.zyx, 1.0);
}
