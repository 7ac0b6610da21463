#ifndef CONDITIONS_CCURL_SHIM_H
#define CONDITIONS_CCURL_SHIM_H
#include <curl/curl.h>
#endif
