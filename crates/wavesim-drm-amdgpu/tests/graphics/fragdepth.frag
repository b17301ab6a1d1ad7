#version 450
// Exports gl_FragDepth = x / 64 x 1.5 - 0.25 (x = gl_FragCoord.x): -0.24 to 1.24 across a
// 64-pixel target, every value exact in f32 ((6 px - 61) / 256), so the DB's clamp to the
// viewport's [0, 1] shows at both ends (tests/radv_depth.rs).
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    gl_FragDepth = gl_FragCoord.x / 64.0 * 1.5 - 0.25;
    outColor = vec4(color, 1.0);
}
