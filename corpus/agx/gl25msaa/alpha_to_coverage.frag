#version 450
// samples: 4
// alpha_to_coverage
// clear: 0.2 0.4 0.6 0.8
// alpha to coverage, which Mesa lowers into the epilog (agx_nir_lower_alpha_to_coverage: samples
// 0 .. floor(4 alpha) - 1 kept). GL leaves the alpha-to-mask mapping to the implementation
// (llvmpipe keeps ceil(4 alpha) samples), so alpha takes only the values 0, 1/4, 1/2, 3/4, 1,
// where both keep 4 alpha samples from sample 0, by pixel column
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    int x = int(gl_FragCoord.x) % 5;
    o = vec4(v.x, v.y, v.z, float(x) * 0.25);
}
