import Foundation
import TestHarness
import Testing

/// `scripts/package` (what `scripts/dev package` runs on the release build), here on the debug
/// build: the .deb holds the program, its man page, completions, recordings, unit and conffile,
/// depends on what it links plus libcurl4 and libmosquitto1, and lintian finds no error in it; the tarball is a
/// tree that answers from anywhere. The real round trip (apt-get install, answer, purge) is
/// `scripts/dev package --install-test`.
@Suite struct PackageTests {
    func run(_ program: String, _ arguments: [String], in folder: URL, environment: [String: String] = ["PATH": "/usr/bin:/bin"],
             timeout: TimeInterval = 120) async throws -> CLI.Output {
        try await CLI.runProgram(URL(fileURLWithPath: program), arguments, in: folder, environment: environment, timeout: timeout)
    }

    @Test(.timeLimit(.minutes(10))) func theDebAndTheTarballAreCompleteAndLintianFindsNoError() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let built = try await run("/bin/bash", [CLI.packageRoot.appendingPathComponent("scripts/package").path, CLI.binary.path, out.path,
                                                "--fast", "--allow-unpackaged-libraries"],
                                  in: folder, environment: ProcessInfo.processInfo.environment, timeout: 540)
        try #require(built.status == 0, "\(built.stdout)\(built.stderr)")
        let deb = out.appendingPathComponent("conditions_0.1.0-1_amd64.deb")
        let tarball = out.appendingPathComponent("conditions-0.1.0-x86_64-linux.tar.gz")
        #expect(built.stdout == "package: \(deb.path)\npackage: \(tarball.path)\n")

        // What is in it, where Debian wants it.
        let listing = try await run("/usr/bin/dpkg-deb", ["--contents", deb.path], in: folder)
        let paths = Set(listing.stdoutLines.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) })
        for path in ["./usr/bin/conditions", "./usr/share/man/man1/conditions.1.gz", "./usr/share/bash-completion/completions/conditions",
                     "./usr/share/zsh/vendor-completions/_conditions", "./usr/share/fish/vendor_completions.d/conditions.fish",
                     "./usr/share/conditions/Fixtures/pass/snoqualmie.json", "./lib/systemd/system/conditions.service",
                     "./etc/conditions/sources.json", "./usr/share/doc/conditions/copyright", "./usr/share/doc/conditions/changelog.Debian.gz"] {
            #expect(paths.contains(path), "\(path) is in the package")
        }
        #expect(listing.stdoutLines.allSatisfy { $0.contains("root/root") }, "owned by root")
        let fields = try await run("/usr/bin/dpkg-deb", ["--field", deb.path], in: folder)
        func field(_ name: String) -> String? {
            fields.stdoutLines.first { $0.hasPrefix(name + ": ") }.map { String($0.dropFirst(name.count + 2)) }
        }
        #expect(field("Package") == "conditions" && field("Version") == "0.1.0-1" && field("Architecture") == "amd64")
        let depends = try #require(field("Depends"))
        for library in ["libc6", "libxml2", "libcurl4", "libmosquitto1"] { #expect(depends.contains(library), "Depends: \(depends)") }
        #expect(depends.hasSuffix("libcurl4, libmosquitto1"), "added by hand: LazyLibcurl and LazyMosquitto open them on first use")
        #expect(field("Recommends") == "chromium-headless-shell")
        let conffiles = try await run("/usr/bin/dpkg-deb", ["--info", deb.path, "conffiles"], in: folder)
        #expect(conffiles.stdout == "/etc/conditions/sources.json\n")

        // The files themselves: the repository's config and unit; the unit passes systemd's check.
        let unpacked = folder.appendingPathComponent("unpacked")
        #expect(try await run("/usr/bin/dpkg-deb", ["--extract", deb.path, unpacked.path], in: folder).status == 0)
        func data(_ path: String, in root: URL) throws -> Data { try Data(contentsOf: root.appendingPathComponent(path)) }
        #expect(try data("etc/conditions/sources.json", in: unpacked) == data("sources.json", in: CLI.packageRoot))
        let unit = try String(decoding: data("lib/systemd/system/conditions.service", in: unpacked), as: UTF8.self)
        #expect(unit == (try String(decoding: data("packaging/conditions.service", in: CLI.packageRoot), as: UTF8.self)))
        #expect(unit.contains("ExecStart=/usr/bin/conditions serve\n"))
        let local = folder.appendingPathComponent("conditions.service")
        try unit.replacingOccurrences(of: "/usr/bin/conditions", with: unpacked.appendingPathComponent("usr/bin/conditions").path)
            .write(to: local, atomically: true, encoding: .utf8)
        let verify = try await run("/usr/bin/systemd-analyze", ["verify", local.path], in: folder)
        #expect(verify.status == 0 && !verify.stderr.contains("conditions.service"), "\(verify.stderr)")

        // lintian: no error. The one tag left out is the debug build's own: it finds the Swift
        // runtime in /opt/swift through its RUNPATH, where the release build (`scripts/dev
        // package`, checked with no tag left out) links it statically.
        let lintian = try await run("/usr/bin/lintian", ["--fail-on", "error", "--suppress-tags", "custom-library-search-path", deb.path],
                                    in: folder, timeout: 300)
        #expect(lintian.status == 0, "\(lintian.stdout)\(lintian.stderr)")
        #expect(!lintian.stdout.contains("E: "), "\(lintian.stdout)")

        // The tarball: one folder, relocatable, answering with its built-in config from anywhere.
        #expect(try await run("/bin/tar", ["-xzf", tarball.path, "-C", folder.path], in: folder).status == 0)
        let tree = folder.appendingPathComponent("conditions-0.1.0")
        for path in ["bin/conditions", "share/man/man1/conditions.1", "share/conditions/Fixtures/moon/now.json"] {
            #expect(FileManager.default.fileExists(atPath: tree.appendingPathComponent(path).path), "\(path) is in the tarball")
        }
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let offline = try await run(tree.appendingPathComponent("bin/conditions").path, ["--profile", "offline", "--format", "ndjson", "pass:snoqualmie"],
                                    in: empty, environment: ["PATH": "/usr/bin:/bin", "HOME": empty.path, "TZ": "UTC"])
        #expect(offline.status == 0 && offline.stdout.contains(#""source":"fixtures""#), "\(offline.stdout)\(offline.stderr)")
    }
}
