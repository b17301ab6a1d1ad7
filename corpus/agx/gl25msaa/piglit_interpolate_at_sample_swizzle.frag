#version 450
// samples: 4
// ubo: 0 words 1
// piglit tests/spec/glsl-4.40/execution/fs-interpolateAtSample-swizzle.shader_test's fragment
// shader in GLSL 4.50 (u_idx in a block), drawn at 4 samples: interpolateAtSample of sample 0
// now differs from the centre, so the deltas (+ 0.5) reach the colour
layout(location = 0) in vec3 a;
layout(binding = 0) uniform B { int u_idx; };
layout(location = 0) out vec4 color;
void main() {
    vec2 delta1 = a.yx - interpolateAtSample(a.yx, 0);
    float delta2 = a[2] - interpolateAtSample(a[2], 0);
    float delta3 = a[u_idx] - interpolateAtSample(a[u_idx], 0);
    if (delta1 != vec2(0.0)) {
        color = vec4(0.1, delta1.x * 16.0 + 0.5, delta1.y * 16.0 + 0.5, 0.0);
    } else if (delta2 != 0.0) {
        color = vec4(0.2, delta2 * 16.0 + 0.5, 0.0, 0.0);
    } else if (delta3 != 0.0) {
        color = vec4(0.3, delta3 * 16.0 + 0.5, 0.0, 0.0);
    } else {
        color = vec4(0.0, 1.0, 0.0, 1.0);
    }
}
