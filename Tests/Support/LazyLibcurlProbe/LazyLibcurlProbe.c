#define CURL_DISABLE_TYPECHECK 1
#include <curl/curl.h>
#include <string.h>

#include "LazyLibcurlProbe.h"

static size_t discard(char *data, size_t size, size_t count, void *context) {
    (void)data;
    (void)context;
    return size * count;
}

#define CHECK(condition) \
    if (!(condition)) return #condition;

const char *lazy_libcurl_probe(void) {
    CHECK(curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK)
    CHECK(strncmp(curl_version(), "libcurl/", 8) == 0)
    CHECK(curl_version_info(CURLVERSION_NOW)->version_num >= 0x074400)
    CHECK(strstr(curl_easy_strerror(CURLE_COULDNT_RESOLVE_HOST), "resolve") != NULL)

    CURL *easy = curl_easy_init();
    CHECK(easy != NULL)
    // One option of each argument type the setter reads: pointer, long, off_t, function.
    CHECK(curl_easy_setopt(easy, CURLOPT_URL, "http://127.0.0.1:9/lazy") == CURLE_OK)
    CHECK(curl_easy_setopt(easy, CURLOPT_TIMEOUT, 7L) == CURLE_OK)
    CHECK(curl_easy_setopt(easy, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)1 << 40) == CURLE_OK)
    CHECK(curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, discard) == CURLE_OK)
    // libcurl checks values: a negative long where it needs a positive one is refused,
    // which shows the value arrived as written.
    CHECK(curl_easy_setopt(easy, CURLOPT_MAXREDIRS, -2L) == CURLE_BAD_FUNCTION_ARGUMENT)
    CHECK(curl_easy_setopt(easy, (CURLoption)99999, 0L) == CURLE_UNKNOWN_OPTION)
    char *effective = NULL;
    CHECK(curl_easy_getinfo(easy, CURLINFO_EFFECTIVE_URL, &effective) == CURLE_OK)
    CHECK(effective != NULL && strcmp(effective, "http://127.0.0.1:9/lazy") == 0)
    // Not in a transfer: libcurl refuses, naming the argument.
    CHECK(curl_easy_pause(easy, CURLPAUSE_CONT) == CURLE_BAD_FUNCTION_ARGUMENT)

    struct curl_slist *list = curl_slist_append(curl_slist_append(NULL, "A: 1"), "B: 2");
    CHECK(list != NULL && list->next != NULL && strcmp(list->next->data, "B: 2") == 0)
    curl_slist_free_all(list);

    CURLU *url = curl_url();
    CHECK(url != NULL)
    CHECK(curl_url_set(url, CURLUPART_URL, "https://example.org/a?b=c", 0) == CURLUE_OK)
    char *host = NULL;
    CHECK(curl_url_get(url, CURLUPART_HOST, &host, 0) == CURLUE_OK)
    CHECK(host != NULL && strcmp(host, "example.org") == 0)
    curl_free(host);

    CURLM *multi = curl_multi_init();
    CHECK(multi != NULL)
    CHECK(curl_multi_setopt(multi, CURLMOPT_MAXCONNECTS, 3L) == CURLM_OK)
    CHECK(curl_multi_add_handle(multi, easy) == CURLM_OK)
    CHECK(curl_multi_assign(multi, 12345, NULL) == CURLM_BAD_SOCKET)
    int running = -1;
    CHECK(curl_multi_socket_action(multi, CURL_SOCKET_TIMEOUT, 0, &running) == CURLM_OK)
    int queued = 0;
    (void)curl_multi_info_read(multi, &queued);
    // ConditionsHTTP's loop: perform, wake a poll, poll (returns at once, woken).
    CHECK(curl_multi_perform(multi, &running) == CURLM_OK)
    CHECK(curl_multi_wakeup(multi) == CURLM_OK)
    int ready = -1;
    CHECK(curl_multi_poll(multi, NULL, 0, 10000, &ready) == CURLM_OK)
    CHECK(curl_multi_remove_handle(multi, easy) == CURLM_OK)
    CHECK(curl_multi_cleanup(multi) == CURLM_OK)
    curl_easy_cleanup(easy);
    return NULL;
}
