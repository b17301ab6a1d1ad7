#version 450
// piglit tests/spec/arb_compute_shader/execution/simple-barrier.shader_test, converted by hand:
// the image (unit 0, GL_RGBA8) is image unit 1 with its format written. Piglit's probe: every
// texel (0, 1, 0, 0).
// groups: 2 2 1
// image: 1 2d rgba8 16 16 1 rgbw 16
// probe image: 1 256 0x0000ff00
layout(binding = 1, rgba8) writeonly uniform image2D tex;
layout(local_size_x = 8, local_size_y = 8) in;
shared bool passed;
const uint size2 = gl_WorkGroupSize.x * gl_WorkGroupSize.y;
shared uint data[size2];
void main()
{
    passed = true;
    barrier();
    data[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;
    barrier();
    uint expect = (gl_LocalInvocationIndex + (size2 >> 1u)) % size2;
    if (data[expect] != expect) {
        passed = false;
    }
    barrier();
    vec4 color;
    if (passed) {
        color = vec4(0, 1, 0, 0);
    } else {
        color = vec4(1, 0, 0, 0);
    }
    ivec2 coord = ivec2(gl_GlobalInvocationID.xy);
    imageStore(tex, coord, color);
}
