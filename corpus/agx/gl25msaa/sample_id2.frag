#version 450
// samples: 2
// per-sample shading at 2 samples from gl_SampleID (the positions are not GL's to fix: llvmpipe's
// 2-sample positions differ from Mesa's, so none is read here)
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.x, float(gl_SampleID), v.y * 0.5, v.w);
}
