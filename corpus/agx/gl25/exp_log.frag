#version 450
// exp2, log2 and pow (exp2(y log2 x)) of smooth inputs.
layout(location = 0) in vec3 t;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(exp2(t.x) - 1.0, log2(t.y + 1.0), pow(t.z, 2.2), 1.0);
}
