#version 450
// samples: 4
// gl_SamplePosition: the driver's standard positions from the PPP_MULTISAMPLECTL word
layout(location = 0) out vec4 o;
void main() {
    o = vec4(gl_SamplePosition, float(gl_SampleID) / 3.0, 1.0);
}
