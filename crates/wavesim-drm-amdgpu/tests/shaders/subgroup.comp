#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_vote : require
// Subgroup operations whose results do not depend on the subgroup size (so lavapipe's and
// RADV's sizes give the same buffer): each output is a value or a check against a formula
// in gl_SubgroupSize / gl_SubgroupInvocationID.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint id = gl_SubgroupInvocationID;
    uint n = gl_SubgroupSize;
    uint v = a[g];
    uint base = g - id;
    uint ok = 0u;
    ok |= uint(subgroupAdd(1u) == n) << 0;
    ok |= uint(subgroupInclusiveAdd(1u) == id + 1u) << 1;
    ok |= uint(subgroupExclusiveAdd(id) == id * (id - 1u) / 2u) << 2;
    ok |= uint(subgroupBroadcastFirst(g) == base) << 3;
    ok |= uint(subgroupBallotBitCount(subgroupBallot(true)) == n) << 4;
    ok |= uint(subgroupAll(v < 0x80000000u) == true) << 5;
    ok |= uint(subgroupMax(g) == base + n - 1u) << 6;
    ok |= uint(subgroupElect() == (id == 0u)) << 7;
    b[4u * g + 0u] = ok;
    b[4u * g + 1u] = subgroupShuffleXor(v, 1u);
    b[4u * g + 2u] = subgroupShuffle(v, id ^ 3u);
    bool odd = (v & 1u) != 0u;
    b[4u * g + 3u] = uint(subgroupBallotBitCount(subgroupBallot(odd)) == subgroupAdd(odd ? 1u : 0u))
        | uint(subgroupBallotInclusiveBitCount(subgroupBallot(true)) == id + 1u) << 1
        | uint(subgroupAny(g == base)) << 2;
}
