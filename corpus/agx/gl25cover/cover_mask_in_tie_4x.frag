#version 450
// samples: 4
// triangle: 3.375 2.125 13.875 2.125 3.375 12.625
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// gl_SampleMaskIn where the edges pass through sample 0 (top-left decides it)
layout(location = 0) out vec4 o;
void main() {
    int m = gl_SampleMaskIn[0];
    o = vec4(float(m & 1), float(m & 2) / 2.0, float(m & 4) / 4.0, float(m & 8) / 8.0);
}
