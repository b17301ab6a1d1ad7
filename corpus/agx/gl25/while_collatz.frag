#version 450
// A while loop with a data-dependent trip count per pixel (divergence across the group).
layout(location = 0) out vec4 o;
void main() {
    uint n = uint(gl_FragCoord.x) * 16u + uint(gl_FragCoord.y) + 1u;
    uint steps = 0u;
    while (n != 1u && steps < 200u) {
        n = (n & 1u) != 0u ? 3u * n + 1u : n / 2u;
        steps++;
    }
    o = vec4(float(steps) / 128.0, float(steps & 7u) / 7.0, 0.5, 1.0);
}
