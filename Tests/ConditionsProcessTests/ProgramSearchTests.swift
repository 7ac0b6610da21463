import ConditionsProcess
import Foundation
import Testing

/// `ProgramSearch`: the one PATH lookup (WSDOT's renderer and its doctor check, Exec's programs).
@Suite struct ProgramSearchTests {
    @Test func relativeAndEmptyEntriesAreSkipped() {
        #expect(ProgramSearch.directories("/usr/bin::bin:./tools:/bin") == ["/usr/bin", "/bin"])
        #expect(ProgramSearch.directories(nil) == [])
    }

    @Test func theFirstExecutableFileOfTheNameWins() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("program-search-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let (folder, plain, executable, other) = (root.appendingPathComponent("folder"), root.appendingPathComponent("plain"),
                                                 root.appendingPathComponent("executable"), root.appendingPathComponent("other"))
        for directory in [plain, executable, other] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("tool"), withIntermediateDirectories: true)  // a folder named tool
        try Data("#!/bin/sh\n".utf8).write(to: plain.appendingPathComponent("tool"))  // not executable
        for directory in [executable, other] {
            try Data("#!/bin/sh\n".utf8).write(to: directory.appendingPathComponent("tool"))
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.appendingPathComponent("tool").path)
        }
        let found = ProgramSearch.executable(named: "tool", in: [folder.path, plain.path, executable.path, other.path])
        #expect(found == executable.appendingPathComponent("tool").path)
        #expect(ProgramSearch.executable(named: "tool", in: [folder.path, plain.path]) == nil)
        #expect(ProgramSearch.executable(named: "absent", in: [executable.path]) == nil)
    }
}
