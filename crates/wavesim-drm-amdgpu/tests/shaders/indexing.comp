#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Descriptor indexing: four storage buffers in one binding, picked per workgroup (dynamically
// uniform) and per invocation (nonuniformEXT), summed into the output.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer In { uint v[]; } bufs[4];
layout(set = 0, binding = 1) buffer Out { uint o[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint wg = gl_WorkGroupID.x & 3u;
    uint lane = gl_LocalInvocationID.x & 3u;
    o[g] = bufs[wg].v[gl_LocalInvocationID.x] * 10u + bufs[nonuniformEXT(lane)].v[63u - gl_LocalInvocationID.x];
}
