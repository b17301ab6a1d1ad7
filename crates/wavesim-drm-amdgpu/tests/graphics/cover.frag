#version 450
// A constant colour (the cover pass of tests/radv_stencil.rs: which pixels it reaches is the
// stencil test's result).
layout(location = 0) out vec4 outColor;
void main() {
    outColor = vec4(1.0, 1.0, 0.0, 1.0);
}
