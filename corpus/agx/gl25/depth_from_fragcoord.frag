#version 450
// Depth from the pixel position (gl_FragCoord.xy through sr80/sr81) and the Z plane.
layout(location = 0) out vec4 o;
void main() {
    vec2 p = gl_FragCoord.xy / 16.0;
    o = vec4(p, gl_FragCoord.z, 1.0);
    gl_FragDepth = p.x * 0.5 + p.y * 0.25 + gl_FragCoord.z * 0.125;
}
