import ConditionsJSON
import ConditionsKit
import Foundation

extension Configuration {
    /// The `history` object: where `watch` and `serve` keep every change they see
    /// (`{"path": "…", "retain": "180d", "enabled": true}`, all optional).
    package struct HistorySettings: Sendable {
        /// The store's file; nil: `defaultPath(environment:)`.
        package var path: URL?
        /// Changes last seen longer ago than this are pruned, a few on each write.
        package var retain: Double = HistorySettings.defaultRetain
        /// Whether `watch` and `serve` record at all (`--no-history` turns it off for one run).
        package var enabled = true

        /// Settings as given.
        package init(path: URL? = nil, retain: Double = HistorySettings.defaultRetain, enabled: Bool = true) {
            self.path = path
            self.retain = retain
            self.enabled = enabled
        }

        /// 180 days.
        package static let defaultRetain: Double = 180 * 86400

        /// `$XDG_STATE_HOME/conditions/history.sqlite`, else `~/.local/state/conditions/history.sqlite`:
        /// history is state a program keeps, not a cache it may lose (XDG Base Directory spec).
        package static func defaultPath(environment: [String: String]) -> URL {
            let base = environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
                ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".local/state")
            return base.appendingPathComponent("conditions/history.sqlite")
        }

        /// The file to use: the configured one or the default.
        package func file(environment: [String: String]) -> URL {
            path ?? Self.defaultPath(environment: environment)
        }
    }

    /// The `history` object; every problem is recorded under its JSON path (`history.retain`).
    static func readHistory(_ value: JSONValue?, directory: URL, problems: inout [String]) -> HistorySettings {
        var history = HistorySettings()
        guard var options = section("history", value, directory: directory, problems: &problems) else { return history }
        do {
            history.path = try options.path("path")
            history.enabled = try options.bool("enabled") ?? true
            if let value = options.value("retain"), !value.isNull {
                let seconds = value.doubleValue ?? value.stringValue.flatMap(DurationText.seconds)
                if let seconds, seconds >= 3600, seconds <= 100 * 365 * 86400 {
                    history.retain = seconds
                } else {
                    problems.append("history.retain: expected a duration between 1h and 36500d such as \"180d\" or \"12h\", found \(value.serialized())")
                }
            }
            try options.finish()
        } catch {
            problems.append(error.message)
        }
        if let path = history.path, path.hasDirectoryPath || path.path.hasSuffix("/") {
            problems.append("history.path: \"\(path.path)\" names a folder; name the store's file, e.g. \"~/.local/state/conditions/history.sqlite\"")
        }
        return history
    }
}
