#ifndef CONDITIONS_LAZY_LIBCURL_PROBE_H
#define CONDITIONS_LAZY_LIBCURL_PROBE_H

/// Calls every libcurl function LazyLibcurl defines, from C as FoundationNetworking and
/// ConditionsHTTP's typed wrappers do (the variadic setters cannot be called from Swift). NULL when each call reached libcurl and
/// answered as libcurl does; otherwise which check failed.
const char *lazy_libcurl_probe(void);

#endif
