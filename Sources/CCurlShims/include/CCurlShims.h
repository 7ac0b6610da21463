#ifndef CONDITIONS_CCURL_SHIMS_H
#define CONDITIONS_CCURL_SHIMS_H

// Typed entry points for libcurl's variadic functions, which Swift cannot call directly.
// Each wrapper passes exactly the argument type the option documents.

#include <curl/curl.h>
#include <stddef.h>
#include <sys/types.h>

/// The signature of CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*conditions_curl_data_callback)(char *data, size_t size, size_t count, void *userdata);

/// curl_global_init(CURL_GLOBAL_DEFAULT), whose flag is a macro Swift cannot see.
CURLcode conditions_curl_global_init(void);

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

CURLMcode conditions_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/// CURL_ERROR_SIZE, the size CURLOPT_ERRORBUFFER requires.
size_t conditions_curl_error_size(void);

#endif
