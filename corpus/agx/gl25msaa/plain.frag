#version 450
// samples: 4
// plain multisampling: one invocation per pixel, its colour in every sample
layout(location = 0) in vec4 v;
layout(location = 1) noperspective in vec2 w;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.x * w.y, v.y + w.x, abs(v.z - v.w), 1.0);
}
