#version 450
// An 8x8 grid of quads (two triangles each, 384 vertices) from gl_VertexIndex, with a
// perspective w and every other quad's first triangle wound the other way (for culling).
layout(location = 0) out vec3 color;
void main() {
    int q = gl_VertexIndex / 6;
    int k = gl_VertexIndex % 6;
    int cx = q % 8;
    int cy = q / 8;
    if ((cx + cy) % 2 == 1 && (k == 1 || k == 2)) {
        k = 3 - k;
    }
    ivec2 corner[6] = ivec2[](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
    vec2 p = (vec2(cx, cy) + vec2(corner[k])) / 8.0 * 1.6 - 0.8;
    float w = 1.0 + 0.25 * p.x;
    gl_Position = vec4(p * w, 0.25 + 0.5 * p.y * w, w);
    color = vec3(fract(p * 3.1 + 0.5), float(q % 5) / 4.0);
}
