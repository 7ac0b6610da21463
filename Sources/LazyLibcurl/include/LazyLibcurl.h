#ifndef CONDITIONS_LAZY_LIBCURL_H
#define CONDITIONS_LAZY_LIBCURL_H

// This target defines libcurl's functions itself (LazyLibcurl.c), opening libcurl.so.4 on the
// first call: ConditionsHTTP's calls and those of the statically linked FoundationNetworking
// (which the MCP SDK imports) both resolve here at link time, so the executable does not need
// libcurl and its ~30 libraries at start (docs/performance.md, scenario 1).

/// Opens libcurl if that has not been tried yet. Returns NULL once it is open; otherwise why
/// it cannot be ("libcurl.so.4 could not be loaded: …"), a text that lives as long as the
/// process. Thread-safe.
const char *conditions_libcurl_open(void);

#endif
