import ConditionsKit
import ConditionsText
import Foundation
import Logging
import Synchronization

/// Logging to stderr with every known secret masked, whatever a source puts in a message.
package enum LogSetup {
    /// Secrets learned while loading the config; the log handler reads them on every line.
    package static let secrets = Mutex<Set<String>>([])

    /// A logger writing to stderr at `level`, masking every known secret.
    package static func makeLogger(level: Logger.Level) -> Logger {
        var logger = Logger(label: "conditions") { label in RedactingLogHandler(label: label) }
        logger.logLevel = level
        return logger
    }

    /// `text` with every known secret replaced by `REDACTED`.
    package static func redact(_ text: String) -> String {
        secrets.withLock { secrets in secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: Redaction.mask) } }
    }
}

/// Writes `LEVEL [source] message key=value` lines to stderr after redaction.
struct RedactingLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .warning
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let source = merged["source"].map { "[\($0)] " } ?? ""
        let extra = merged.filter { $0.key != "source" }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "\(event.level.rawValue.uppercased()) \(source)\(event.message)\(extra.isEmpty ? "" : " " + extra)"
        write(TerminalText.sanitized(LogSetup.redact(line), oneLine: true) + "\n", to: .standardError)
    }
}
