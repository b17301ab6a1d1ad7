#version 450
// gl_FrontFacing (get_sr sr62, Mesa's load_back_face_agx) selects the colour.
layout(location = 0) in vec4 c;
layout(location = 0) out vec4 o;
void main() {
    o = gl_FrontFacing ? c : vec4(1.0) - c;
}
