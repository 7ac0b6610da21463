import ConditionsJSON
import ConditionsKit
import Foundation

extension Configuration {
    /// The `history` object: where `watch` and `serve` keep every change they see
    /// (`{"path": "…", "retain": "180d", "enabled": true}`, all optional), in an SQLite file or,
    /// with `url`, a PostgreSQL database (`{"url": "postgres://…", "passwordFile", "sslmode",
    /// "sslrootcert", "fleetTimeout"}`).
    package struct HistorySettings: Sendable {
        /// The store's file; nil: `defaultPath(environment:)`.
        package var path: URL?
        /// The PostgreSQL database's URL as written (`${ENV}` unexpanded); nil: SQLite.
        package var url: String?
        /// A libpq password file (`host:port:database:user:password`); nil: `$PGPASSFILE`, else `~/.pgpass`.
        package var passwordFile: URL?
        /// `sslmode` as configured; nil: the URL's `?sslmode=`, else `prefer`.
        package var sslmode: HistoryDatabase.SSLMode?
        /// The CA certificates `verify-full` trusts; nil: the system's.
        package var sslrootcert: URL?
        /// Changes last seen longer ago than this are pruned, a few on each write.
        package var retain: Double = HistorySettings.defaultRetain
        /// Whether `watch` and `serve` record at all (`--no-history` turns it off for one run).
        package var enabled = true
        /// How long a request of `serve` waits for the database replicas share (a document,
        /// a lease) before going on without it; nil: `FleetDatabase`'s 2 s.
        package var fleetTimeout: Double?

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

        /// The environment variable whose URL replaces `url` (and selects PostgreSQL).
        package static let urlVariable = "CONDITIONS_HISTORY_URL"

        /// Where history is kept: `$CONDITIONS_HISTORY_URL` or `url` (its `${ENV}` expanded, its
        /// password from the URL or a password file), else the SQLite file. Throws one line per
        /// problem, none showing a password.
        package func location(environment: [String: String]) throws(ConfigurationError) -> HistoryLocation {
            let name: String
            let text: String
            if let value = environment[Self.urlVariable], !value.isEmpty {
                (name, text) = (Self.urlVariable, value)
            } else if let url {
                let outcome = Interpolation(environment: environment).apply(.string(url), path: "history.url")
                let missing = outcome.missing.map { "history.url: environment variable \($0.variable) is not set" }
                guard missing.isEmpty else { throw ConfigurationError(problems: missing) }
                (name, text) = ("history.url", outcome.value.stringValue ?? url)
            } else {
                return .file(file(environment: environment))
            }
            do {
                let parsed = try HistoryDatabase.parse(text)
                if let configured = sslmode, let given = parsed.sslmode, configured != given {
                    throw HistoryDatabase.Problem("sslmode \"\(given.rawValue)\" in the URL and \"\(configured.rawValue)\" in history.sslmode disagree; give one")
                }
                var database = HistoryDatabase(host: parsed.host, port: parsed.port, user: parsed.user, database: parsed.database, password: parsed.password,
                                               sslmode: sslmode ?? parsed.sslmode ?? .prefer, sslrootcert: sslrootcert)
                if database.password == nil || database.password?.isEmpty == true {
                    do { database.password = try passwordFromFile(for: database, environment: environment) } catch {
                        throw ConfigurationError("\(passwordFile == nil ? "history" : "history.passwordFile"): \(error.message)")
                    }
                }
                return .postgres(database)
            } catch let error as HistoryDatabase.Problem {
                throw ConfigurationError("\(name): \(error.message)")
            } catch let error as ConfigurationError {
                throw error
            } catch {
                throw ConfigurationError("\(name): \(error)")
            }
        }

        /// The password a libpq password file gives: `passwordFile`, else `$PGPASSFILE`, else
        /// `~/.pgpass`; nil when the file (not configured) is missing or has no matching line.
        private func passwordFromFile(for database: HistoryDatabase, environment: [String: String]) throws(HistoryDatabase.Problem) -> String? {
            let file: URL
            if let passwordFile {
                file = passwordFile
            } else if let value = environment["PGPASSFILE"], !value.isEmpty {
                file = URL(fileURLWithPath: value)
            } else {
                file = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".pgpass")
                guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            }
            return try HistoryDatabase.password(in: file, host: database.host, port: database.port, database: database.database, user: database.user)
        }
    }

    /// The `history` object; every problem is recorded under its JSON path (`history.retain`).
    static func readHistory(_ value: JSONValue?, directory: URL, problems: inout [String]) -> HistorySettings {
        var history = HistorySettings()
        guard var options = section("history", value, directory: directory, problems: &problems) else { return history }
        do {
            history.path = try options.path("path")
            history.url = try options.string("url")
            history.passwordFile = try options.path("passwordFile")
            history.sslrootcert = try options.path("sslrootcert")
            if let mode = try options.string("sslmode") {
                if let known = HistoryDatabase.SSLMode(rawValue: mode) { history.sslmode = known } else {
                    problems.append("history.sslmode: \(HistoryDatabase.sslmodeProblem(mode))")
                }
            }
            history.enabled = try options.bool("enabled") ?? true
            if let value = options.value("retain"), !value.isNull {
                let seconds = value.doubleValue ?? value.stringValue.flatMap(DurationText.seconds)
                if let seconds, seconds >= 3600, seconds <= 100 * 365 * 86400 {
                    history.retain = seconds
                } else {
                    problems.append("history.retain: expected a duration between 1h and 36500d such as \"180d\" or \"12h\", found \(value.serialized())")
                }
            }
            if let value = options.value("fleetTimeout"),
               let seconds = Self.readDuration(value, path: "history.fleetTimeout", problems: &problems) {
                if (0.1...300).contains(seconds) { history.fleetTimeout = seconds } else {
                    problems.append("history.fleetTimeout: \(seconds) s is outside 0.1 s…300 s")
                }
            }
            try options.finish()
        } catch {
            problems.append(error.message)
        }
        if let path = history.path, path.hasDirectoryPath || path.path.hasSuffix("/") {
            problems.append("history.path: \"\(path.path)\" names a folder; name the store's file, e.g. \"~/.local/state/conditions/history.sqlite\"")
        }
        if let url = history.url {
            if history.path != nil {
                problems.append("history: \"url\" (PostgreSQL) and \"path\" (SQLite) both given; keep one")
            }
            if HistoryDatabase.hasLiteralPassword(url) {
                problems.append("history.url: a password is written in the config (\(HistoryDatabase.redacted(url))); give it as ${ENV} in the URL (postgres://user:${PGPASSWORD}@host/db) or in a password file (history.passwordFile, ~/.pgpass)")
            } else if !url.contains("${") {
                do { _ = try HistoryDatabase.parse(url) } catch { problems.append("history.url: \(error.message)") }
            }
        }
        return history
    }
}
