// Exercises a Mandelbrot escape-time loop (divergent data-dependent trip count) on a 2-D grid, f32 math with FP contraction disabled.
#pragma OPENCL FP_CONTRACT OFF
__kernel void mandelbrot(__global uint *out, uint width, uint height, float x0, float y0, float step, uint max_iter)
{
    uint px = get_global_id(0), py = get_global_id(1);
    if (px >= width || py >= height)
        return;
    float cx = x0 + (float)px * step;
    float cy = y0 + (float)py * step;
    float x = 0.0f, y = 0.0f;
    uint it = 0u;
    while (it < max_iter) {
        float xx = x * x, yy = y * y;
        if (xx + yy > 4.0f)
            break;
        float xy = x * y;
        x = xx - yy + cx;
        y = xy + xy + cy;
        it++;
    }
    out[py * width + px] = it;
}
