/* ProcessPrng, as bcryptprimitives.dll exports it on Windows 10 and later,
   for Wine releases that lack it (Debian's Wine 8). Go 1.22 and later
   takes its random numbers from it and cannot start without it.
   It fills the buffer from RtlGenRandom (advapi32's SystemFunction036).
   scripts/wine/setup.sh builds it into bcryptprimitives.dll. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buf, ULONG len);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, n))
            return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
