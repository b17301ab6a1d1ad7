// Exercises a 2-D grid over a uchar image: 3x3 box blur with clamp-to-edge, u8 loads/stores and integer division by a constant.
__kernel void image_blur(__global const uchar *src, __global uchar *dst, int width, int height)
{
    int x = (int)get_global_id(0), y = (int)get_global_id(1);
    if (x >= width || y >= height)
        return;
    uint sum = 0u;
    for (int dy = -1; dy <= 1; dy++) {
        int yy = clamp(y + dy, 0, height - 1);
        for (int dx = -1; dx <= 1; dx++) {
            int xx = clamp(x + dx, 0, width - 1);
            sum += src[yy * width + xx];
        }
    }
    dst[y * width + x] = (uchar)((sum + 4u) / 9u);
}
