// libmosquitto's functions, opened from libmosquitto.so.1 on the first call.
//
// Why: linked normally, libmosquitto.so.1 and what it needs (libssl, libcrypto, libcares) are
// loaded and relocated at every start of `conditions`, though only `serve` with an "mqtt"
// section ever publishes; the local answer's start-up budget (docs/performance.md, scenario 1)
// should not pay for it. The same pattern as LazyLibcurl: this target defines each function
// ConditionsMQTT calls, forwarding to the library's own, found with dlsym in the handle opened
// here (a lookup through that handle never finds these definitions, so a call cannot loop).
// The .deb lists libmosquitto1 in Depends by hand: dpkg-shlibdeps cannot see a dlopen.
#include <mosquitto.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "LazyMosquitto.h"

#define LAZY_MOSQUITTO_FUNCTIONS(X) \
    X(lib_init) X(new) X(destroy) X(user_data_set) X(threaded_set) X(int_option) X(username_pw_set) X(tls_set) \
    X(will_set) X(reconnect_delay_set) X(connect) X(disconnect) X(loop_forever) X(publish) X(subscribe) \
    X(connect_callback_set) X(disconnect_callback_set) X(message_callback_set) X(strerror) X(connack_string)

static struct {
#define LAZY_MOSQUITTO_FIELD(name) __typeof__(mosquitto_##name) *name;
    LAZY_MOSQUITTO_FUNCTIONS(LAZY_MOSQUITTO_FIELD)
#undef LAZY_MOSQUITTO_FIELD
} real;

static pthread_once_t once = PTHREAD_ONCE_INIT;
/// NULL once libmosquitto is open, every function found and the library initialised.
static const char *failure = "libmosquitto.so.1 was not opened";
static char failure_text[512];

static void open_libmosquitto(void) {
    void *library = dlopen("libmosquitto.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        snprintf(failure_text, sizeof failure_text, "libmosquitto.so.1 could not be loaded (Debian's libmosquitto1): %s",
                 reason != NULL ? reason : "unknown error");
        failure = failure_text;
        return;
    }
    // POSIX guarantees that dlsym's object pointer converts to a function pointer.
#define LAZY_MOSQUITTO_RESOLVE(name) \
    real.name = (__typeof__(real.name))dlsym(library, "mosquitto_" #name); \
    if (real.name == NULL) { \
        snprintf(failure_text, sizeof failure_text, "libmosquitto.so.1 has no mosquitto_" #name " (libmosquitto 2.0 or later is needed)"); \
        failure = failure_text; \
        return; \
    }
    LAZY_MOSQUITTO_FUNCTIONS(LAZY_MOSQUITTO_RESOLVE)
#undef LAZY_MOSQUITTO_RESOLVE
    int code = real.lib_init();
    if (code != MOSQ_ERR_SUCCESS) {
        snprintf(failure_text, sizeof failure_text, "libmosquitto could not start: %s", real.strerror(code));
        failure = failure_text;
        return;
    }
    failure = NULL;
}

const char *conditions_libmosquitto_open(void) {
    pthread_once(&once, open_libmosquitto);
    return failure;
}

/// The real function. ConditionsMQTT asks `conditions_libmosquitto_open` before it makes a
/// client and stops there when the library is missing, so no call gets here without it; if one
/// did, it could not go on, as a program linked to a missing library would not have started.
#define REAL(name) (real_or_exit(), real.name)
static void real_or_exit(void) {
    const char *reason = conditions_libmosquitto_open();
    if (reason != NULL) {
        fprintf(stderr, "conditions: %s\n", reason);
        abort();
    }
}

int mosquitto_lib_init(void) { return conditions_libmosquitto_open() == NULL ? MOSQ_ERR_SUCCESS : MOSQ_ERR_NOT_SUPPORTED; }
struct mosquitto *mosquitto_new(const char *id, bool clean_session, void *obj) { return REAL(new)(id, clean_session, obj); }
void mosquitto_destroy(struct mosquitto *mosq) { REAL(destroy)(mosq); }
void mosquitto_user_data_set(struct mosquitto *mosq, void *obj) { REAL(user_data_set)(mosq, obj); }
int mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) { return REAL(threaded_set)(mosq, threaded); }
int mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) { return REAL(int_option)(mosq, option, value); }
int mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return REAL(username_pw_set)(mosq, username, password);
}
int mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile, const char *keyfile,
                      int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return REAL(tls_set)(mosq, cafile, capath, certfile, keyfile, pw_callback);
}
int mosquitto_will_set(struct mosquitto *mosq, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return REAL(will_set)(mosq, topic, payloadlen, payload, qos, retain);
}
int mosquitto_reconnect_delay_set(struct mosquitto *mosq, unsigned int delay, unsigned int delay_max, bool exponential) {
    return REAL(reconnect_delay_set)(mosq, delay, delay_max, exponential);
}
int mosquitto_connect(struct mosquitto *mosq, const char *host, int port, int keepalive) { return REAL(connect)(mosq, host, port, keepalive); }
int mosquitto_disconnect(struct mosquitto *mosq) { return REAL(disconnect)(mosq); }
int mosquitto_loop_forever(struct mosquitto *mosq, int timeout, int max_packets) { return REAL(loop_forever)(mosq, timeout, max_packets); }
int mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos, bool retain) {
    return REAL(publish)(mosq, mid, topic, payloadlen, payload, qos, retain);
}
int mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) { return REAL(subscribe)(mosq, mid, sub, qos); }
void mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    REAL(connect_callback_set)(mosq, on_connect);
}
void mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)) {
    REAL(disconnect_callback_set)(mosq, on_disconnect);
}
void mosquitto_message_callback_set(struct mosquitto *mosq, void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    REAL(message_callback_set)(mosq, on_message);
}
const char *mosquitto_strerror(int code) { return REAL(strerror)(code); }
const char *mosquitto_connack_string(int code) { return REAL(connack_string)(code); }
