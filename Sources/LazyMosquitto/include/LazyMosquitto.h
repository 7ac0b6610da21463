#ifndef CONDITIONS_LAZY_MOSQUITTO_H
#define CONDITIONS_LAZY_MOSQUITTO_H

// This target defines the libmosquitto functions ConditionsMQTT calls (LazyMosquitto.c),
// opening libmosquitto.so.1 on the first call, so a program that never publishes (every local
// answer) does not load it and the OpenSSL it needs (docs/performance.md, scenario 1).

/// Opens libmosquitto and calls mosquitto_lib_init, if that has not been tried yet. Returns
/// NULL once it is ready; otherwise why it cannot be ("libmosquitto.so.1 could not be loaded:
/// …"), a text that lives as long as the process. Thread-safe.
const char *conditions_libmosquitto_open(void);

#endif
