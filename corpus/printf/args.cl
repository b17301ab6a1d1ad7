// Kernels for wavesim's by-value argument and reqd_work_group_size tests (corpus/printf/build.sh).

// By-value arguments: a float4, an int2 and a struct, written back so the test can see where
// each lane landed in the kernarg segment.
typedef struct { int a; float b; short c; } pair_t;
kernel void byvalue(global float *out, float4 v, int2 w, pair_t p, uchar u) {
    out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
    out[4] = (float)w.x; out[5] = (float)w.y;
    out[6] = (float)p.a; out[7] = p.b; out[8] = (float)p.c; out[9] = (float)u;
}

// A fixed workgroup size: wavesim takes --local from it when the command line gives none.
__attribute__((reqd_work_group_size(64, 1, 1)))
kernel void fill_ids(global uint *out) {
    out[get_global_id(0)] = get_local_size(0) * 1000u + get_local_id(0);
}
