import Foundation
import TestHarness
import Testing

/// What the binary loads before `main`: libcurl and its TLS chain are opened only by the first
/// request (ConditionsHTTP), so local answers stay small (README, Performance).
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
}
