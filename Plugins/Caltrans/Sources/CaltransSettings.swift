import ConditionsKit
import Foundation

/// The validated `options` of a Caltrans source instance.
struct CaltransSettings: Sendable {
    static let defaultBaseURL = URL(string: "https://cwwp2.dot.ca.gov/data")!

    /// Where these options live in `sources.json`, for messages.
    let optionsPath: String
    /// The portal's data root; `/d{N}/cc/ccStatusD{NN}.json` and the rest are under it.
    let baseURL: URL
    /// The districts read, ascending: their passes are served, others are not.
    var districts: [Int] { chosen ?? CaltransCatalog.districts }
    /// The `districts` option, or nil for the catalog's: read when first asked, so a process
    /// that never asks Caltrans does not load its catalog (every local answer made this
    /// instance and loaded it: scenario 1, issue 45).
    private let chosen: [Int]?

    /// Reads `baseURL` and `districts` (default: the districts of the catalog's passes);
    /// errors name the option's JSON path.
    init(options: inout SourceOptions) throws(ConditionsError) {
        optionsPath = options.path
        baseURL = try options.httpURL("baseURL", withoutQuery: true) ?? Self.defaultBaseURL
        guard let value = options.value("districts") else {
            chosen = nil
            return
        }
        guard let list = value.arrayValue, !list.isEmpty else {
            throw ConditionsError.configuration("\(options.path).districts: expected a list of Caltrans district numbers (1 to 12), e.g. [3, 9, 10]")
        }
        var districts: [Int] = []
        for (index, entry) in list.enumerated() {
            guard let number = entry.intValue, (1...12).contains(number) else {
                throw ConditionsError.configuration("\(options.path).districts[\(index)]: expected a Caltrans district number from 1 to 12, found \(entry.serialized())")
            }
            guard !districts.contains(number) else {
                throw ConditionsError.configuration("\(options.path).districts[\(index)]: district \(number) is listed twice")
            }
            districts.append(number)
        }
        let passless = districts.filter { number in !CaltransCatalog.all.contains { $0.district == number } }
        guard passless.isEmpty else {
            let known = CaltransCatalog.districts.map(String.init).joined(separator: ", ")
            throw ConditionsError.configuration("\(options.path).districts: the catalog has no pass in district \(passless.map(String.init).joined(separator: ", ")) (passes are in \(known))")
        }
        chosen = districts.sorted()
    }
}
