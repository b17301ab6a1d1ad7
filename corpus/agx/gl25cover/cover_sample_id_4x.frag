#version 450
// samples: 4
// triangle: 1.25 0.75 14.75 4.25 5.25 15.25
// clear: 0.2 0.4 0.6 1.0
// sample shading at partially covered pixels: Mesa's sample loop passes over every sample,
// and only the covered ones are written
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    float s = float(gl_SampleID);
    o = vec4(v.x, s / 4.0, 0.25 * s + 0.1 * v.y, 1.0);
}
