// The libxml2 headers ConditionsHTML needs. On Debian they live in /usr/include/libxml2,
// which pkg-config (libxml-2.0) adds to the search path, so they are included as <libxml/...>.
#ifndef CLIBXML2_SHIM_H
#define CLIBXML2_SHIM_H

#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, so <libxml/encoding.h> would pull in the system's
// <unicode/ucnv.h>, whose declarations clash with the ICU copy inside Foundation
// (_FoundationICU) and break any module importing both. ICU only adds two trailing pointer
// fields to xmlCharEncodingHandler, a struct we only ever handle by pointer, so hiding them
// changes nothing we use.
#undef LIBXML_ICU_ENABLED

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/encoding.h>

#endif
