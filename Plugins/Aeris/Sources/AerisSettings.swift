import ConditionsJSON
import ConditionsKit
import Foundation

/// An Aeris instance's validated options.
struct AerisSettings: Sendable {
    static let defaultBaseURL = URL(string: "https://api.aerisapi.com")!

    /// The JSON path of the options (`sources.aeris.options`), for messages that point the
    /// user at the credentials.
    let optionsPath: String
    let clientId: String
    let clientSecret: String
    let baseURL: URL
    /// Overrides the config's top-level location when set.
    let place: Place?

    init(options: SourceOptions) throws {
        var options = options
        optionsPath = options.path
        clientId = try Self.credential("clientId", variable: "AERIS_CLIENT_ID", in: &options)
        clientSecret = try Self.credential("clientSecret", variable: "AERIS_CLIENT_SECRET", in: &options)
        baseURL = try Self.baseURL(in: &options)
        if var nested = try options.object("location") {
            place = try Place(options: &nested)
        } else {
            place = nil
        }
        try options.finish()
    }

    /// Secrets and identifiers that must never reach a message: both credentials.
    var secrets: [String] { [clientSecret, clientId] }

    private static func credential(_ key: String, variable: String, in options: inout SourceOptions) throws(ConditionsError) -> String {
        guard let value = try options.string(key) else {
            throw ConditionsError.configuration("\(options.path).\(key): required (Aeris credentials; normally \"${\(variable)}\")")
        }
        guard !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ConditionsError.configuration("\(options.path).\(key): is empty (is \(variable) set?)")
        }
        return value
    }

    private static func baseURL(in options: inout SourceOptions) throws(ConditionsError) -> URL {
        guard let text = try options.string("baseURL") else { return defaultBaseURL }
        // The value is not echoed: a mistyped URL may carry credentials in its user info.
        guard let components = URLComponents(string: text),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = components.host, !host.isEmpty,
              components.query == nil, components.fragment == nil,
              let url = components.url
        else {
            throw ConditionsError.configuration("\(options.path).baseURL: expected an http or https URL without query, such as \"https://api.aerisapi.com\"")
        }
        return url
    }
}
