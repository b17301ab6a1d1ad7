#version 450
// triangle: 2.5 1.5 13.5 1.5 2.5 12.5
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// gl_SampleMaskIn at 1 sample: 1 wherever a fragment runs
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(float(gl_SampleMaskIn[0]), v.x, 0.0, 1.0);
}
