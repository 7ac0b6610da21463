/// The version printed by `--version` and sent in the HTTP User-Agent.
package enum Version {
    /// The version string, `0.1.0`.
    package static let current = "0.1.0"
}
