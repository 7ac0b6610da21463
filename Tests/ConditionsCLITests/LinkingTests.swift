import Foundation
import TestHarness
import Testing

/// One executable: `conditions` links libcurl and libxml2 as ordinary system libraries, and
/// the HTTP and MCP servers are part of it.
@Suite("Linking")
struct LinkingTests {
    @Test func everyLibraryTheBinaryNeedsIsFound() async throws {
        // The dynamic loader lists the libraries it would load and exits, as `ldd` does.
        let output = try await CLI.run(["--version"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
        #expect(output.status == 0)
        for library in ["libc.so.6", "libcurl.so.4", "libxml2.so.2"] {
            #expect(output.stdout.contains(library), "conditions links \(library)")
        }
        #expect(!output.stdout.contains("not found"), "\(output.stdout)")
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
