#version 450
// Component-wise comparisons and selects (bvec, any, all, mix with bools).
layout(location = 0) in vec4 a;
layout(location = 1) in vec4 b;
layout(location = 0) out vec4 o;
void main() {
    bvec4 lt = lessThan(a, b);
    vec4 c = mix(b, a, lt);
    float e = any(lt) ? 0.25 : 0.0;
    float f = all(greaterThan(a, vec4(0.1))) ? 0.5 : 0.0;
    o = vec4(c.xy, c.z + e, c.w * 0.5 + f);
}
