// The config target compiles Runtime.swift, whose instance fingerprints go through
// ConditionsCore's CacheKey (SHA-256 from swift-crypto). Building swift-crypto's BoringSSL with
// the fuzzer's instrumentation would cost minutes for code the loader does not exercise, so
// this target gets a digest-shaped stand-in; the real one is covered by CacheHygieneTests.
enum CacheKey {
    static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
