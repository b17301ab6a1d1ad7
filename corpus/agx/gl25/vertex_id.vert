#version 450
// gl_VertexIndex and gl_InstanceIndex (r5/r6 from the prolog) in the outputs.
#ifdef VULKAN
#define VID gl_VertexIndex
#define IID gl_InstanceIndex
#else
#define VID gl_VertexID
#define IID gl_InstanceID
#endif
layout(location = 0) in vec2 pos;
layout(location = 0) out vec2 ids;
void main() {
    gl_Position = vec4(pos + float(VID) * 0.125, 0.0, 1.0);
    ids = vec2(float(VID), float(IID) + 0.5);
}
