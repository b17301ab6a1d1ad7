// The expected text of formats(5, 3.25): the same printf calls made by the host C library,
// which is what ROCm's runtime formats each conversion with (ROCclr devhcprintf.cpp).
#define HOST_REFERENCE 1
#include "hip_runtime.h"
#include "formats.inc"
int main() {
  formats(5, 3.25);
  return 0;
}
