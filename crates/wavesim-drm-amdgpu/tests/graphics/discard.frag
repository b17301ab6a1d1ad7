#version 450
// Discards a checkerboard of 4x4 pixel blocks; the rest gets a colour from the position.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy) >> 2;
    if (((p.x ^ p.y) & 1) != 0)
        discard;
    outColor = vec4(color.rg, fract(gl_FragCoord.x / 7.0), 1.0);
}
