import CLibXML2

/// One-time libxml2 set-up.
///
/// A global `let` is initialised lazily and exactly once, thread-safely (Swift uses `swift_once`),
/// so every entry point can touch it without a lock of our own. `xmlInitParser` must run before
/// libxml2 is used from several threads at once.
let libxml2Initialized: Void = {
    xmlInitParser()
}()

/// A structured error handler that drops the error.
///
/// Installed on every XPath context so libxml2 records the failure in the context's `lastError`
/// (which we turn into a thrown `HTMLError`) instead of printing to stderr.
let silentStructuredErrorHandler: xmlStructuredErrorFunc = { _, _ in }

/// A libxml2 `xmlChar` string as Swift text, repairing any invalid UTF-8 with U+FFFD.
func string(fromXMLChars chars: UnsafePointer<xmlChar>) -> String {
    String(decoding: UnsafeBufferPointer(start: chars, count: xmlStrlen(chars).clampedToCount), as: UTF8.self)
}

extension Int32 {
    /// A C length as a buffer count (negative lengths, which libxml2 never returns, become empty).
    var clampedToCount: Int { self > 0 ? Int(self) : 0 }
}
