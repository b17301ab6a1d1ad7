#version 450
// samples: 2
// triangle: 3.375 2.125 13.875 2.125 3.375 12.625
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// discard and gl_FragDepth at partially covered pixels: uncovered samples get no depth, discarded ones neither
layout(location = 0) in vec3 t;
layout(location = 0) out vec4 o;
void main() {
    if (t.z < 0.375)
        discard;
    o = vec4(t, 1.0);
    gl_FragDepth = t.x * 0.5 + 0.25;
}
