import ConditionsJSON
import ConditionsKit

/// Per-field XPath overrides for pass pages (the `fields` option), so a site redesign is a
/// configuration edit (`"fields": {"conditions": "//div[@class='road']"}`), not a code change.
/// An override replaces that field only, whatever layout the page is read with; fields not
/// overridden come from the layout (`PageLayout`).
struct PageFields: Sendable, Equatable {
    /// A field a page reports.
    enum Field: String, Sendable, CaseIterable {
        case conditions, restrictionOne, restrictionTwo, updated, temperature, elevation, weather

        /// A page lacking a required field is an error; the others become null.
        var isRequired: Bool {
            switch self {
            case .conditions, .restrictionOne, .restrictionTwo, .updated: true
            case .temperature, .elevation, .weather: false
            }
        }

        /// The classic page's span for this field.
        var classicXPath: String {
            let id = switch self {
            case .conditions: "PassInfoConditions"
            case .restrictionOne: "PassInfoRestrictionsOne"
            case .restrictionTwo: "PassInfoRestrictionsTwo"
            case .updated: "PassInfoLastUpdate"
            case .temperature: "PassInfoTemperature"
            case .elevation: "PassInfoElevationF"
            case .weather: "PassInfoWeather"
            }
            return "//span[@id='\(id)']"
        }
    }

    /// The XPath of each overridden field.
    private(set) var overrides: [Field: String] = [:]

    /// No overrides.
    init() {}

    /// The `fields` options object; unknown names and empty expressions are configuration errors.
    init(options: inout SourceOptions) throws(ConditionsError) {
        for field in Field.allCases {
            guard let xpath = try options.string(field.rawValue) else { continue }
            guard !xpath.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ConditionsError.configuration("\(options.path).\(field.rawValue): the XPath is empty")
            }
            do {
                try PageExtraction.validate(xpath)
            } catch {
                throw ConditionsError.configuration("\(options.path).\(field.rawValue): \(error)")
            }
            overrides[field] = xpath
        }
        try options.finish()
    }

    /// The XPath the classic layout reads `field` with: the override, else the classic span.
    subscript(field: Field) -> String { overrides[field] ?? field.classicXPath }
}
