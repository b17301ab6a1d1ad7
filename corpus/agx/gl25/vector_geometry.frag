#version 450
// normalize, dot, cross, length, distance, reflect (normalize's inversesqrt is rsqrt, exact;
// length and distance are sqrt, Mesa's x * rsqrt_special(x)).
// approximate
layout(location = 0) in vec3 n;
layout(location = 1) in vec3 l;
layout(location = 0) out vec4 o;
void main() {
    vec3 nn = normalize(n - 0.5);
    vec3 ll = normalize(l - 0.4);
    float d = max(dot(nn, ll), 0.0);
    vec3 r = reflect(-ll, nn);
    vec3 c = cross(nn, ll);
    o = vec4(d, r.z * 0.5 + 0.5, length(c) * 0.5, distance(n, l));
}
