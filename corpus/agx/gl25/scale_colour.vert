#version 450
// Position scaled, a colour doubled, a dot product of two attributes.
layout(location = 0) in vec4 pos;
layout(location = 1) in vec3 col;
layout(location = 0) out vec4 c;
layout(location = 1) out float s;
void main() {
    gl_Position = vec4(pos.xy * 0.5, pos.z, 1.0);
    c = vec4(col * 2.0, pos.w);
    s = dot(col, pos.xyz);
}
