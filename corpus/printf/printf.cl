// printf from OpenCL C, lowered by LLVM's AMDGPU printf runtime binding (format strings in the
// amdhsa.printf metadata, arguments in the hidden_printf_buffer). Built without the device
// libraries, whose opencl.bc would define printf before that lowering runs; hence the work-item
// id from the builtin (run it as one workgroup).
kernel void hello(global const float *x, uint n) {
    uint i = __builtin_amdgcn_workitem_id_x();
    if (i < n) {
        printf("item %u of %u: x=%f (%e) hex=%#x str=%s char=%c\n", i, n, x[i], x[i], i * 17u, "ok", 'A' + (int)i);
    }
    if (i == 0) {
        printf("long %ld ulong %lu pct %% padded [%5d] [%-5d] [%05.2f]\n", -12345678901L, 18446744073709551615UL, 42, 42, 3.14159f);
        printf("vector %v4hld and %v2hlf\n", (int4)(1, -2, 3, -4), (float2)(0.5f, 2.0f));
        printf("no arguments\n");
    }
}

