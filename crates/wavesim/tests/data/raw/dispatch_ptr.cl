// Reads the workgroup size and grid size from the AQL dispatch packet that s[0:1] points to
// (kernel_code_properties ENABLE_SGPR_DISPATCH_PTR), the output pointer from the kernarg
// segment in s[2:3]. out[i] = grid_size_x * 65536 + workgroup_size_x * 256 + (i & 255) for the
// global work-item index i = group id * workgroup size + local id.
__kernel void dispatch_dims(__global uint *out) {
    __constant ushort *p16 = (__constant ushort *)__builtin_amdgcn_dispatch_ptr();
    __constant uint *p32 = (__constant uint *)__builtin_amdgcn_dispatch_ptr();
    uint wg_size_x = p16[2];  // hsa_kernel_dispatch_packet_t.workgroup_size_x (byte 4)
    uint grid_x = p32[3];     // hsa_kernel_dispatch_packet_t.grid_size_x (byte 12)
    uint i = __builtin_amdgcn_workgroup_id_x() * wg_size_x + __builtin_amdgcn_workitem_id_x();
    out[i] = grid_x * 65536u + wg_size_x * 256u + (i & 255u);
}
