import Foundation
import TestHarness
import Testing

/// One executable: the HTTP and MCP servers are part of `conditions`, and every libcurl function
/// it calls is its own (LazyLibcurl, opening libcurl.so.4 on first use), so the release build
/// as `scripts/dev` makes it (`-disable-autolink-library curl`) needs no libcurl at start.
@Suite("Linking")
struct LinkingTests {
    @Test func everyLibraryTheBinaryNeedsIsFound() async throws {
        // The dynamic loader lists the libraries it would load and exits, as `ldd` does.
        let output = try await CLI.run(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(output.status == 0)
        for library in ["libc.so.6", "libxml2.so.2"] {
            #expect(output.stdout.contains(library), "conditions links \(library)")
        }
        #expect(!output.stdout.contains("not found"), "\(output.stdout)")
    }

    /// No libcurl function is left for the loader to find: without the `-lcurl` that
    /// FoundationNetworking asks for, nothing would need libcurl.so.4.
    @Test func everyLibcurlFunctionIsDefinedByTheBinary() async throws {
        let symbols = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/nm"), ["-D", "--undefined-only", CLI.binary.path],
                                               in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(symbols.status == 0, "\(symbols.stderr)")
        #expect(symbols.stdout.contains("GLIBC"), "nm lists the binary's undefined symbols")
        let curl = symbols.stdoutLines.filter { $0.contains("curl_") }
        #expect(curl.isEmpty, "left to libcurl.so.4: \(curl)")
        let defined = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/nm"), ["--defined-only", CLI.binary.path],
                                               in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(defined.stdout.contains(" T curl_easy_setopt"), "LazyLibcurl's definitions are linked in")
    }

    /// libmosquitto is opened only when `serve` publishes to Home Assistant (LazyMosquitto): the
    /// loader never lists it, every mosquitto function the program calls is its own, and a local
    /// answer runs without it mapped.
    @Test func libmosquittoIsOpenedOnlyWhenUsed() async throws {
        let loaded = try await CLI.run(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(!loaded.stdout.contains("mosquitto"), "\(loaded.stdout)")
        let symbols = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/nm"), ["-D", "--undefined-only", CLI.binary.path],
                                               in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(symbols.stdout.contains("GLIBC"), "nm lists the binary's undefined symbols")
        #expect(!symbols.stdout.contains("mosquitto_"), "left to the loader: \(symbols.stdoutLines.filter { $0.contains("mosquitto_") })")
        let defined = try await CLI.runProgram(URL(fileURLWithPath: "/usr/bin/nm"), ["--defined-only", CLI.binary.path],
                                               in: CLI.packageRoot, environment: ["PATH": "/usr/bin:/bin"], timeout: 60)
        #expect(defined.stdout.contains(" T mosquitto_publish"), "LazyMosquitto's definitions are linked in")
        // LD_DEBUG=files names every library the loader opens, dlopen included.
        let answer = try await CLI.run(["moon:now", "--format", "json"], environment: ["LD_DEBUG": "files"])
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(answer.stderr.contains("libxml2"), "LD_DEBUG lists what is opened")
        #expect(!answer.stderr.contains("libmosquitto"), "a local answer never opens libmosquitto")
    }

    /// SwiftNIO and Hummingbird are linked statically, so no loader lists them: look for their
    /// mangled module names (`7NIOCore`, `11Hummingbird`), which every symbol and type
    /// reference of theirs carries, in the binary itself.
    @Test func theServersArePartOfTheOneExecutable() throws {
        for module in ["7NIOCore", "11Hummingbird", "3MCP"] {
            #expect(try Self.binary(CLI.binary, contains: module), "conditions links \(module)")
        }
    }

    static func binary(_ url: URL, contains text: String) throws -> Bool {
        let data = try Data(contentsOf: url, options: .alwaysMapped)
        let needle = Array(text.utf8)
        // memchr for the first byte, then compare (glibc's memmem is not in the Glibc module).
        return data.withUnsafeBytes { bytes -> Bool in
            guard let base = bytes.baseAddress, needle.count <= bytes.count else { return false }
            var offset = 0
            while offset + needle.count <= bytes.count {
                guard let hit = memchr(base + offset, Int32(needle[0]), bytes.count - offset - needle.count + 1) else { return false }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(hit, needle, needle.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}
