#version 450
// Screen-space derivatives (quad lanes) and their magnitude.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    vec3 dx = dFdx(color) * 32.0;
    vec3 dy = dFdy(color) * 32.0;
    outColor = vec4(abs(dx.r) + abs(dy.g), fwidth(color.b) * 16.0, length(dx), 1.0);
}
