//go:build linux && cgo

package kit

/*
#include <stddef.h>

// Weak, so the program still links and runs with a C library that has no
// malloc_trim (musl): the call is then skipped.
extern int malloc_trim(size_t pad) __attribute__((weak));

static void agentdesk_malloc_trim(void) {
	if (malloc_trim) {
		malloc_trim(0);
	}
}
*/
import "C"

// trimMalloc returns the C heap's free pages: glibc returns memory only from
// the heap's top, so freed texture pages stay resident.
func trimMalloc() { C.agentdesk_malloc_trim() }
