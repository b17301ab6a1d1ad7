#version 450
// Float arithmetic: fma-free products and sums, division, sqrt, floor/fract/round/trunc,
// min/max/clamp/mix, conversions to and from integers, comparisons.
// groups: 2
// buffer: 0 ssbo randf 128 -100 100
// buffer: 1 ssbo randf 128 -4 4
// buffer: 2 ssbo zero 1024
// compare: 2 f32
// approximate
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { float a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    o[8u * i + 0u] = x / y;
    o[8u * i + 1u] = sqrt(abs(x)) + floor(x) * 0.5 - fract(y);
    o[8u * i + 2u] = round(x * 0.37) + trunc(y * 3.3) + ceil(x - y);
    o[8u * i + 3u] = clamp(x, -10.0, 10.0) * mix(y, x, 0.25);
    o[8u * i + 4u] = float(int(x) * 3 - int(y * 8.0)) + float(uint(abs(x)));
    o[8u * i + 5u] = x > y ? min(x, y * 2.0) : max(x, -y);
    o[8u * i + 6u] = sign(x) * abs(y) + step(0.5, y) - smoothstep(-1.0, 1.0, y);
    o[8u * i + 7u] = dot(vec3(x, y, 1.0), vec3(y, x, -2.0)) + length(vec2(x, y));
}
