// OpenCL image kernels for wavesim's MIMG emulation (corpus/gfx/build.sh compiles them with clang-19
// and the ROCm device libraries). Each image argument is the address of its image object (the 256-bit T#, then the
// OpenCL channel type, order and width); a sampler_t argument is the address of a 128-bit S#.

__constant sampler_t lin_clamp = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__constant sampler_t near_repeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t near_unnorm = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

// 1. Integer-coordinate read, scale, write (image_load / image_store).
__kernel void img_scale(read_only image2d_t src, write_only image2d_t dst, float k) {
    int x = get_global_id(0), y = get_global_id(1);
    float4 c = read_imagef(src, (int2)(x, y));
    write_imagef(dst, (int2)(x, y), c * k);
}

// 2. Bilinear sampling with normalized coordinates, clamp to edge.
__kernel void img_sample_linear(read_only image2d_t src, __global float4 *out, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    float2 uv = (float2)((x + 0.25f) / w, (y + 0.75f) / h);
    out[y * w + x] = read_imagef(src, lin_clamp, uv);
}

// 3. Nearest sampling with repeat: coordinates beyond [0, 1) wrap around.
__kernel void img_sample_repeat(read_only image2d_t src, __global float4 *out, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    float2 uv = (float2)((x + 0.5f) / w * 2.0f - 0.5f, (y + 0.5f) / h + 0.5f);
    out[y * w + x] = read_imagef(src, near_repeat, uv);
}

// 4. A gradient written into an image.
__kernel void img_gradient(write_only image2d_t dst, int w, int h) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(dst, (int2)(x, y), (float4)((float)x / (w - 1), (float)y / (h - 1), 0.5f, 1.0f));
}

// 5. Image size queries.
__kernel void img_size(read_only image2d_t src, __global int *out) {
    if (get_global_id(0) == 0) {
        out[0] = get_image_width(src);
        out[1] = get_image_height(src);
    }
}

// 6. Unsigned integer texels (read_imageui) summed per pixel.
__kernel void img_read_uint(read_only image2d_t src, __global uint *out, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    uint4 c = read_imageui(src, (int2)(x, y));
    out[y * w + x] = c.x + (c.y << 8) + (c.z << 16) + (c.w << 24);
}

// 7. A 3x3 box filter over a single-channel float image with an unnormalized nearest sampler.
__kernel void img_box3(read_only image2d_t src, __global float *out, int w) {
    int x = get_global_id(0), y = get_global_id(1);
    float s = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += read_imagef(src, near_unnorm, (float2)(x + dx + 0.5f, y + dy + 0.5f)).x;
    out[y * w + x] = s * (1.0f / 9.0f); // a constant factor: OpenCL division need not be correctly rounded
}

// 8. Swap red and blue through an image of half floats (write_imagef to an RGBA16F image).
__kernel void img_swap_rb(read_only image2d_t src, write_only image2d_t dst) {
    int x = get_global_id(0), y = get_global_id(1);
    float4 c = read_imagef(src, (int2)(x, y));
    write_imagef(dst, (int2)(x, y), c.zyxw);
}

// 9. A sampler_t kernel argument (the host's S#): sampling with the caller's coordinates mode,
// addressing and filter at (x + 0.25, y + 0.75) * scale + offset, which can reach beyond the image.
__kernel void img_sample_arg(read_only image2d_t src, sampler_t smp, __global float4 *out, int w,
                             float2 scale, float2 offset) {
    int x = get_global_id(0), y = get_global_id(1);
    float2 c = (float2)(x + 0.25f, y + 0.75f) * scale + offset;
    out[y * w + x] = read_imagef(src, smp, c);
}
