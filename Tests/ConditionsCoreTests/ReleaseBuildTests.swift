import Foundation
import HostTestSupport
import Testing

/// What a release build compiles must build there. `scripts/dev demo`, `install`, `package` and
/// `bench` build their executables with `-c release` (and a plain `swift build -c release`
/// builds the whole package, every library target with it: the test-support ones under
/// `Tests/Support/` and the plugins' stand-ins among them) with no testability and without
/// swift-testing. So none of them imports `Testing` or imports a module
/// `@testable`: the serve harness once did both, and the README's `scripts/dev demo` failed in a
/// fresh clone while the suite, a debug test build, stayed green.
@Suite struct ReleaseBuildTests {
    /// Folders of library targets: the program's, the test-support ones, each plugin's sources
    /// and its upstream's stand-in.
    static let folders = ["Sources", "Tests/Support"]
        + ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Plugins").path)) ?? [])
            .sorted().flatMap { ["Plugins/\($0)/Sources", "Plugins/\($0)/StandIn"] }

    /// The lines of `text` a release build cannot compile, by number.
    static func offenders(in text: String) -> [Int] {
        text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let code = line.trimmingCharacters(in: .whitespaces)
            return code.hasPrefix("import Testing") || code.hasPrefix("@testable import") ? index + 1 : nil
        }
    }

    @Test func noLibraryTargetNeedsATestBuild() throws {
        var found: [String] = []
        for folder in Self.folders {
            let url = packageRoot.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: url, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                let text = try String(contentsOf: file, encoding: .utf8)
                found += Self.offenders(in: text).map { "\(file.path.replacingOccurrences(of: packageRoot.path + "/", with: "")):\($0)" }
            }
        }
        #expect(found.isEmpty, "a release build of the package cannot compile these: \(found)")
        #expect(Self.folders.contains("Tests/Support") && Self.folders.contains("Plugins/WSDOT/StandIn"))
    }

    @Test func theCheckCatchesBothForms() {
        #expect(Self.offenders(in: "import Foundation\nimport Testing\n    @testable import ConditionsServer\n// import Testing") == [2, 3])
    }
}
