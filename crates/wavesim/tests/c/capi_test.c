/* Drives wavesim's C ABI the way a C host does: run_asm with raw code and host buffers, and the
 * sandboxed handle API with a real code object. Prints one line per check; exit code 0 = all ok.
 * Usage: capi_test SAXPY_HSACO */
#include "wavesim.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                                                      \
    do {                                                                                      \
        if (!(cond)) {                                                                        \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                       \
            printf(__VA_ARGS__);                                                              \
            printf(" (last error: %s)\n", wavesim_last_error());                              \
            failures++;                                                                       \
        }                                                                                     \
    } while (0)

/* Each work-item stores its work-item id to out[group * 64 + id]; out comes from kernarg[0]. */
static const uint32_t STORE_IDS[] = {
    0xf4040080, 0xf8000000, /* s_load_b64 s[2:3], s[0:1], 0x0 */
    0x9604c00f,             /* s_mul_i32 s4, s15, 64 */
    0x4a020004,             /* v_add_nc_u32_e32 v1, s4, v0 */
    0x30020282,             /* v_lshlrev_b32_e32 v1, 2, v1 */
    0xbf89fc07,             /* s_waitcnt lgkmcnt(0) */
    0xdc6a0000, 0x00020001, /* global_store_b32 v1, v0, s[2:3] */
    0xbfb00000,             /* s_endpgm */
};

static void test_run_asm(void) {
    uint32_t out[3 * 64 + 8];
    for (int i = 0; i < 3 * 64 + 8; i++) out[i] = 0xdeadbeef;
    struct { uint32_t *out; } kernarg = {out};
    /* rsrc2: USER_SGPR_COUNT = 15 (bits 5:1), workgroup id X enabled (bit 7): id X in s15. */
    uint32_t rsrc2 = (15u << 1) | (1u << 7);
    int32_t rc = run_asm(STORE_IDS, sizeof STORE_IDS, 3, 1, 1, 64, 1, 1, &kernarg, rsrc2, 0);
    CHECK(rc == WAVESIM_OK, "run_asm returned %d", rc);
    int bad = 0;
    for (int i = 0; i < 3 * 64; i++) bad += out[i] != (uint32_t)(i % 64);
    for (int i = 3 * 64; i < 3 * 64 + 8; i++) bad += out[i] != 0xdeadbeef;
    CHECK(bad == 0, "run_asm: %d wrong elements (out[70] = %u)", bad, out[70]);

    /* Bad input: no code, an invalid word, a zero-size workgroup: errors, never a crash. */
    rc = run_asm(NULL, 0, 1, 1, 1, 32, 1, 1, &kernarg, rsrc2, 0);
    CHECK(rc == WAVESIM_ERR_INVALID, "null code gave %d", rc);
    static const uint32_t INVALID[] = {0xbfff0000, 0xbfb00000};
    rc = run_asm(INVALID, sizeof INVALID, 1, 1, 1, 32, 1, 1, &kernarg, rsrc2, 0);
    CHECK(rc == WAVESIM_ERR_EXEC, "invalid instruction gave %d", rc);
    CHECK(strstr(wavesim_last_error(), "PC 0x0") != NULL, "message: %s", wavesim_last_error());
    rc = run_asm(STORE_IDS, sizeof STORE_IDS, 1, 1, 1, 0, 1, 1, &kernarg, rsrc2, 0);
    CHECK(rc == WAVESIM_ERR_INVALID, "zero workgroup size gave %d", rc);
}

static void test_handles(const char *hsaco) {
    FILE *f = fopen(hsaco, "rb");
    CHECK(f != NULL, "cannot open %s", hsaco);
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *elf = malloc(size);
    CHECK(fread(elf, 1, size, f) == (size_t)size, "short read");
    fclose(f);

    wavesim_device *dev = wavesim_device_create();
    CHECK(dev != NULL, "no device");
    wavesim_module *mod = NULL;
    CHECK(wavesim_load(dev, "junk", 4, &mod) == WAVESIM_ERR_CODE_OBJECT, "junk ELF accepted");
    int32_t rc = wavesim_load(dev, elf, size, &mod);
    CHECK(rc == WAVESIM_OK && mod != NULL, "load gave %d", rc);

    enum { N = 1000 };
    float x[N], y[N], want[N], got[N];
    for (int i = 0; i < N; i++) {
        x[i] = (float)i * 0.25f - 7.0f;
        y[i] = 3.0f - (float)i / 3.0f;
        want[i] = fmaf(2.5f, x[i], y[i]); /* the kernel contracts a*x+y to one FMA */
    }
    uint64_t dx = 0, dy = 0;
    CHECK(wavesim_alloc(dev, sizeof x, &dx) == WAVESIM_OK, "alloc x");
    CHECK(wavesim_alloc(dev, sizeof y, &dy) == WAVESIM_OK, "alloc y");
    CHECK(wavesim_write(dev, dx, x, sizeof x) == WAVESIM_OK, "write x");
    CHECK(wavesim_write(dev, dy, y, sizeof y) == WAVESIM_OK, "write y");
    /* saxpy(uint n, float a, global const float *x, global float *y): offsets 0, 4, 8, 16. */
    unsigned char kernarg[24];
    uint32_t n = N;
    float a = 2.5f;
    memcpy(kernarg, &n, 4);
    memcpy(kernarg + 4, &a, 4);
    memcpy(kernarg + 8, &dx, 8);
    memcpy(kernarg + 16, &dy, 8);
    uint32_t grid[1] = {N}, local[1] = {256};
    rc = wavesim_dispatch(dev, mod, "saxpy", 1, grid, local, kernarg, sizeof kernarg, NULL, 0);
    CHECK(rc == WAVESIM_OK, "dispatch gave %d", rc);
    CHECK(wavesim_read(dev, dy, got, sizeof got) == WAVESIM_OK, "read y");
    CHECK(memcmp(got, want, sizeof got) == 0, "saxpy results differ (y[5] = %g, want %g)",
          got[5], want[5]);

    rc = wavesim_dispatch(dev, mod, "nope", 1, grid, local, kernarg, sizeof kernarg, NULL, 0);
    CHECK(rc == WAVESIM_ERR_INVALID && strstr(wavesim_last_error(), "saxpy") != NULL,
          "unknown kernel gave %d: %s", rc, wavesim_last_error());
    rc = wavesim_dispatch(dev, mod, "saxpy", 1, grid, local, kernarg, 8, NULL, 0);
    CHECK(rc == WAVESIM_ERR_INVALID, "short kernarg gave %d", rc);
    CHECK(wavesim_read(dev, 0x10, got, 4) == WAVESIM_ERR_MEMORY, "read of unmapped memory");
    wavesim_module_destroy(mod);
    wavesim_device_destroy(dev);
    free(elf);
}

int main(int argc, char **argv) {
    test_run_asm();
    if (argc > 1) test_handles(argv[1]);
    printf("%s: %d failure(s)\n", failures ? "FAILED" : "ok", failures);
    return failures ? 1 : 0;
}
