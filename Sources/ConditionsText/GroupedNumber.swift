/// Whole numbers with thousands grouped by commas, as WSDOT and NWS write elevations
/// (`3,022`, `-1,250`): for the package's presentations, which must not differ in how they
/// print the same number.
package enum GroupedNumber {
    /// `number` with a comma before every third digit from the right.
    package static func text(_ number: Int) -> String {
        let digits = Array(String(number.magnitude))
        var text = number < 0 ? "-" : ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}
