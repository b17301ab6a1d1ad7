// Exercises MUBUF through clang-19 buffer builtins: make_buffer_rsrc + raw_buffer_load/store b8/b16/b32/b64/b128, soffset addressing, range-checked loads (0) and dropped stores past num_records.
#define GFX11_RSRC_WORD3 0x31004000 /* OOB_SELECT=3 (raw), FORMAT=32_UINT */
__kernel void buffer_rsrc(__global const uint *in, __global uint *out, uint in_bytes, uint out_bytes, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    __amdgpu_buffer_rsrc_t src = __builtin_amdgcn_make_buffer_rsrc((void *)in, 0, (int)in_bytes, GFX11_RSRC_WORD3);
    __amdgpu_buffer_rsrc_t dst = __builtin_amdgcn_make_buffer_rsrc((void *)out, 0, (int)out_bytes, GFX11_RSRC_WORD3);
    uint w0 = __builtin_amdgcn_raw_buffer_load_b32(src, (int)(i * 4u), 0, 0);
    uint w1 = __builtin_amdgcn_raw_buffer_load_b32(src, (int)((i & 15u) * 4u), 64, 0);
    uint w2 = (uint)__builtin_amdgcn_raw_buffer_load_b8(src, (int)(i * 3u), 0, 0);
    uint w3 = (uint)__builtin_amdgcn_raw_buffer_load_b16(src, (int)(i * 2u), 0, 0);
    uint2 v2 = __builtin_amdgcn_raw_buffer_load_b64(src, (int)(i * 8u), 0, 0);
    uint4 v4 = __builtin_amdgcn_raw_buffer_load_b128(src, (int)(i * 16u), 0, 0);
    int base = (int)(i * 32u);
    __builtin_amdgcn_raw_buffer_store_b128((uint4)(w0, w1, w2, w3), dst, base, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b64(v2 + (uint2)(1u, 2u), dst, base + 16, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b32(v4.x ^ v4.y ^ v4.z ^ v4.w, dst, base + 24, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b16((ushort)(w0 >> 4), dst, base + 28, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b8((uchar)w1, dst, base + 30, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b8((uchar)0xAB, dst, base, 31, 0);
}
