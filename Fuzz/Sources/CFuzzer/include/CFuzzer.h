// libFuzzer's driver (LLVM 11+), called from each fuzz target's own main: SwiftPM gives an
// executable its own entry point, so libFuzzer's main() is never linked in.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
