#ifndef CONDITIONS_CMOSQUITTO_SHIM_H
#define CONDITIONS_CMOSQUITTO_SHIM_H

#include <mosquitto.h>

#endif
