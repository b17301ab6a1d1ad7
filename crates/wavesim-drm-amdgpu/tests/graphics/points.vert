#version 450
// 24 points of sizes 1 to 6 (gl_PointSize) along a curve.
layout(location = 0) out vec3 color;
void main() {
    int i = gl_VertexIndex;
    float t = float(i) / 23.0;
    gl_Position = vec4(-0.85 + 1.7 * t, 0.7 * sin(t * 6.2831853), 0.5, 1.0);
    gl_PointSize = float(1 + i % 6);
    color = vec3(t, 1.0 - t, float(i % 2));
}
