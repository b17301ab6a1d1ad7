# out[gid] = v[63 - lid] where v[lid] = in[gid] + gid is exchanged through threadgroup memory
# (threadgroup_barrier between the store and the load); uniforms u0_u1 = in, u2_u3 = out.
    get_sr r1, sr80
    get_sr r2, sr48
    device_load 0, i32, x, r3, u0_u1, r1, unsigned
    wait 0
    iadd r3, r3, r1
    threadgroup_store i32, x, r3, 0, r2l
    threadgroup_barrier
    isub r4, 63, r2
    threadgroup_load i32, x, r5, 0, r4l
    device_store 0, i32, x, r5, u2_u3, r1, unsigned, , 0
    stop
