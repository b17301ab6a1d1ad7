#version 450
// floor, ceil, round, roundEven, trunc, sign of scaled varyings.
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    vec2 s = t * 7.3 - 2.0;
    o = vec4(floor(s.x) / 8.0 + 0.5, ceil(s.y) / 8.0 + 0.5, roundEven(s.x * 2.0) / 16.0 + 0.5,
             trunc(s.y) * sign(s.x) / 8.0 + 0.5);
}
