/*
 * A test-only stand-in for bcryptprimitives.dll, for Wine 8.
 *
 * The Go runtime (1.24 and later) takes its random numbers from
 * ProcessPrng in System32\bcryptprimitives.dll, which Windows 10 and later
 * have. Wine 8 has no such DLL, so agentdesk.exe stops at start under it.
 * check-setup.sh builds this file into the scratch Wine prefix's System32,
 * and only when that Wine lacks the export. It is never shipped: the setup
 * installs nothing but Agent Desk, and real Windows has the real DLL.
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -s -o bcryptprimitives.dll processprng.c
 */
#include <windows.h>

/* RtlGenRandom: advapi32's name for it is SystemFunction036. */
BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
	while (len > 0) {
		ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		len -= n;
	}
	return TRUE; /* as on Windows, where it never fails */
}
