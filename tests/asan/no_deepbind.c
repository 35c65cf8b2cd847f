/* Preloaded into Godot for the AddressSanitizer run (tests/run_asan.sh), before the sanitizer's
 * runtime (libasan.so).
 *
 * Godot loads a GDExtension with dlopen(..., RTLD_DEEPBIND) on Linux, and the sanitizer refuses
 * such a library ("RTLD_DEEPBIND ... incompatible with sanitizer runtime"): a library bound
 * deeply would call its own malloc and free, past the sanitizer's. This dlopen clears that one
 * flag and hands the call on to the real dlopen; nothing else changes. Only the sanitizer run
 * uses it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>

typedef void *(*dlopen_fn)(const char *, int);

void *dlopen(const char *file, int mode) {
    static dlopen_fn real = NULL;
    if (real == NULL) {
        real = (dlopen_fn)dlsym(RTLD_NEXT, "dlopen");
        if (real == NULL) {
            return NULL;
        }
    }
    return real(file, mode & ~RTLD_DEEPBIND);
}
