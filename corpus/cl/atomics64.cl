// Exercises 64-bit global atomics (cl_khr_int64_base/extended_atomics): atom_add, atom_sub, atom_min/max signed+unsigned, atom_and/or/xor, atom_xchg and atom_cmpxchg.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void atomics64(__global const ulong *in, __global ulong *acc, __global long *sacc,
                        __global ulong *slots, __global ulong *olds, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    ulong v = in[i];
    atom_add(&acc[0], v);
    atom_sub(&acc[1], v >> 3);
    atom_min(&acc[2], v);
    atom_max(&acc[3], v);
    atom_and(&acc[4], v | 0x1111111111111111ul);
    atom_or(&acc[5], v & 0x8888888888888888ul);
    atom_xor(&acc[6], v);
    atom_inc(&acc[7]);
    atom_min(&sacc[0], (long)v);
    atom_max(&sacc[1], (long)v);
    olds[2u * i] = atom_xchg(&slots[2u * i], v);
    olds[2u * i + 1u] = atom_cmpxchg(&slots[2u * i + 1u], (ulong)i, v);
}
