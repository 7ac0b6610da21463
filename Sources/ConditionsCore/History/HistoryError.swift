import Foundation
import SQLiteNIO

/// Why the history store could not be opened, read or written: always names the store (its
/// file, or its database's URL without the password).
package struct HistoryError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, as callers need to tell it apart.
    package enum Kind: Sendable, Equatable {
        /// Not a store this program can read: corrupt, not SQLite, another program's database,
        /// a folder, no permission.
        case unreadable
        /// Written by a newer `conditions` whose schema this one does not know.
        case newerSchema
        /// The disk (or the file system's quota) is full.
        case full
        /// Another process held the store longer than the busy timeout.
        case busy
        /// Anything else SQLite or the file system reported.
        case other
        /// The database server turned the configured login down: a wrong password, an unknown
        /// role or database, a certificate that does not verify. The configuration's fault, not
        /// an outage.
        case refused
        /// The database server cannot be reached (down, restarting, network): an outage.
        case unreachable
    }

    /// The store: its file's path, or its database's URL without the password.
    package let store: String
    /// What went wrong.
    package let kind: Kind
    /// One line saying why, without the store.
    package let reason: String

    package init(store: String, kind: Kind, reason: String) {
        self.store = store
        self.kind = kind
        self.reason = reason
    }

    package init(file: URL, kind: Kind, reason: String) {
        self.init(store: file.path, kind: kind, reason: reason)
    }

    /// `/home/ana/.local/state/conditions/history.sqlite: file is not a database`.
    package var description: String { "\(store): \(reason)" }

    /// An error of SQLite's (or anything thrown around it) about `file`.
    init(_ error: any Error, file: URL) {
        if let error = error as? HistoryError {
            self = error
            return
        }
        guard let error = error as? SQLiteError else {
            self.init(file: file, kind: .other, reason: String(describing: error))
            return
        }
        // SQLite's own message (sqlite3_errmsg) is the clearest: "file is not a database",
        // "database or disk is full", "database disk image is malformed".
        let message = error.message.split(separator: "\n").first.map(String.init) ?? "\(error.reason)"
        switch error.reason {
        case .full:
            self.init(file: file, kind: .full, reason: message)
        case .notADatabase, .corrupt, .corruptVirtualTable, .corruptSequenceSchema, .corruptIndex:
            self.init(file: file, kind: .unreadable, reason: message)
        case .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath, .permission, .readOnly, .readonlyDirectory, .readonlyCantLock:
            self.init(file: file, kind: .unreadable, reason: message)
        case .busy, .busyTimeout, .busyInRecovery, .busyInSnapshot, .locked:
            self.init(file: file, kind: .busy, reason: message)
        default:
            self.init(file: file, kind: message.contains("disk is full") ? .full : .other, reason: message)
        }
    }
}
