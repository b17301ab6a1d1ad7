// Exercises AMDGPU cross-lane builtins: ds_bpermute, readfirstlane (also in a divergent branch), ds_swizzle (bitmask and quad-perm modes), mbcnt, ballot. Results depend on the wave size.
__kernel void amdgcn_lanes(__global const int *in, __global int *out)
{
    uint i = get_global_id(0);
    int v = in[i];
    uint lane = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
#if __AMDGCN_WAVEFRONT_SIZE == 64
    lane = __builtin_amdgcn_mbcnt_hi(~0u, lane);
    ulong mask = __builtin_amdgcn_ballot_w64(v > 0);
    uint wmask = (uint)mask ^ (uint)(mask >> 32);
#else
    uint wmask = __builtin_amdgcn_ballot_w32(v > 0);
#endif
    __global int *o = out + i * 8u;
    o[0] = (int)lane;
    /* read from lane (lane + 3) mod 32 and from the mirrored lane, both within the same 32-lane half
       (wave64 ds_bpermute crossing halves is avoided on purpose) */
    uint hb = lane & ~31u;
    o[1] = __builtin_amdgcn_ds_bpermute((int)((hb | ((lane + 3u) & 31u)) * 4u), v);
    o[2] = __builtin_amdgcn_ds_bpermute((int)((hb | (31u - (lane & 31u))) * 4u), v);
    o[3] = __builtin_amdgcn_readfirstlane(v);
    int r = -1;
    if ((lane & 3u) == 2u)
        r = __builtin_amdgcn_readfirstlane(v);
    o[4] = r;
    /* bitmask mode: and=0x1f, or=0, xor=1 -> swap neighbouring lanes */
    o[5] = __builtin_amdgcn_ds_swizzle(v, 0x041F);
    /* quad-perm mode: reverse each group of 4 lanes */
    o[6] = __builtin_amdgcn_ds_swizzle(v, 0x801B);
    o[7] = (int)wmask;
}
