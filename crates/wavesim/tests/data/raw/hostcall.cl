// Makes a hostcall request through the device libraries (__ockl_hostcall_preview, service 2
// with one argument): a printf message packet (END, one word) for message 0, which no BEGIN
// opened; ROCm's runtime and wavesim both stop on it (tests/hostcall.rs).
ulong2 __ockl_hostcall_preview(uint service_id, ulong arg0, ulong arg1, ulong arg2, ulong arg3,
                               ulong arg4, ulong arg5, ulong arg6, ulong arg7);

__kernel void ask_host(__global ulong *out) {
    ulong2 r = __ockl_hostcall_preview(2u, 42ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul);
    out[get_global_id(0)] = r.x;
}
