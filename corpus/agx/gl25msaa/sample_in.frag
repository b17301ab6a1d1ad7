#version 450
// samples: 4
// a sample-qualified input (iter at each sample's position) beside a centre-evaluated one
layout(location = 0) sample in vec4 v;
layout(location = 1) in vec2 c;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(fract(v.x * 4.0), fract(v.y * 8.0), c.x, c.y);
}
