// Exercises a 2-D grid with an LDS-tiled matrix transpose (16x16 tile padded to 17 columns) and bounds checks on both dimensions.
#define T 16
__kernel __attribute__((reqd_work_group_size(T, T, 1)))
void lds_transpose(__global const uint *in, __global uint *out, uint width, uint height)
{
    __local uint tile[T][T + 1];
    uint x = get_global_id(0), y = get_global_id(1);
    uint lx = get_local_id(0), ly = get_local_id(1);
    if (x < width && y < height)
        tile[ly][lx] = in[y * width + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint ox = get_group_id(1) * T + lx;
    uint oy = get_group_id(0) * T + ly;
    if (ox < height && oy < width)
        out[oy * height + ox] = tile[lx][ly];
}
