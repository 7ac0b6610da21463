import Crypto

/// Names in the cache derived from text that may hold a secret (an instance's options): a
/// cryptographic digest, so nobody reading the cache folder can recover the text or test
/// guesses of it cheaply, as they could through a non-cryptographic hash (FNV).
enum CacheKey {
    /// The SHA-256 of `text`'s UTF-8 as 64 lower-case hex digits.
    static func digest(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
