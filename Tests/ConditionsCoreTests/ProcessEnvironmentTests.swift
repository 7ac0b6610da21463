import ConditionsCore
import Foundation
import Testing

/// `ProcessEnvironment.current()` reads `environ` itself; it must read what Foundation reads.
@Suite struct ProcessEnvironmentTests {
    @Test func itIsFoundationsEnvironment() {
        let read = ProcessEnvironment.current()
        #expect(read == ProcessInfo.processInfo.environment)
        #expect(!read.isEmpty)
        // A value holding "=" keeps everything after the first one.
        #expect(read.keys.allSatisfy { !$0.contains("=") })
    }
}
