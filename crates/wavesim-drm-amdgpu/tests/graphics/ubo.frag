#version 450
// A uniform buffer (descriptor set 0) tints the colour; flat and smooth inputs.
layout(location = 0) in vec4 color;
layout(set = 0, binding = 0) uniform U { vec4 tint; uint mode; } u;
layout(location = 0) out vec4 outColor;
void main() {
    vec4 c = color * u.tint;
    outColor = (u.mode & 1u) != 0u ? c.bgra : c;
}
