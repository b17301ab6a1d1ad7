#version 450
// clamp, mix, smoothstep, fract, floor on attributes.
layout(location = 0) in vec3 a;
layout(location = 1) in vec2 b;
layout(location = 0) out vec3 o;
layout(location = 1) out float f;
void main() {
    gl_Position = vec4(clamp(a * 2.0, -0.5, 0.5), 1.0);
    o = mix(a, vec3(b, 0.25), 0.375) + smoothstep(-0.5, 0.5, a.x);
    f = fract(a.y * 3.0) + floor(b.x * 4.0);
}
