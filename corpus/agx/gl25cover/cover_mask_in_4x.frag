#version 450
// samples: 4
// triangle: 1.25 0.75 14.75 4.25 5.25 15.25
// clear: 0.2 0.4 0.6 1.0
// gl_SampleMaskIn without sample shading: the pixel's covered samples (get_sr sr124)
layout(location = 0) out vec4 o;
void main() {
    int m = gl_SampleMaskIn[0];
    o = vec4(float(m & 1), float(m & 2) / 2.0, float(m & 4) / 4.0, float(m & 8) / 8.0);
}
