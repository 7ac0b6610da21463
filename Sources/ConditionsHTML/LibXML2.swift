import CLibXML2

/// One-time libxml2 set-up.
///
/// A global `let` is initialised lazily and exactly once, thread-safely (Swift uses `swift_once`),
/// so every entry point can touch it without a lock of our own. `xmlInitParser` must run before
/// libxml2 is used from several threads at once.
let libxml2Initialized: Void = {
    xmlInitParser()
}()

/// Runs `body` with libxml2's per-thread error output switched off, restoring the previous
/// handlers afterwards. `body` is synchronous, so nothing else runs on this thread meanwhile.
func withLibXML2ErrorsSilenced<T>(_ body: () throws -> T) rethrows -> T {
    _ = libxml2Initialized
    let saved = clibxml2_silence_errors()
    defer { clibxml2_restore_errors(saved) }
    return try body()
}

/// A libxml2 `xmlChar` string as Swift text, repairing any invalid UTF-8 with U+FFFD.
func string(fromXMLChars chars: UnsafePointer<xmlChar>) -> String {
    String(decoding: UnsafeBufferPointer(start: chars, count: xmlStrlen(chars).clampedToCount), as: UTF8.self)
}

extension Int32 {
    /// A C length as a buffer count (negative lengths, which libxml2 never returns, become empty).
    var clampedToCount: Int { self > 0 ? Int(self) : 0 }
}
