/*
 * WINE WORKAROUND, for the Windows smoke under Wine only (test/windows/smoke.sh builds it with Debian's mingw-w64 and
 * puts it beside the smoke's node.exe; the product never ships it). sharp's libvips DLL imports
 * bcryptprimitives.dll!ProcessPrng (Windows 10 and later), which Wine 8's bcryptprimitives lacks, so sharp cannot
 * load under Wine. This stand-in bcryptprimitives.dll exports ProcessPrng, filled by RtlGenRandom (advapi32's
 * SystemFunction036), the generator ProcessPrng's callers used before it.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
