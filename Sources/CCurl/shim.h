#ifndef CONDITIONS_CCURL_SHIM_H
#define CONDITIONS_CCURL_SHIM_H

#include <curl/curl.h>

// Swift cannot call C's variadic functions, so curl_easy_setopt, curl_easy_getinfo and
// curl_multi_setopt get one typed wrapper per argument type ConditionsHTTP passes. Every other
// libcurl function is called directly.

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*conditions_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode conditions_curl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode conditions_curl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode conditions_curl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode conditions_curl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode conditions_curl_easy_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode conditions_curl_easy_setopt_data_callback(CURL *handle, CURLoption option, conditions_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode conditions_curl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode conditions_curl_easy_getinfo_double(CURL *handle, CURLINFO info, double *value) {
    return curl_easy_getinfo(handle, info, value);
}
/// The string is owned by the handle and valid until it is cleaned up; copy it.
static inline CURLcode conditions_curl_easy_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode conditions_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// CURL_ERROR_SIZE, the size CURLOPT_ERRORBUFFER requires (a macro Swift does not import).
static inline size_t conditions_curl_error_size(void) {
    return CURL_ERROR_SIZE;
}

#endif
