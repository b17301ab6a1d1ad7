#version 450
// A smooth colour times a uniform tint and a flat scale; depth written from the colour.
// ubo: 0 f32 0.5 1.0 0.75 1.0 0.8
layout(location = 0) in vec4 colour;
layout(location = 1) flat in float scale;
layout(std140, binding = 0) uniform U { vec4 tint; float depth; };
layout(location = 0) out vec4 o;
void main() {
    o = colour * tint * scale;
    gl_FragDepth = depth * colour.x;
}
