#version 450
// Per-sample shading from the shader (gl_SampleID and gl_SamplePosition make RADV shade every
// sample): red = SampleID / 4, blue = SamplePosition.x * SamplePosition.y, green interpolated.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    outColor = vec4(float(gl_SampleID) * 0.25, color.g, gl_SamplePosition.x * gl_SamplePosition.y, 1.0);
}
