// The little of the HIP headers these kernels use, written for clang without them
// (-nogpuinc): HIP's device printf, malloc/free and assert map onto the ROCm device
// libraries' ockl entry points as ROCm's headers map them.
#pragma once
#ifdef HOST_REFERENCE
// reference.cpp: the same printf calls on the host, through the C library ROCm's runtime uses.
#include <cstddef>
#include <cstdio>
#define __global__
#define threadIdx_x 0u
#define blockIdx_x 0u
#define blockDim_x 1u
#else
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
typedef unsigned long size_t;
extern "C" __device__ int printf(const char *, ...);
extern "C" __device__ void *__ockl_dm_alloc(unsigned long size);
extern "C" __device__ void __ockl_dm_dealloc(void *ptr);
extern "C" __device__ unsigned long __ockl_fprintf_stderr_begin();
extern "C" __device__ unsigned long __ockl_fprintf_append_args(unsigned long msg, unsigned num,
    unsigned long a0, unsigned long a1, unsigned long a2, unsigned long a3, unsigned long a4,
    unsigned long a5, unsigned long a6, unsigned is_last);
extern "C" __device__ unsigned long __ockl_fprintf_append_string_n(unsigned long msg,
    const char *str, unsigned long len, unsigned is_last);

static __device__ inline void *malloc(size_t n) { return __ockl_dm_alloc(n); }
static __device__ inline void free(void *p) { __ockl_dm_dealloc(p); }

#define threadIdx_x __builtin_amdgcn_workitem_id_x()
#define blockIdx_x __builtin_amdgcn_workgroup_id_x()
#define blockDim_x __builtin_amdgcn_workgroup_size_x()





// HIP's device assert: the message goes to stderr through hostcall, then the kernel traps
// (llvm.trap, s_trap 2), which ends the dispatch.
static __device__ inline unsigned long cstrlen_z(const char *s) {
  const char *t = s;
  while (*t++) {
  }
  return t - s; // includes the NUL, as append_string_n wants
}
extern "C" __device__ __attribute__((noinline)) void
__assert_fail(const char *assertion, const char *file, unsigned line, const char *function) {
  const char fmt[] = "%s:%u: %s: Device-side assertion `%s' failed.\n";
  unsigned long m = __ockl_fprintf_stderr_begin();
  m = __ockl_fprintf_append_string_n(m, fmt, cstrlen_z(fmt), 0);
  m = __ockl_fprintf_append_string_n(m, file, cstrlen_z(file), 0);
  m = __ockl_fprintf_append_args(m, 1, line, 0, 0, 0, 0, 0, 0, 0);
  m = __ockl_fprintf_append_string_n(m, function, cstrlen_z(function), 0);
  __ockl_fprintf_append_string_n(m, assertion, cstrlen_z(assertion), 1);
  __builtin_trap();
}
#define assert(e) ((e) ? (void)0 : __assert_fail(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#endif
