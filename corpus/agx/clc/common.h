/* Kernels for wavesim's AGX tests, compiled by Mesa's asahi_clc at Mesa 702c038b916
 * (tools/agx/build_clc_kernels.sh). That asahi_clc compiles the function named `libagx_helper` to G13
 * machine code, so each kernel is written as one: its argument block's address comes from the helper
 * argument registers (nir_load_helper_arg_lo/hi_agx), and the 32 threads of the SIMD group split the
 * elements by their index in the group. */
uint nir_load_helper_arg_lo_agx(void);
uint nir_load_helper_arg_hi_agx(void);

#define ARGS(type)                                                                         \
   global type *args = (global type *)((ulong)nir_load_helper_arg_lo_agx() |              \
                                       ((ulong)nir_load_helper_arg_hi_agx() << 32))
#define LANE get_sub_group_local_id()
