#version 450
// Per-vertex branches and a loop on attribute values.
layout(location = 0) in vec4 a;
layout(location = 0) out vec4 o;
layout(location = 1) flat out float k;
void main() {
    vec4 v = a;
    if (a.x > 0.0)
        v.xy = v.yx;
    else
        v.zw *= 2.0;
    float s = 0.0;
    for (int i = 0; i < 4; i++)
        s += v[i] * float(i + 1);
    gl_Position = v;
    o = vec4(s, abs(a.y), max(a.z, a.w), min(a.x, 0.0));
    k = sign(s);
}
