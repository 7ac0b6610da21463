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


// libxml2 reports some failures (an unknown XPath function, say) through its generic error
// function, which prints to stderr and, being variadic, cannot be written in Swift. These
// helpers swap in no-op handlers for the current thread (libxml2 keeps them per thread) and
// put the previous ones back, so other libxml2 users on the same thread are unaffected.
static inline void clibxml2_ignore_generic_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline void clibxml2_ignore_structured_error(void *context, xmlErrorPtr error) {
    (void)context;
    (void)error;
}

typedef struct {
    xmlGenericErrorFunc generic;
    void *genericContext;
    xmlStructuredErrorFunc structured;
    void *structuredContext;
} clibxml2_error_handlers;

static inline clibxml2_error_handlers clibxml2_silence_errors(void) {
    clibxml2_error_handlers saved = {
        xmlGenericError, xmlGenericErrorContext, xmlStructuredError, xmlStructuredErrorContext
    };
    xmlSetGenericErrorFunc(NULL, clibxml2_ignore_generic_error);
    xmlSetStructuredErrorFunc(NULL, clibxml2_ignore_structured_error);
    return saved;
}

static inline void clibxml2_restore_errors(clibxml2_error_handlers saved) {
    xmlSetGenericErrorFunc(saved.genericContext, saved.generic);
    xmlSetStructuredErrorFunc(saved.structuredContext, saved.structured);
}

#endif
