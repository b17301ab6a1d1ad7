#version 450
// samples: 4
// gl_SampleMaskIn under sample shading: only the bit of the sample being shaded
layout(location = 0) out vec4 o;
void main() {
    int m = gl_SampleMaskIn[0];
    o = vec4(float(m & 1), float(m & 2) / 2.0, float(m & 4) / 4.0, float(m & 8) / 8.0 + float(gl_SampleID) / 16.0);
}
