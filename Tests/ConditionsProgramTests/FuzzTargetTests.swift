import ConditionsKit
import ConditionsModules
import Foundation
import Testing

/// `scripts/fuzz` finds its targets rather than listing them: the host's parsers in `Fuzz/`,
/// each plugin's in `Plugins/<Module>/Fuzz/<target>.swift`, for the modules the registration
/// imports. These check that what it finds (`scripts/fuzz modules`, `scripts/fuzz list`, which
/// build nothing) is the registration and the folders, so a plugin added, removed or renamed
/// cannot leave the fuzzing behind, and that docs/reliability.md's table names every target.
@Suite struct FuzzTargetTests {
    /// A target as `scripts/fuzz list` prints it.
    struct Target: Equatable, CustomStringConvertible {
        let name, module, file: String
        var description: String { "\(name) (\(module), \(file))" }
    }

    /// What `scripts/fuzz <command>` prints, checking it exits 0.
    static func fuzz(_ command: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [packageRoot.appendingPathComponent("scripts/fuzz").path, command]
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "scripts/fuzz \(command) exited \(process.terminationStatus)")
        return String(decoding: data, as: UTF8.self)
    }

    static func targets() throws -> [Target] {
        try fuzz("list").split(separator: "\n").map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return Target(name: fields.first ?? "", module: fields.count > 1 ? fields[1] : "", file: fields.count > 2 ? fields[2] : "")
        }
    }

    static func contents(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot.appendingPathComponent(folder).path)) ?? []).sorted()
    }

    /// A file is a fuzz target when it defines libFuzzer's entry point.
    static func isTarget(_ path: String) -> Bool {
        (try? String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8))?.contains("@_cdecl(\"LLVMFuzzerTestOneInput\")") == true
    }

    @Test func itBuildsTheRegisteredModules() throws {
        let modules = try Self.fuzz("modules").split(separator: "\n").map(String.init)
        let names = RegisteredModules.all.map { $0.moduleName }
        #expect(modules.sorted() == names.sorted(), "scripts/fuzz modules is not RegisteredModules.all: \(modules) against \(names)")
    }

    @Test func itListsEveryPluginsTargetsAndNoOther() throws {
        let listed = try Self.targets().filter { $0.module != "host" }
        // Every plugin folder's, registered or not: a target of a plugin the registration lacks is found here too.
        let found = Self.contents("Plugins").flatMap { module in
            Self.contents("Plugins/\(module)/Fuzz").filter { $0.hasSuffix(".swift") }.map { file in
                Target(name: String(file.dropLast(".swift".count)), module: module, file: "Plugins/\(module)/Fuzz/\(file)")
            }
        }
        #expect(listed.sorted { $0.file < $1.file } == found.sorted { $0.file < $1.file },
                "scripts/fuzz list's plugin targets are not the Plugins/*/Fuzz/*.swift files of the registered modules")
        #expect(found.count >= 9, "only \(found.count) plugin fuzz targets under Plugins/*/Fuzz")
        #expect(Set(found.map(\.name)).count == found.count, "two plugins' fuzz targets have one name")
    }

    @Test func theHostFolderHoldsOnlyTheHostsTargets() throws {
        let host = try Self.targets().filter { $0.module == "host" }
        #expect(host.map(\.name).sorted() == ["config", "urn"])
        let inFolder = Self.contents("Fuzz").filter { $0.hasSuffix(".swift") }.map { "Fuzz/\($0)" }.filter(Self.isTarget)
        #expect(inFolder == host.map(\.file).sorted(), "a fuzz target in Fuzz/ that is not the host's: a plugin's belongs in Plugins/<Module>/Fuzz")
    }

    @Test func everyTargetHasItsEntryPointAndSeeds() throws {
        for target in try Self.targets() {
            #expect(Self.isTarget(target.file), "\(target) defines no LLVMFuzzerTestOneInput")
            let corpus = (target.file.split(separator: "/").dropLast() + ["corpus", Substring(target.name)]).joined(separator: "/")
            #expect(!Self.contents(corpus).isEmpty, "\(target) has no seed corpus in \(corpus)")
        }
    }

    @Test func theReliabilityPageNamesEveryTarget() throws {
        let page = try String(contentsOf: packageRoot.appendingPathComponent("docs/reliability.md"), encoding: .utf8)
        let section = page.split(separator: "\n").drop { $0 != "## Fuzzing" }.dropFirst().prefix { !$0.hasPrefix("## ") }
        let rows = section.compactMap { $0.firstMatch(of: /^\| `([a-z0-9-]+)` \|/)?.output.1 }.map(String.init)
        let names = try Self.targets().map(\.name)
        #expect(rows.sorted() == names.sorted(), "docs/reliability.md's fuzzing table is not scripts/fuzz list")
    }
}
