#version 450
// discard on a varying threshold (sample_mask kills), the rest write a colour.
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    if (t.x + t.y > 1.0)
        discard;
    o = vec4(t, 0.5, 1.0);
}
