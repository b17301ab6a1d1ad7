#version 450
// Flat vector inputs (the provoking vertex's value, coefficient C).
layout(location = 0) flat in vec3 f;
layout(location = 1) in float s;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(f * s * 1.5, 1.0);
}
