/* error.c - the error channel: the message of the calling thread's last failure, which every
 * entry point clears on success (dmlcGetLastErrorMessage). */
#include "dmlc_internal.h"

#include <stdarg.h>
#include <stdio.h>

/* ---- The error channel -------------------------------------------------------------- */
#if defined(_MSC_VER)
#  define DMLC_THREAD_LOCAL __declspec(thread)
#else
#  define DMLC_THREAD_LOCAL _Thread_local
#endif

static DMLC_THREAD_LOCAL char g_message[1024];

HRESULT dmlc_fail(HRESULT hr, const char* who, const char* fmt, ...)
{
    va_list ap;
    int n = snprintf(g_message, sizeof g_message, "%s: ", who);
    if (n < 0 || (size_t)n >= sizeof g_message) n = 0;
    va_start(ap, fmt);
    vsnprintf(g_message + n, sizeof g_message - (size_t)n, fmt, ap);
    va_end(ap);
    return hr;
}

void dmlc_clear_error(void) { g_message[0] = '\0'; }

const char* dmlcGetLastErrorMessage(void) { return g_message; }
