import Foundation
import HostTestSupport
import Testing

/// No test reads outside the repository: a clone anywhere must pass. Test code, fuzz targets,
/// scripts and the bench locate their data relative to `#filePath` (or the executable), never
/// through an absolute machine path or a folder beside the checkout. The needles are the ways
/// the suite once reached the team's reference data: `/work/shared/...` and
/// `<root>/../shared/reference/...` (spelled with `..` or with `deletingLastPathComponent`).
@Suite struct TestDataLocalityTests {
    /// Spelled in pieces so that this file, which must name them, does not hold them whole
    /// (other scanners, such as the team's before-stop check, read it too).
    static let needles = ["/" + "work/", ".." + "/shared", "shared" + "/reference"]
    static let work = "/" + "work", shared = ".." + "/shared", reference = "shared" + "/reference"

    /// Folders (under the package root) whose code runs in tests, fuzzing or benchmarks: each
    /// plugin whole (its tests, stand-in, end-to-end suites and fuzz targets).
    static let scannedFolders = ["Tests", "Fuzz", "scripts", "Sources/conditions-bench"]
        + ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Plugins").path)) ?? [])
            .map { "Plugins/\($0)" }

    /// Code, not data or prose: a SOURCES.md may name where a copy came from.
    static func isCode(_ file: URL) -> Bool {
        ["swift", "py", "sh"].contains(file.pathExtension) || (file.pathExtension.isEmpty && file.path.contains("/scripts/"))
    }

    /// The 1-based numbers of the lines of `text` that hold a needle.
    static func offendingLines(_ text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            .filter { _, line in needles.contains { line.contains($0) } }
            .map { $0.offset + 1 }
    }

    @Test func theNeedlesAreFound() {
        #expect(Self.offendingLines("let a = 1\nlet data = \"\(Self.work)/shared/x.json\"\n") == [2])
        #expect(Self.offendingLines("root.appendingPathComponent(\"\(Self.shared)/reference/data\")") == [1])
        #expect(Self.offendingLines("root.deletingLastPathComponent().appendingPathComponent(\"\(Self.reference)/data/real\")") == [1])
        #expect(Self.offendingLines(#"CLI.packageRoot.appendingPathComponent("Plugins/Aeris/Tests/Resources/sunmoon.json")"#).isEmpty)
    }

    @Test func noTestCodeReachesOutsideTheRepository() throws {
        let me = URL(fileURLWithPath: #filePath).standardizedFileURL.path
        var scanned = 0
        var offences: [String] = []
        for folder in Self.scannedFolders {
            let root = packageRoot.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let file as URL in files where Self.isCode(file) && file.standardizedFileURL.path != me {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let text = try String(contentsOf: file, encoding: .utf8)
                scanned += 1
                let path = file.standardizedFileURL.path.dropFirst(packageRoot.standardizedFileURL.path.count + 1)
                for line in Self.offendingLines(text) { offences.append("\(path):\(line)") }
            }
        }
        // The scan saw the suite (hundreds of files), not an empty or misplaced folder.
        #expect(scanned > 100, "scanned only \(scanned) files under \(packageRoot.path)")
        #expect(offences.isEmpty, "test code reaching outside the repository (copy the data in, with provenance): \(offences)")
    }

    /// One name for a plugin's test data: `Plugins/<Module>/Tests/Resources` (with its
    /// `SOURCES.md`), never `Tests/Fixtures`, which reads as the Fixtures module's recordings.
    @Test func noPluginKeepsItsTestDataInTestsFixtures() throws {
        let plugins = try FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Plugins").path)
        #expect(!plugins.isEmpty, "no plugins under \(packageRoot.path)")
        let misnamed = plugins.filter { FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent("Plugins/\($0)/Tests/Fixtures").path) }
        #expect(misnamed.isEmpty, "move Plugins/<Module>/Tests/Fixtures to Tests/Resources: \(misnamed)")
    }
}
