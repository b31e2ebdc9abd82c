/*
 * Holds a file open as Excel holds a workbook: read and write access, others may only read (FILE_SHARE_READ), so no
 * other program can write it, replace it or delete it. For the Windows smoke (smoke.sh), built with mingw-w64.
 * Usage: hold-like-excel FILE READY STOP: opens FILE, creates READY, and keeps FILE open until STOP exists (or 120 s).
 */
#include <windows.h>
#include <stdio.h>

int wmain(int argc, wchar_t **argv) {
  if (argc != 4) {
    fwprintf(stderr, L"usage: hold-like-excel FILE READY STOP\n");
    return 2;
  }
  HANDLE held = CreateFileW(argv[1], GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ, NULL, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
  if (held == INVALID_HANDLE_VALUE) {
    fwprintf(stderr, L"cannot open %ls: error %lu\n", argv[1], GetLastError());
    return 1;
  }
  HANDLE ready = CreateFileW(argv[2], GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
  CloseHandle(ready);
  for (int i = 0; i < 1200 && GetFileAttributesW(argv[3]) == INVALID_FILE_ATTRIBUTES; i++) Sleep(100);
  CloseHandle(held);
  return 0;
}
