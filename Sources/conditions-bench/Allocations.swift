import MallocInterposerSwift

/// Counts heap allocations with ordo-one's malloc interposer (the counter behind
/// package-benchmark's malloc metrics), linked into this executable.
enum Allocations {
    /// Whether `malloc` really goes through the interposer in this process: linking it is
    /// enough when the dynamic linker binds it before libc; otherwise nothing is counted.
    static let available: Bool = {
        // Through the Swift runtime (swift_slowAlloc), which the optimiser cannot elide as it
        // may a malloc/free pair.
        let counted = count { () -> Int in
            let pointer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 8)
            defer { pointer.deallocate() }
            return 1
        }
        return counted.allocations > 0
    }()

    /// Runs `body` and returns its result with the number of allocations (malloc, calloc,
    /// realloc, posix_memalign) and bytes it made.
    static func count<T>(_ body: () throws -> T) rethrows -> (value: T, allocations: Int, bytes: Int) {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        let value = try body()
        MallocInterposerSwift.unhook()
        let statistics = MallocInterposerSwift.getStatistics()
        return (value, statistics.mallocCount, statistics.mallocBytesCount)
    }

    /// The same for async work; counts cover every thread, so nothing else may run meanwhile.
    static func count<T>(_ body: () async throws -> T) async rethrows -> (value: T, allocations: Int, bytes: Int) {
        MallocInterposerSwift.reset()
        MallocInterposerSwift.hook()
        let value = try await body()
        MallocInterposerSwift.unhook()
        let statistics = MallocInterposerSwift.getStatistics()
        return (value, statistics.mallocCount, statistics.mallocBytesCount)
    }
}
