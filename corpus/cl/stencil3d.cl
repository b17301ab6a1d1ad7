// Exercises a 3-D grid (get_global_id(2)) with a 7-point integer stencil, clamp-to-edge addressing and bounds checks in all three dimensions.
__kernel void stencil3d(__global const int *in, __global int *out, uint nx, uint ny, uint nz)
{
    uint x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x >= nx || y >= ny || z >= nz)
        return;
#define AT(X, Y, Z) in[((Z) * ny + (Y)) * nx + (X)]
    uint xm = x > 0u ? x - 1u : 0u, xp = min(x + 1u, nx - 1u);
    uint ym = y > 0u ? y - 1u : 0u, yp = min(y + 1u, ny - 1u);
    uint zm = z > 0u ? z - 1u : 0u, zp = min(z + 1u, nz - 1u);
    int c = AT(x, y, z);
    out[(z * ny + y) * nx + x] = 6 * c - AT(xm, y, z) - AT(xp, y, z) - AT(x, ym, z) - AT(x, yp, z) - AT(x, y, zm) - AT(x, y, zp);
}
