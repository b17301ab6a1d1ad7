#version 450
// triangle: 1.25 0.75 14.75 4.25 5.25 15.25
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// flat inputs from the provoking (last) vertex of a triangle that is not the full-screen one
layout(location = 0) flat in vec3 f;
layout(location = 1) in float s;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(f * s * 1.5, 1.0);
}
