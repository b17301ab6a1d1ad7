#version 450
// noperspective (linear) and smooth inputs side by side.
layout(location = 0) noperspective in vec2 a;
layout(location = 1) in vec2 b;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(a, b);
}
