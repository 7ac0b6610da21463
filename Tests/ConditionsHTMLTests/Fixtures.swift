import Foundation
import Testing

/// Loads a page from Tests/ConditionsHTMLTests/Resources.
func fixture(_ name: String) throws -> Data {
    let url = try #require(Bundle.module.url(forResource: name, withExtension: "html", subdirectory: "Resources"))
    return try Data(contentsOf: url)
}

/// Bytes for an inline page written as UTF-8.
func utf8(_ html: String) -> Data {
    Data(html.utf8)
}
