import Foundation
import TestHarness
import Testing

/// What the binary loads before `main`: libcurl and its TLS chain are opened only by the first
/// request (ConditionsHTTP), so local answers stay small (README, Performance); the servers'
/// libraries live in their own executables (`conditions-mcp`, `conditions-serve`).
@Suite("Linking")
struct LinkingTests {
    @Test func libcurlIsNotLoadedAtStart() async throws {
        // The dynamic loader lists the libraries it would load and exits, as `ldd` does.
        let output = try await CLI.run(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("libc.so.6"))
        #expect(!output.stdout.contains("libcurl"))
        #expect(!output.stdout.contains("libssl"))
    }

    /// SwiftNIO and Hummingbird are linked statically, so no loader lists them: look for their
    /// mangled module names (`7NIOCore`, `11Hummingbird`), which every symbol and type
    /// reference of theirs carries, in the binaries themselves.
    @Test func theHTTPServerIsNotLinkedIntoConditions() throws {
        let serve = CLI.binary.deletingLastPathComponent().appendingPathComponent("conditions-serve")
        for module in ["7NIOCore", "11Hummingbird", "8NIOPosix"] {
            #expect(try Self.binary(serve, contains: module), "the check finds \(module) where it is linked")
            #expect(try !Self.binary(CLI.binary, contains: module), "conditions links \(module)")
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
