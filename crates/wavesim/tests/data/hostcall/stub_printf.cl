// OpenCL printf compiled the ordinary way (the device libraries linked as builtin bitcode,
// without the printf lowering): the call reaches opencl.bc's printf stub, which reads a printf
// buffer the kernel's metadata does not ask for. wavesim says so in the fault's message.
__kernel void hello(__global int *out) {
  printf("hello %d\n", (int)get_global_id(0));
  out[get_global_id(0)] = 1;
}
