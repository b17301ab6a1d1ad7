#version 450
// samples: 4
// triangle: 1.25 0.75 14.75 4.25 5.25 15.25
// clear: 0.2 0.4 0.6 1.0
// centroid inputs: at a partially covered pixel the hardware's centroid has no public source,
// so the job runs under the opt-in (the first covered sample, exec::centroid_offset)
// approximate
layout(location = 0) centroid in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xyz, 1.0);
}
