#version 450
// Reads the flat integer, noperspective and smooth inputs.
layout(location = 0) flat in uint id;
layout(location = 1) noperspective in vec2 uv;
layout(location = 2) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    outColor = vec4(float(id & 15u) / 15.0, uv.x * color.g, uv.y, 1.0);
}
