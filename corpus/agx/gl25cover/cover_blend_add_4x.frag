#version 450
// samples: 4
// blend: add
// triangle: 1.25 0.75 14.75 4.25 5.25 15.25
// clear: 0.2 0.4 0.6 0.2
// blending ONE/ONE over the clear colour: covered samples add, uncovered keep the clear
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xyz * 0.25, 0.5);
}
