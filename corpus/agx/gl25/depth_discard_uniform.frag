#version 450
// A uniform-driven discard of a stripe and a depth from a varying.
// ubo: 0 f32 0.4 0.6
layout(std140, binding = 0) uniform U { vec2 band; };
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    if (t.y > band.x && t.y < band.y)
        discard;
    o = vec4(t.x, 0.0, t.y, 1.0);
    gl_FragDepth = t.y;
}
