#version 450
// Six inputs of mixed widths summed: many coefficient registers.
layout(location = 0) in float a;
layout(location = 1) in vec2 b;
layout(location = 2) in vec3 c;
layout(location = 3) in vec4 d;
layout(location = 4) flat in vec2 e;
layout(location = 5) in float f;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(a + b.x - c.y * 0.5, b.y * c.z, d.x * d.w + e.x * 0.25, (d.y + d.z + e.y + f) / 4.0);
}
