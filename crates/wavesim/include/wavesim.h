/* wavesim: run AMD RDNA3 (gfx11) machine code on the CPU with the hardware's exact results.
 *
 * Build: `cargo build --release` produces target/release/libwavesim.so (and the `wavesim` CLI).
 * Link:  cc app.c -Icrates/wavesim/include -Ltarget/release -lwavesim
 *
 * Every function catches internal failures: none aborts the host process. Functions returning
 * int32_t return WAVESIM_OK (0) on success and one of the WAVESIM_ERR_* codes otherwise; the
 * message is then available from wavesim_last_error() on the same thread.
 */
#ifndef WAVESIM_H
#define WAVESIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define WAVESIM_OK 0
#define WAVESIM_ERR_INVALID 1     /* bad arguments, unknown kernel, wrong kernel arguments */
#define WAVESIM_ERR_EXEC 2        /* invalid/unsupported instruction, memory fault, trap */
#define WAVESIM_ERR_WATCHDOG 3    /* a wave ran too many instructions */
#define WAVESIM_ERR_DEADLOCK 4    /* waves of a workgroup deadlocked at s_barrier */
#define WAVESIM_ERR_CODE_OBJECT 5 /* malformed or unsupported code object */
#define WAVESIM_ERR_MEMORY 6      /* device memory: out of bounds, allocation failed */
#define WAVESIM_ERR_INTERNAL 7    /* a wavesim bug (caught) */

/* ---- Raw mode: bare instructions, HOST addresses (unsandboxed by design) ------------------
 *
 * Runs `code_size` bytes of gfx11 instructions at `code` (executed in place: the PC is the host
 * address of the bytes, so s_getpc_b64-relative data works) over gx*gy*gz workgroups of
 * lx*ly*lz work-items, in wave32. Initial state of every wave:
 *   s[0:1]  = kernarg (a host pointer; all memory addresses the kernel uses are host addresses)
 *   rsrc2   = COMPUTE_PGM_RSRC2: USER_SGPR_COUNT (bits 5:1) says where the system SGPRs start:
 *             workgroup id X/Y/Z (bits 7/8/9), workgroup info (bit 10), private segment wave
 *             offset (bit 0), in that order; clang-19 code uses USER_SGPR_COUNT = 15, so the
 *             workgroup id X is in s15. LDS_SIZE (bits 23:15, 512-byte granules) sets the
 *             workgroup's LDS; 0 gives the 64 KiB maximum.
 *   v0      = packed work-item ids: x | y << 10 | z << 20
 *   EXEC    = the lanes holding work-items
 *   FLAT_SCRATCH = the wave's scratch (scratch_size bytes per work-item), or 0
 * Returns WAVESIM_OK or an error code (message: wavesim_last_error()).
 * The caller guarantees that every address the kernel touches is valid host memory. */
int32_t run_asm(const void *code, uint32_t code_size, uint32_t gx, uint32_t gy, uint32_t gz,
                uint32_t lx, uint32_t ly, uint32_t lz, const void *kernarg, uint32_t rsrc2,
                uint32_t scratch_size);

/* run_asm for a named gfx11 variant: target is "gfx1100".."gfx1103" or "gfx1150".."gfx1152"
 * (RDNA3.5 code such as the SALU float instructions s_add_f32 ... s_fmamk_f32); NULL = gfx1100. */
int32_t run_asm_target(const void *code, uint32_t code_size, uint32_t gx, uint32_t gy,
                       uint32_t gz, uint32_t lx, uint32_t ly, uint32_t lz, const void *kernarg,
                       uint32_t rsrc2, uint32_t scratch_size, const char *target);

/* Message of the last failed call on this thread ("" after a success). */
const char *wavesim_last_error(void);

/* ---- Sandboxed mode: a device with its own address space -------------------------------- */

typedef struct WavesimDevice wavesim_device;
typedef struct WavesimModule wavesim_module;

wavesim_device *wavesim_device_create(void);
void wavesim_device_destroy(wavesim_device *dev);
/* Host threads that run workgroups in parallel (default: every core, or WAVESIM_THREADS;
   1 = one after another, in order). */
int32_t wavesim_set_threads(wavesim_device *dev, uint32_t threads);

/* Device memory: `addr` values are device addresses, not host pointers. */
int32_t wavesim_alloc(wavesim_device *dev, uint64_t size, uint64_t *addr);
int32_t wavesim_free(wavesim_device *dev, uint64_t addr);
int32_t wavesim_write(wavesim_device *dev, uint64_t addr, const void *src, uint64_t size);
int32_t wavesim_read(wavesim_device *dev, uint64_t addr, void *dst, uint64_t size);

/* Loads a code object (the ELF bytes clang/hipcc emit, code object v4-v6, gfx11). */
int32_t wavesim_load(wavesim_device *dev, const void *elf, uint64_t size, wavesim_module **module);
void wavesim_module_destroy(wavesim_module *module);

/* Runs `kernel` over grid[0..dims) work-items in workgroups of local[0..dims).
 * kernarg/kernarg_size: the explicit arguments laid out at the offsets of the kernel's metadata
 * (buffers as 64-bit device addresses); hidden arguments and __local pointer slots are filled
 * in. local_arg_sizes[i] = bytes of dynamic LDS for the i-th __local pointer argument. */
int32_t wavesim_dispatch(wavesim_device *dev, const wavesim_module *module, const char *kernel,
                         uint32_t dims, const uint32_t *grid, const uint32_t *local,
                         const void *kernarg, uint64_t kernarg_size,
                         const uint32_t *local_arg_sizes, uint32_t n_local_args);

/* ---- Text results for any ISA -----------------------------------------------------------
 *
 * Each writes its text and a NUL into `out` (`out_size` bytes) and stores the bytes that takes
 * (text + NUL) in `*needed` when `needed` is not NULL. A buffer too small returns
 * WAVESIM_ERR_INVALID with `*needed` set and nothing written: call again with a larger one. */

/* Disassembly: an RDNA3 code object or offload bundle (as llvm-objdump -d prints it), an R700
 * object (as llc-19 prints it), or bare bytes (`raw` != 0) of `target` ("gfx1100" ... "gfx1151",
 * "rv770", "rv730", "rv710", "agx"; NULL = gfx1100; `wave64` for RDNA3 bare bytes). */
int32_t wavesim_disassemble(const void *bytes, uint64_t size, const char *target, int32_t raw,
                            int32_t wave64, char *out, uint64_t out_size, uint64_t *needed);
/* Runs an R700 shader object with a runner configuration (TOML text); the exports, one line per
 * thread and target, as `wavesim run SHADER.o --config CFG.toml` prints them. */
int32_t wavesim_run_r700(const void *object, uint64_t size, const char *config_toml, char *out,
                         uint64_t out_size, uint64_t *needed);
/* Runs an AGX job (TOML text). `code` (NULL when the configuration names its code or assembly)
 * is the machine code; files the configuration names are read relative to `config_dir` (NULL =
 * the working directory). The outputs as `wavesim run --target agx` prints them. */
int32_t wavesim_run_agx(const char *config_toml, const char *config_dir, const void *code,
                        uint64_t code_size, char *out, uint64_t out_size, uint64_t *needed);
/* The text the device's last dispatch printed with OpenCL printf ("" when none). */
int32_t wavesim_printf_output(const wavesim_device *dev, char *out, uint64_t out_size,
                              uint64_t *needed);

/* ---- Raw dispatch ABI for emulator drop-ins (tinygrad's mock GPU, docs/TINYGRAD.md) -------
 *
 * A dispatch described by the registers a driver programs before PM4 DISPATCH_DIRECT, in
 * host-pointer mode (addresses are host addresses, as in run_asm). Register fields follow LLVM's
 * AMDGPUUsage tables "compute_pgm_rsrc1/2 for GFX6-GFX12" and "compute_pgm_rsrc3 for
 * GFX10-GFX11". A field wavesim cannot honour (DEBUG_MODE, CDBG_USER, TRAP_PRESENT, the address
 * watch / memory exception enables, SHARED_VGPR_COUNT, TRAP_ON_START/END) or a reserved field
 * that is not 0 is refused with WAVESIM_ERR_INVALID and a message naming it. */

/* A host address range the caller mapped for the device. */
typedef struct wavesim_host_range {
    uint64_t start; /* first host address */
    uint64_t size;  /* bytes */
} wavesim_host_range;

typedef struct wavesim_raw_dispatch {
    /* The kernel's first instruction (the entry point), executed in place; bytes after the
     * kernel's code (descriptors, notes, a truncated last instruction) are tolerated and only
     * fail if executed. */
    const void *code;
    /* Bytes readable at `code` (e.g. up to the end of the mapped range holding it). */
    uint64_t code_size;
    /* COMPUTE_USER_DATA_0.. : s0, s1, ... of every wave, as the hardware loads them. */
    const uint32_t *user_data;
    /* Values at `user_data`: at least RSRC2.USER_SGPR_COUNT, at most 16 (the registers past
     * USER_SGPR_COUNT are not loaded, as on hardware). */
    uint32_t user_data_count;
    /* COMPUTE_PGM_RSRC1: VGPRS [5:0] (VGPR allocation), PRIORITY [11:10] (STATUS.SPI_PRIO),
     * FLOAT_ROUND_MODE_32/16_64 [13:12]/[15:14] and FLOAT_DENORM_MODE_32/16_64 [17:16]/[19:18]
     * (MODE.FP_ROUND, MODE.FP_DENORM), PRIV [20] (STATUS.PRIV), DX10_CLAMP [21], IEEE_MODE [23],
     * FP16_OVFL [26] (MODE), WGP_MODE [29]; BULKY [24], MEM_ORDERED [30] and FWD_PROGRESS [31]
     * hold by construction. */
    uint32_t rsrc1;
    /* COMPUTE_PGM_RSRC2: SCRATCH_EN [0] (scratch and the wave offset SGPR), USER_SGPR_COUNT
     * [5:1], TGID_X/Y/Z_EN [7]/[8]/[9] and TG_SIZE_EN [10] (system SGPRs after the user SGPRs,
     * in that order), TIDIG_COMP_CNT [12:11] (work-item ids packed in v0), LDS_SIZE [23:15]
     * (512-byte granules, as the driver fills it: 0 = no LDS), EXCP_EN [30:24] (MODE.EXCP_EN:
     * an enabled exception that occurs stops the dispatch, as no trap handler is installed). */
    uint32_t rsrc2;
    /* COMPUTE_PGM_RSRC3 (gfx11): SHARED_VGPR_COUNT [3:0] must be 0, INST_PREF_SIZE [9:4] and
     * IMAGE_OP [31] have no functional effect, TRAP_ON_START/END [10]/[11] are refused. */
    uint32_t rsrc3;
    /* Workgroups in X, Y, Z (the DISPATCH_DIRECT dimensions). */
    uint32_t groups[3];
    /* Work-items per workgroup (COMPUTE_NUM_THREAD_X/Y/Z). */
    uint32_t local[3];
    /* 32 or 64: COMPUTE_DISPATCH_INITIATOR.CS_W32_EN (bit 15) set = 32. */
    uint32_t wave_size;
    /* Scratch bytes per work-item (used when RSRC2.SCRATCH_EN is set); with tinygrad's mock:
     * COMPUTE_TMPRING_SIZE.WAVESIZE (bits 25:12) * 4 on gfx11. */
    uint32_t scratch_size;
    /* "gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151", or a number: 1100 ...
     * or KFD's gfx_target_version 110000 ...; NULL = gfx1100. */
    const char *target;
    /* The host ranges the caller mapped for the device; NULL = every address is a host address
     * (unsandboxed). With ranges, an access not wholly inside them (also one that starts inside
     * a range and ends past it) stops the dispatch with WAVESIM_ERR_MEMORY and a message naming
     * the instruction, lane and address. Ranges are mapped in whole 4 KiB pages, as a driver
     * maps GPU memory (a wide load past a buffer's end inside its last page succeeds, as on the
     * GPU; the page's other bytes must then be host memory too); byte-exact ranges:
     * wavesim_set_raw_exact_ranges(1). A range whose end wraps past 2^64 is WAVESIM_ERR_ARGS. */
    const wavesim_host_range *ranges;
    /* Entries at `ranges` (0 with a non-NULL `ranges`: no memory access is allowed). */
    uint64_t range_count;
    /* Watchdog: most instructions one wave may execute; 0 = the default (100 million). */
    uint64_t max_wave_instructions;
} wavesim_raw_dispatch;

/* Runs one raw dispatch. Returns WAVESIM_OK or an error code (message: wavesim_last_error()). */
int32_t wavesim_dispatch_raw(const wavesim_raw_dispatch *d);

/* Raw dispatches that follow (in every thread) map their ranges byte-exactly (`exact` != 0) or
 * in whole 4 KiB pages (0, the default). Returns WAVESIM_OK. */
int32_t wavesim_set_raw_exact_ranges(int32_t exact);

/* ---- Execution engine (RDNA3) ------------------------------------------------------------
 * 0 = interpreter, 1 = JIT (compile every block it supports before it runs), 2 = auto (interpret
 * first, compile blocks that run often; the default unless WAVESIM_ENGINE says otherwise).
 * Results are identical under every engine. */
int32_t wavesim_set_engine(wavesim_device *dev, int32_t engine);
/* Host threads of run_asm, wavesim_dispatch_raw and devices created afterwards (process-wide,
 * over WAVESIM_THREADS): by default every core; 1 runs workgroups one after another, in order, on
 * the calling thread; 0 restores the default. Results of race-free kernels do not depend on it.
 * Returns WAVESIM_OK. */
int32_t wavesim_set_default_threads(uint32_t threads);
/* The engine of run_asm and of devices created afterwards (process-wide). */
int32_t wavesim_set_default_engine(int32_t engine);
/* The JIT's on-disk compiled-code cache (process-wide, over the WAVESIM_JIT_CACHE environment
 * variable): compiled code is kept in directory dir (created when first written) and loaded from
 * there by later processes instead of compiled again. NULL or "" turns it off. dir must be
 * writable only by users trusted to run code as this process. Cache I/O errors never fail a run
 * (the code is then compiled). Returns WAVESIM_OK. */
int32_t wavesim_set_jit_cache(const char *dir);

#ifdef __cplusplus
}
#endif

#endif /* WAVESIM_H */
