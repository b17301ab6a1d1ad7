#version 450
// Blends of two smooth colours: mix, clamp, step, smoothstep, min/max, abs, fract.
layout(location = 0) in vec4 a;
layout(location = 1) in vec3 b;
layout(location = 0) out vec4 o;
void main() {
    vec3 m = mix(a.rgb, b, a.a);
    float s = smoothstep(0.3, 0.7, b.y);
    o = vec4(clamp(m * 1.5 - 0.2, 0.0, 1.0).r, step(0.5, a.g) * 0.5 + s * 0.5,
             max(min(a.b, b.z), 0.1), abs(fract(a.r * 3.0) - 0.5) * 2.0);
}
