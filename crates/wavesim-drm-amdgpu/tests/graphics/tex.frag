#version 450
// Samples a texture at a coordinate from the colour, with a bias and a second, explicit-LOD
// fetch.
layout(location = 0) in vec3 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 outColor;
void main() {
    vec4 a = texture(tex, color.rg, 0.5);
    vec4 b = textureLod(tex, color.gb * 2.0 - 0.5, 0.0);
    outColor = mix(a, b, color.b) + texelFetch(tex, ivec2(3, 5), 0) * 0.125;
}
