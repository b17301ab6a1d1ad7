#version 450
// samples: 4
// triangle: 3.375 2.125 13.875 2.125 3.375 12.625
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// gl_SamplePosition and gl_SampleMaskIn under sample shading at partially covered pixels
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_SamplePosition, float(gl_SampleMaskIn[0]) / 8.0, 1.0);
}
