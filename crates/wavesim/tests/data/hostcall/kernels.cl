// OpenCL C kernels that use hostcall services through the ROCm device libraries' entry points
// (what HIP's printf/malloc lower to): a printf message, device malloc/free. OpenCL's own
// printf is the buffered one (hidden_printf_buffer; corpus/printf).
ulong __ockl_printf_begin(ulong version);
ulong __ockl_printf_append_args(ulong msg, uint num, ulong a0, ulong a1, ulong a2, ulong a3,
                                ulong a4, ulong a5, ulong a6, uint is_last);
ulong __ockl_printf_append_string_n(ulong msg, __constant char *str, ulong len, uint is_last);
__global void *__ockl_dm_alloc(ulong size);
void __ockl_dm_dealloc(__global void *ptr);

__constant char fmt[] = "item %lu of %lu: %d * %.2f = %s\n";
__constant char big[] = "big";
__constant char small[] = "small";

__kernel void report(__global int *out, float scale) {
  size_t i = get_global_id(0);
  float v = (float)i * scale;
  ulong m = __ockl_printf_begin(0);
  m = __ockl_printf_append_string_n(m, fmt, sizeof(fmt), 0);
  m = __ockl_printf_append_args(m, 4, i, get_global_size(0), (ulong)(uint)(int)i,
                                as_ulong((double)v), 0, 0, 0, 0);
  __constant char *s = v > 10.0f ? big : small;
  out[i] = (int)__ockl_printf_append_string_n(m, s, v > 10.0f ? sizeof(big) : sizeof(small), 1);
}

__kernel void scratchpad(__global long *out, int n) {
  size_t i = get_global_id(0);
  __global int *p = (__global int *)__ockl_dm_alloc((ulong)n * sizeof(int));
  if (!p) {
    out[i] = -1;
    return;
  }
  for (int k = 0; k < n; k++)
    p[k] = (int)i + k;
  long s = 0;
  for (int k = 0; k < n; k++)
    s += p[k];
  __ockl_dm_dealloc(p);
  out[i] = s;
}
