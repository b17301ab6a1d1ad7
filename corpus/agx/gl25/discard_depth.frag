#version 450
// discard and gl_FragDepth together: killed samples are not tested by zs_emit.
layout(location = 0) in vec3 t;
layout(location = 0) out vec4 o;
void main() {
    if (t.z < 0.45)
        discard;
    o = vec4(t, 1.0);
    gl_FragDepth = t.x * 0.5 + 0.25;
}
