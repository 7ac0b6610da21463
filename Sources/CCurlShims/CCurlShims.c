#include "CCurlShims.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

// The libcurl functions the shims call, as X(name without the curl_ prefix). The table fields
// drop the prefix so that curl's function-like macros (its type-checking curl_easy_setopt,
// for one) never expand at a call through the table.
#define CONDITIONS_CURL_FUNCTIONS(X) \
    X(global_init) \
    X(easy_init) X(easy_cleanup) X(easy_strerror) X(easy_setopt) X(easy_getinfo) \
    X(multi_init) X(multi_cleanup) X(multi_setopt) X(multi_add_handle) X(multi_remove_handle) \
    X(multi_perform) X(multi_poll) X(multi_wakeup) X(multi_info_read) \
    X(slist_append) X(slist_free_all)

struct curl_api {
#define CONDITIONS_CURL_FIELD(name) __typeof__(curl_##name) *name;
    CONDITIONS_CURL_FUNCTIONS(CONDITIONS_CURL_FIELD)
#undef CONDITIONS_CURL_FIELD
};

/// Opens `name` and fills `api` from it. On success returns 0 and the library handle in
/// *library; on failure returns -1 with the reason in `message`, the library closed again.
static int open_curl(const char *name, struct curl_api *api, void **library, char *message, size_t size) {
    (void)dlerror();
    void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(message, size, "libcurl could not be loaded: %s", reason != NULL ? reason : name);
        return -1;
    }
    // POSIX guarantees that dlsym's object pointer converts to a function pointer.
#define CONDITIONS_CURL_RESOLVE(name_) \
    { \
        void *symbol = dlsym(handle, "curl_" #name_); \
        if (symbol == NULL) { \
            snprintf(message, size, "libcurl could not be loaded: %s has no curl_" #name_ " (libcurl 7.68 or later is needed)", name); \
            dlclose(handle); \
            return -1; \
        } \
        api->name_ = (__typeof__(api->name_))symbol; \
    }
    CONDITIONS_CURL_FUNCTIONS(CONDITIONS_CURL_RESOLVE)
#undef CONDITIONS_CURL_RESOLVE
    *library = handle;
    return 0;
}

static struct curl_api table;
/// &table once libcurl is loaded and initialised, NULL before (and forever if that failed).
/// The release store publishes the table's fields to every thread that acquires the pointer.
static _Atomic(const struct curl_api *) loaded = NULL;
static char failure[512] = "libcurl could not be loaded";
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

/// Runs once per process. libcurl stays open for the life of the process, as a linked
/// library would; after a failed curl_global_init it stays open unused.
static void load_curl(void) {
    void *library = NULL;
    if (open_curl(CONDITIONS_LIBCURL_NAME, &table, &library, failure, sizeof failure) != 0) return;
    CURLcode code = table.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        const char *reason = table.easy_strerror(code);
        snprintf(failure, sizeof failure, "libcurl could not initialise: %s", reason != NULL ? reason : "unknown error");
        return;
    }
    atomic_store_explicit(&loaded, &table, memory_order_release);
}

int conditions_curl_load(const char **message) {
    pthread_once(&load_once, load_curl);
    if (atomic_load_explicit(&loaded, memory_order_acquire) != NULL) return 0;
    if (message != NULL) *message = failure;
    return -1;
}

int conditions_curl_probe(const char *name, char *message, size_t size) {
    struct curl_api api;
    void *library = NULL;
    if (open_curl(name, &api, &library, message, size) != 0) return -1;
    dlclose(library);
    if (size > 0) message[0] = '\0';
    return 0;
}

static inline const struct curl_api *curl(void) {
    return atomic_load_explicit(&loaded, memory_order_acquire);
}

CURL *conditions_curl_easy_init(void) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_init() : NULL;
}

void conditions_curl_easy_cleanup(CURL *handle) {
    const struct curl_api *api = curl();
    if (api != NULL) api->easy_cleanup(handle);
}

const char *conditions_curl_easy_strerror(CURLcode code) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_strerror(code) : NULL;
}

CURLcode conditions_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_setopt(handle, option, value) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, conditions_curl_data_callback callback) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_setopt(handle, option, callback) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLcode conditions_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->easy_getinfo(handle, info, value) : CURLE_FAILED_INIT;
}

CURLM *conditions_curl_multi_init(void) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_init() : NULL;
}

CURLMcode conditions_curl_multi_cleanup(CURLM *multi) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_cleanup(multi) : CURLM_INTERNAL_ERROR;
}

CURLMcode conditions_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_setopt(multi, option, value) : CURLM_INTERNAL_ERROR;
}

CURLMcode conditions_curl_multi_add_handle(CURLM *multi, CURL *handle) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_add_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode conditions_curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_remove_handle(multi, handle) : CURLM_INTERNAL_ERROR;
}

CURLMcode conditions_curl_multi_perform(CURLM *multi, int *running) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_perform(multi, running) : CURLM_INTERNAL_ERROR;
}

CURLMcode conditions_curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_poll(multi, extra, count, timeout_ms, ready) : CURLM_INTERNAL_ERROR;
}

CURLMcode conditions_curl_multi_wakeup(CURLM *multi) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_wakeup(multi) : CURLM_INTERNAL_ERROR;
}

CURLMsg *conditions_curl_multi_info_read(CURLM *multi, int *remaining) {
    const struct curl_api *api = curl();
    return api != NULL ? api->multi_info_read(multi, remaining) : NULL;
}

struct curl_slist *conditions_curl_slist_append(struct curl_slist *list, const char *text) {
    const struct curl_api *api = curl();
    return api != NULL ? api->slist_append(list, text) : NULL;
}

void conditions_curl_slist_free_all(struct curl_slist *list) {
    const struct curl_api *api = curl();
    if (api != NULL) api->slist_free_all(list);
}

size_t conditions_curl_error_size(void) {
    return CURL_ERROR_SIZE;
}
