// Built at -O0: the metadata then declares every hidden argument, hidden_hostcall_buffer
// included, though the kernel makes no hostcall request. out[i] = 3 * i + 1.
__kernel void fill(__global uint *out) { out[get_global_id(0)] = get_global_id(0) * 3u + 1u; }
