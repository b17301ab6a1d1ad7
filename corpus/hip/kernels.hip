// HIP kernels for wavesim's offload bundle, demangled name and dynamic shared memory tests,
// built by corpus/hip/build.sh without the HIP headers (-nogpuinc): the few declarations the
// HIP runtime headers would give come from the compiler's builtins.
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define threadIdx_x __builtin_amdgcn_workitem_id_x()
#define blockIdx_x __builtin_amdgcn_workgroup_id_x()
#define blockDim_x __builtin_amdgcn_workgroup_size_x()

// _Z5saxpyifPKfPf
__global__ void saxpy(int n, float a, const float *x, float *y) {
    int i = blockIdx_x * blockDim_x + threadIdx_x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// Two overloads: `--kernel scale` is ambiguous, the signature picks one.
__global__ void scale(float *p, float s) { p[threadIdx_x] *= s; }
__global__ void scale(int *p, int s) { p[threadIdx_x] *= s; }

// A template instance: _Z9incrementIfEvPT_ is `void increment<float>(float*)`.
template <typename T> __global__ void increment(T *p) { p[threadIdx_x] += T(1); }
template __global__ void increment<float>(float *);

// Dynamic shared memory (the launch's sharedMemBytes): each block reverses its slice of `data`
// through `extern __shared__` storage sized at launch time.
extern __shared__ float dyn[];
__global__ void reverse_block(float *data) {
    unsigned t = threadIdx_x, n = blockDim_x, base = blockIdx_x * n;
    dyn[t] = data[base + t];
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "workgroup");
    data[base + t] = dyn[n - 1 - t];
}
