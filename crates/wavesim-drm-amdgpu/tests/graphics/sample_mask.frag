#version 450
// The interpolated colour, written only to samples 0 and 2 (the SampleMask output 0b0101).
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    outColor = vec4(color, 1.0);
    gl_SampleMask[0] = 5;
}
