#ifndef CONDITIONS_LAZY_LIBCURL_H
#define CONDITIONS_LAZY_LIBCURL_H

// This target defines libcurl's functions itself (see LazyLibcurl.c); it has no API of its
// own. Linked into conditions-mcp, whose statically linked FoundationNetworking refers to
// libcurl, so that libcurl is opened on first use instead of at every start.

#endif
