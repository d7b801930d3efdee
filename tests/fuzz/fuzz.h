/* fuzz.h: the one entry point every fuzz target defines (libFuzzer's).
 * `make fuzz` links a target with libFuzzer; replay.c links the same
 * target as a unit test that runs its corpus. */
#ifndef GB_FUZZ_H
#define GB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* Runs one input. Returns 0; aborts when an invariant breaks. */
int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
