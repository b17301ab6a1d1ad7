// HIP kernels that use hostcall services: printf of every conversion ROCm's runtime prints,
// device malloc/free, assert. Built by build.sh for wave32 and wave64.
#include "hip_runtime.h"

#include "formats.inc"

__global__ void many(int *out) {
  int tid = blockIdx_x * blockDim_x + threadIdx_x;
  out[tid] = printf("group %u item %u\n", blockIdx_x, threadIdx_x);
}

__global__ void heap(long *out, int words) {
  int tid = blockIdx_x * blockDim_x + threadIdx_x;
  int *p = (int *)malloc((tid % 4 + 1) * words * sizeof(int));
  char *big = (char *)malloc(8192 + tid);
  if (!p || !big) {
    out[tid] = -1;
    return;
  }
  for (int k = 0; k < words; k++)
    p[k] = tid * 1000 + k;
  for (int k = 0; k < 8192 + tid; k += 512)
    big[k] = (char)tid;
  __builtin_amdgcn_s_barrier();
  long sum = 0;
  for (int k = 0; k < words; k++)
    sum += p[k];
  for (int k = 0; k < 8192 + tid; k += 512)
    sum += big[k] == (char)tid ? 1 : 1000000;
  free(big);
  free(p);
  out[tid] = sum;
}

__global__ void check(int *out, int limit) {
  int tid = blockIdx_x * blockDim_x + threadIdx_x;
  out[tid] = tid;
  assert(tid < limit);
  out[tid] = tid + 1;
}
