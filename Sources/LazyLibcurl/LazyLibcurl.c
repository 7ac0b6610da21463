// libcurl's functions, opened from libcurl.so.4 on the first call.
//
// Why (docs/performance.md, scenario 1; issue 23 measured it): linked normally, libcurl.so.4 and the ~30 libraries
// it needs (OpenSSL, GnuTLS, nettle, Kerberos, LDAP, libssh2, nghttp2…) are loaded and
// relocated at every start, ~5 ms and ~6 MiB of a local answer that never uses the network,
// which then misses the budget of twice the speed of the Python + PyEphem peer. This target
// defines every libcurl function the program calls: ConditionsHTTP's, and those of the
// statically linked FoundationNetworking, which the MCP SDK imports for transports a stdio
// server never uses. The executable's own definitions satisfy every reference, so built with
// `-disable-autolink-library curl` (scripts/dev's release flags) it does not need libcurl.so.4
// at all; without that flag libcurl stays a needed library and these functions still forward
// to it: only the start-up saving is lost.
//
// Each function forwards to libcurl's own, found with dlsym in the library opened here: a
// lookup through that handle searches libcurl and its dependencies, never this executable,
// so a call cannot come back here.
#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "LazyLibcurl.h"

#define LAZY_CURL_FUNCTIONS(X) \
    X(global_init) X(version) X(version_info) X(free) \
    X(easy_init) X(easy_cleanup) X(easy_setopt) X(easy_getinfo) X(easy_pause) X(easy_strerror) \
    X(multi_init) X(multi_cleanup) X(multi_setopt) X(multi_add_handle) X(multi_remove_handle) \
    X(multi_assign) X(multi_socket_action) X(multi_info_read) X(multi_perform) X(multi_poll) X(multi_wakeup) \
    X(slist_append) X(slist_free_all) \
    X(url) X(url_get) X(url_set)

// Field names without the curl_ prefix: no function-like macro of curl.h applies to them.
static struct {
#define LAZY_CURL_FIELD(name) __typeof__(curl_##name) *name;
    LAZY_CURL_FUNCTIONS(LAZY_CURL_FIELD)
#undef LAZY_CURL_FIELD
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
/// NULL once libcurl is open and every function found; the reason otherwise.
static const char *failure = "libcurl.so.4 was not opened";
static char failure_text[512];

static void open_libcurl(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure_text, sizeof failure_text, "libcurl.so.4 could not be loaded: %s", reason != NULL ? reason : "unknown error");
        failure = failure_text;
        return;
    }
    // POSIX guarantees that dlsym's object pointer converts to a function pointer.
#define LAZY_CURL_RESOLVE(name) \
    real.name = (__typeof__(real.name))dlsym(library, "curl_" #name); \
    if (real.name == NULL) { \
        snprintf(failure_text, sizeof failure_text, "libcurl.so.4 has no curl_" #name " (libcurl 7.68 or later is needed)"); \
        failure = failure_text; \
        return; \
    }
    LAZY_CURL_FUNCTIONS(LAZY_CURL_RESOLVE)
#undef LAZY_CURL_RESOLVE
    failure = NULL;
}

const char *conditions_libcurl_open(void) {
    pthread_once(&once, open_libcurl);
    return failure;
}

/// The real function, libcurl opened first. ConditionsHTTP asks `conditions_libcurl_open`
/// before its first call and stops there when libcurl is missing; only FoundationNetworking,
/// which the program never asks for a transfer, could get here without libcurl, and it
/// cannot go on without it, as a program linked to a missing libcurl would not have started.
#define REAL(name) (real_or_exit(), real.name)
static void real_or_exit(void) {
    const char *reason = conditions_libcurl_open();
    if (reason != NULL) {
        fprintf(stderr, "conditions: %s\n", reason);
        abort();
    }
}

CURLcode curl_global_init(long flags) { return REAL(global_init)(flags); }
char *curl_version(void) { return REAL(version)(); }
curl_version_info_data *curl_version_info(CURLversion stamp) { return REAL(version_info)(stamp); }
void curl_free(void *pointer) { REAL(free)(pointer); }

CURL *curl_easy_init(void) { return REAL(easy_init)(); }
void curl_easy_cleanup(CURL *handle) { REAL(easy_cleanup)(handle); }
CURLcode curl_easy_pause(CURL *handle, int bitmask) { return REAL(easy_pause)(handle, bitmask); }
const char *curl_easy_strerror(CURLcode code) { return REAL(easy_strerror)(code); }

// The variadic setters take exactly one argument whose type the option number's range
// names (curl.h, CURLOPTTYPE_*); it is read with that type and passed on.
CURLcode curl_easy_setopt(CURL *handle, CURLoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    CURLcode code;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        code = REAL(easy_setopt)(handle, option, va_arg(arguments, long));
    } else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
        code = REAL(easy_setopt)(handle, option, va_arg(arguments, void *));
    } else if (option < CURLOPTTYPE_OFF_T) {
        // A function pointer; curl itself reads these as one type and casts.
        code = REAL(easy_setopt)(handle, option, va_arg(arguments, void (*)(void)));
    } else if (option < CURLOPTTYPE_BLOB) {
        code = REAL(easy_setopt)(handle, option, va_arg(arguments, curl_off_t));
    } else {
        code = REAL(easy_setopt)(handle, option, va_arg(arguments, void *));
    }
    va_end(arguments);
    return code;
}

/// Every CURLINFO takes a pointer to where the answer goes.
CURLcode curl_easy_getinfo(CURL *handle, CURLINFO info, ...) {
    va_list arguments;
    va_start(arguments, info);
    void *destination = va_arg(arguments, void *);
    va_end(arguments);
    return REAL(easy_getinfo)(handle, info, destination);
}

CURLM *curl_multi_init(void) { return REAL(multi_init)(); }
CURLMcode curl_multi_cleanup(CURLM *multi) { return REAL(multi_cleanup)(multi); }
CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) { return REAL(multi_add_handle)(multi, handle); }
CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) { return REAL(multi_remove_handle)(multi, handle); }
CURLMcode curl_multi_assign(CURLM *multi, curl_socket_t socket, void *pointer) { return REAL(multi_assign)(multi, socket, pointer); }
CURLMcode curl_multi_socket_action(CURLM *multi, curl_socket_t socket, int mask, int *running) {
    return REAL(multi_socket_action)(multi, socket, mask, running);
}
CURLMsg *curl_multi_info_read(CURLM *multi, int *remaining) { return REAL(multi_info_read)(multi, remaining); }
CURLMcode curl_multi_perform(CURLM *multi, int *running) { return REAL(multi_perform)(multi, running); }
CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready) {
    return REAL(multi_poll)(multi, extra, count, timeout, ready);
}
CURLMcode curl_multi_wakeup(CURLM *multi) { return REAL(multi_wakeup)(multi); }

/// Multi options use the same CURLOPTTYPE_* ranges as easy ones.
CURLMcode curl_multi_setopt(CURLM *multi, CURLMoption option, ...) {
    va_list arguments;
    va_start(arguments, option);
    CURLMcode code;
    if (option < CURLOPTTYPE_OBJECTPOINT) {
        code = REAL(multi_setopt)(multi, option, va_arg(arguments, long));
    } else if (option < CURLOPTTYPE_FUNCTIONPOINT) {
        code = REAL(multi_setopt)(multi, option, va_arg(arguments, void *));
    } else if (option < CURLOPTTYPE_OFF_T) {
        code = REAL(multi_setopt)(multi, option, va_arg(arguments, void (*)(void)));
    } else {
        code = REAL(multi_setopt)(multi, option, va_arg(arguments, curl_off_t));
    }
    va_end(arguments);
    return code;
}

struct curl_slist *curl_slist_append(struct curl_slist *list, const char *string) { return REAL(slist_append)(list, string); }
void curl_slist_free_all(struct curl_slist *list) { REAL(slist_free_all)(list); }

CURLU *curl_url(void) { return REAL(url)(); }
CURLUcode curl_url_get(CURLU *handle, CURLUPart part, char **text, unsigned int flags) { return REAL(url_get)(handle, part, text, flags); }
CURLUcode curl_url_set(CURLU *handle, CURLUPart part, const char *text, unsigned int flags) { return REAL(url_set)(handle, part, text, flags); }
