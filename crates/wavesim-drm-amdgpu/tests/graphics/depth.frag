#version 450
// Writes gl_FragDepth (the depth export) besides the colour.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    gl_FragDepth = clamp(color.r * 0.5 + gl_FragCoord.y / 128.0, 0.0, 1.0);
    outColor = vec4(color, 1.0);
}
