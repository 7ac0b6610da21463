/// The version printed by `--version` and sent in the HTTP User-Agent.
enum Version {
    static let current = "0.1.0"
}
