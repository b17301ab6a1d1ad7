#version 450
// samples: 4
// blend: alpha
// clear: 0.2 0.4 0.6 0.8
// SRC_ALPHA/ONE_MINUS_SRC_ALPHA blending under sample shading: the epilog blends the sample
// being shaded inside the linked sample loop
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.x, float(gl_SampleID) / 3.0, v.z, 0.25 + 0.125 * float(gl_SampleID));
}
