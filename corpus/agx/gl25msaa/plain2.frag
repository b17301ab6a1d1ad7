#version 450
// samples: 2
// plain multisampling at 2 samples
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.zyx, 0.5);
}
