// out[i] = in[i] * scale: with f32 denormals flushed (COMPUTE_PGM_RSRC1.FLOAT_DENORM_MODE_32 = 0,
// from -cl-denorms-are-zero) a denormal product or input becomes a zero of the same sign; with
// denormals kept (mode 3) it is the exact IEEE product.
__kernel void scale(__global const float *in, __global float *out, float scale) {
    uint i = __builtin_amdgcn_workgroup_id_x() * 64u + __builtin_amdgcn_workitem_id_x();
    out[i] = in[i] * scale;
}
