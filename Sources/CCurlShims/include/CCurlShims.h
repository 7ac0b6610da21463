#ifndef CONDITIONS_CCURL_SHIMS_H
#define CONDITIONS_CCURL_SHIMS_H

// Every libcurl call ConditionsHTTP makes goes through these functions. libcurl itself is not
// linked: it is opened with dlopen on the first request (conditions_curl_load), so a process
// that never uses the network never loads libcurl and its dependency chain (OpenSSL, GnuTLS,
// Kerberos, LDAP, ...: ~5.5 MiB of resident memory). The headers still provide the types and
// constants.
//
// Before conditions_curl_load has succeeded, every function below fails harmlessly: those
// returning a code return CURLE_FAILED_INIT or CURLM_INTERNAL_ERROR, those returning a pointer
// return NULL, the others do nothing.
//
// The variadic curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt, which Swift cannot
// call, have one typed wrapper per argument type they are used with.

#include <curl/curl.h>
#include <stddef.h>
#include <sys/types.h>

/// The name of the libcurl conditions_curl_load opens (its soname: what linking would record).
#if defined(__APPLE__)
#define CONDITIONS_LIBCURL_NAME "libcurl.4.dylib"
#else
#define CONDITIONS_LIBCURL_NAME "libcurl.so.4"
#endif

/// Opens libcurl, resolves every function below and runs curl_global_init, once per process;
/// later calls return the first call's outcome. Thread-safe.
/// Returns 0 on success. Otherwise returns -1 and points *message (if message is not NULL) at a
/// description that stays valid for the life of the process, such as
/// "libcurl could not be loaded: libcurl.so.4: cannot open shared object file: ...".
int conditions_curl_load(const char **message);

/// Checks that the library `name` can be opened and provides every function the shims use,
/// without keeping it or initialising it (for tests and diagnostics). Returns 0 if so;
/// otherwise -1, with a message as conditions_curl_load's written to `message` (`size` bytes,
/// always terminated).
int conditions_curl_probe(const char *name, char *message, size_t size);

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*conditions_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);

CURL *conditions_curl_easy_init(void);
void conditions_curl_easy_cleanup(CURL *handle);
/// The text is static in libcurl; NULL before libcurl is loaded.
const char *conditions_curl_easy_strerror(CURLcode code);

CURLcode conditions_curl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode conditions_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode conditions_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode conditions_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode conditions_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value);
CURLcode conditions_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, conditions_curl_data_callback callback);

CURLcode conditions_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode conditions_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value);
/// The string is owned by the handle and valid until it is cleaned up; copy it.
CURLcode conditions_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value);

CURLM *conditions_curl_multi_init(void);
CURLMcode conditions_curl_multi_cleanup(CURLM *multi);
CURLMcode conditions_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);
CURLMcode conditions_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode conditions_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode conditions_curl_multi_perform(CURLM *multi, int *running);
CURLMcode conditions_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready);
CURLMcode conditions_curl_multi_wakeup(CURLM *multi);
CURLMsg *conditions_curl_multi_info_read(CURLM *multi, int *remaining);

/// NULL when libcurl is not loaded or cannot allocate; `list` is then unchanged.
struct curl_slist *conditions_curl_slist_append(struct curl_slist *list, const char *text);
void conditions_curl_slist_free_all(struct curl_slist *list);

/// CURL_ERROR_SIZE, the size CURLOPT_ERRORBUFFER requires.
size_t conditions_curl_error_size(void);

#endif
