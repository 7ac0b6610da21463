import Foundation
import SQLiteNIO

/// Why the history store could not be opened, read or written: always names the file.
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
    }

    /// The store's file.
    package let file: URL
    /// What went wrong.
    package let kind: Kind
    /// One line saying why, without the file.
    package let reason: String

    package init(file: URL, kind: Kind, reason: String) {
        self.file = file
        self.kind = kind
        self.reason = reason
    }

    /// `/home/ana/.local/state/conditions/history.sqlite: file is not a database`.
    package var description: String { "\(file.path): \(reason)" }

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
