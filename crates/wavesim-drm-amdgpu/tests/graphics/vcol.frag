#version 450
// The vertex colour (four channels from an R8G8B8A8_UNORM vertex attribute), its alpha made
// opaque where the colour is dark.
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 outColor;
void main() {
    outColor = vec4(color.rgb, dot(color.rgb, vec3(0.25)) < 0.2 ? 1.0 : color.a);
}
