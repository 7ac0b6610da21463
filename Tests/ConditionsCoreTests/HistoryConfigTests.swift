import ConditionsKit
import Foundation
import HostTestSupport
import Testing
@testable import ConditionsCore

/// The `history` object of sources.json: defaults, the XDG state folder, and problems that
/// name their JSON path.
@Suite struct HistoryConfigTests {
    static let base = #""location": {"latitude": 47.6, "longitude": -122.3}, "sources": {"a": {"module": "Echo"}}, "routes": {"echo": "a"}"#

    func load(_ history: String?) throws(ConfigurationError) -> (Runtime.ConfigurationSummary, URL) {
        let workspace = try! Workspace(config: "{\(Self.base)\(history.map { #", "history": \#($0)"# } ?? "")}")
        defer { workspace.remove() }
        return (try workspace.runtime().configuration, workspace.folder)
    }

    func problems(_ history: String) -> [String] {
        do {
            _ = try load(history)
            return []
        } catch {
            return error.problems.map { $0.split(separator: ": ", maxSplits: 1).last.map(String.init) ?? $0 }
        }
    }

    @Test func defaultsAreTheStateFolderAnd180Days() throws {
        let (configuration, _) = try load(nil)
        #expect(configuration.history.path == nil)
        #expect(configuration.history.retain == 180 * 86400)
        #expect(configuration.history.enabled)
        let settings = configuration.history
        #expect(settings.file(environment: ["HOME": "/home/ana"]).path == "/home/ana/.local/state/conditions/history.sqlite")
        #expect(settings.file(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "/var/lib/ana"]).path == "/var/lib/ana/conditions/history.sqlite")
        // The spec says a relative XDG path is invalid and to be ignored.
        #expect(settings.file(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "state"]).path == "/home/ana/.local/state/conditions/history.sqlite")
    }

    @Test func pathIsRelativeToTheConfigAndRetainTakesDurations() throws {
        let (configuration, folder) = try load(#"{"path": "data/history.sqlite", "retain": "30d", "enabled": false}"#)
        #expect(configuration.history.path?.path == folder.appendingPathComponent("data/history.sqlite").standardizedFileURL.path)
        #expect(configuration.history.retain == 30 * 86400)
        #expect(!configuration.history.enabled)
        #expect(try load(#"{"retain": 7200}"#).0.history.retain == 7200)
    }

    @Test func aFleetsWaitForItsDatabaseTakesADurationWithinBounds() throws {
        #expect(try load(nil).0.history.fleetTimeout == nil, "FleetDatabase's own 2 s")
        #expect(try load(#"{"url": "postgres://a@h/d", "fleetTimeout": "30s"}"#).0.history.fleetTimeout == 30)
        #expect(try load(#"{"fleetTimeout": 0.5}"#).0.history.fleetTimeout == 0.5, "the URL may come from $CONDITIONS_HISTORY_URL")
        #expect(problems(#"{"fleetTimeout": "1h"}"#) == ["history.fleetTimeout: 3600.0 s is outside 0.1 s…300 s"])
        #expect(problems(#"{"fleetTimeout": 0}"#) == ["history.fleetTimeout: 0.0 s is outside 0.1 s…300 s"])
        #expect(problems(#"{"fleetTimeout": "soon"}"#) == [#"history.fleetTimeout: expected a duration such as 300, "90s", "5m" or "6h", found "soon""#])
    }

    @Test func problemsNameTheirJSONPath() {
        #expect(problems(#""forever""#) == ["history: expected an object, found string"])
        #expect(problems(#"{"retain": "soon"}"#) == [#"history.retain: expected a duration between 1h and 36500d such as "180d" or "12h", found "soon""#])
        #expect(problems(#"{"retain": "10m"}"#).first?.hasPrefix("history.retain: expected a duration between 1h") == true)
        #expect(problems(#"{"path": 3}"#).first?.hasPrefix("history.path: expected") == true, "\(problems(#"{"path": 3}"#))")
        #expect(problems(#"{"path": ""}"#) == ["history.path: the path is empty"])
        #expect(problems(#"{"path": "/var/lib/conditions/"}"#).first?.hasPrefix("history.path: \"/var/lib/conditions\" names a folder") == true,
                "\(problems(#"{"path": "/var/lib/conditions/"}"#))")
        #expect(problems(#"{"retian": "1d"}"#) == [#"unknown option history.retian (did you mean "retain"?); known: enabled, fleetTimeout, passwordFile, path, retain, sslmode, sslrootcert, url"#],
                "\(problems(#"{"retian": "1d"}"#))")
    }
}

/// `"history": {"url", "passwordFile", "sslmode", "sslrootcert"}`: PostgreSQL, and where its
/// password may come from. Every problem is one line, none showing a password.
@Suite struct HistoryDatabaseConfigTests {
    let config = HistoryConfigTests()

    func location(_ history: String, environment: [String: String] = [:]) throws -> HistoryLocation {
        try config.load(history).0.history.location(environment: environment)
    }

    func database(_ history: String, environment: [String: String] = [:]) throws -> HistoryDatabase {
        guard case .postgres(let database) = try location(history, environment: environment) else { throw ConfigurationError("not a database") }
        return database
    }

    @Test func aURLSelectsPostgreSQLWithItsPasswordFromTheEnvironment() throws {
        let database = try database(#"{"url": "postgres://ana:${PGPW}@db.example:6543/weather?sslmode=require"}"#, environment: ["PGPW": "s3cr:t@"])
        #expect(database.host == "db.example" && database.port == 6543 && database.user == "ana" && database.database == "weather")
        #expect(database.password == "s3cr:t@")
        #expect(database.sslmode == .require)
        #expect(database.displayURL == "postgres://ana@db.example:6543/weather")
        let plain = try self.database(#"{"url": "postgresql://ana@[::1]/"}"#, environment: ["HOME": "/nonexistent"])
        #expect(plain.host == "::1" && plain.port == 5432 && plain.database == "ana" && plain.sslmode == .prefer && plain.password == nil)
        if case .file = try location("{}") {} else { Issue.record("no url: the SQLite file") }
    }

    @Test func theEnvironmentVariableOverridesTheConfig() throws {
        let database = try database(#"{"path": "/tmp/h.sqlite"}"#, environment: ["CONDITIONS_HISTORY_URL": "postgres://bo:pw@127.0.0.1:5433/h"])
        #expect(database.user == "bo" && database.password == "pw" && database.port == 5433)
    }

    @Test func problemsAreOneLineNamingTheKeyAndNeverThePassword() throws {
        #expect(config.problems(#"{"url": "postgres://ana:hunter2@db/w", "path": "/tmp/h.sqlite"}"#) == [
            #"history: "url" (PostgreSQL) and "path" (SQLite) both given; keep one"#,
            #"history.url: a password is written in the config (postgres://ana@db/w); give it as ${ENV} in the URL (postgres://user:${PGPASSWORD}@host/db) or in a password file (history.passwordFile, ~/.pgpass)"#,
        ])
        #expect(config.problems(#"{"url": "mysql://ana@db/w"}"#) == [#"history.url: "mysql://ana@db/w" is not a postgres:// or postgresql:// URL"#])
        #expect(config.problems(#"{"url": "postgres://db/w"}"#) == [#"history.url: "postgres://db/w" names no user (postgres://user@host/database)"#])
        #expect(config.problems(#"{"url": "postgres://ana@db:99999/w"}"#) == [#"history.url: "postgres://ana@db:99999/w": port "99999" is not a number from 1 to 65535"#])
        #expect(config.problems(#"{"url": "postgres://ana@db/w?sslmode=allow"}"#)
                == [#"history.url: sslmode "allow" is not one of "disable", "prefer", "require", "verify-full""#])
        #expect(config.problems(#"{"sslmode": "verify-ca"}"#) == [#"history.sslmode: sslmode "verify-ca" is not one of "disable", "prefer", "require", "verify-full""#])
        #expect(throws: ConfigurationError.self) { try location(#"{"url": "postgres://ana:${NOPE}@db/w"}"#) }
        do {
            _ = try location(#"{"url": "postgres://ana:${NOPE}@db/w"}"#)
        } catch let error as ConfigurationError {
            #expect(error.problems == ["history.url: environment variable NOPE is not set"])
        }
        do {
            _ = try location(#"{"url": "postgres://ana@db/w?sslmode=disable", "sslmode": "require"}"#, environment: ["HOME": "/nonexistent"])
            Issue.record("disagreeing sslmodes accepted")
        } catch let error as ConfigurationError {
            #expect(error.problems == [#"history.url: sslmode "disable" in the URL and "require" in history.sslmode disagree; give one"#])
        }
    }

    @Test func aPasswordFileGivesTheFirstMatchingLineAndMustBePrivate() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("conditions-pgpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("pgpass")
        try """
            # comment
            other.example:5432:*:ana:wrong
            db.example:*:weather:ana:pa\\:ss\\\\word:with:colons
            *:*:*:*:fallback
            """.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        let history = #"{"url": "postgres://ana@db.example/weather", "passwordFile": "\#(file.path)"}"#
        #expect(try database(history).password == #"pa:ss\word:with:colons"#)
        #expect(try database(#"{"url": "postgres://bo@db.example/weather", "passwordFile": "\#(file.path)"}"#).password == "fallback")
        // libpq's own variable and default, when passwordFile is not given.
        #expect(try database(#"{"url": "postgres://ana@db.example/weather"}"#, environment: ["PGPASSFILE": file.path]).password == #"pa:ss\word:with:colons"#)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        do {
            _ = try database(history)
            Issue.record("a password file others can read was used")
        } catch let error as ConfigurationError {
            #expect(error.problems == ["history.passwordFile: \(file.path) is readable by group or others (mode 644); the password file must be private: chmod 600 \(file.path)"])
        }
    }
}
