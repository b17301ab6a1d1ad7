#version 450
// samples: 4
// per-sample shading from gl_SampleID: the linked sample loop, r1l's bit as the id
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    float s = float(gl_SampleID);
    o = vec4(v.x, s / 4.0, 0.25 * s + 0.1 * v.y, 1.0);
}
