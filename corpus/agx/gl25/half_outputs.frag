#version 450
// mediump arithmetic and output (Mesa may keep it at 16 bits).
layout(location = 0) in mediump vec4 c;
layout(location = 0) out mediump vec4 o;
void main() {
    mediump vec4 x = c * c + c * 0.5;
    o = x / (x + 1.0);
}
