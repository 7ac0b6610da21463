import Foundation

/// One sentence of a text: as written, and as lowercased words with `separator` for the marks
/// that split clauses.
struct Sentence: Equatable {
    let text: String
    let words: [String]

    /// The word standing for a comma, colon, bracket or dash between words.
    static let separator = ","

    /// Abbreviations WSDOT writes before a period that ends no sentence ("Mt. Baker", "Nov. 13").
    private static let abbreviations: Set<String> = ["mt", "st", "rd", "blvd", "ave", "hwy", "no", "approx", "jan", "feb", "mar", "apr",
                                                     "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "mon", "tue", "wed", "thu",
                                                     "fri", "sat", "sun", "vs", "etc"]

    /// A text's sentences. A sentence ends at a semicolon, a line break, or a period,
    /// exclamation or question mark before a space, except after an abbreviation or a single
    /// letter ("p.m."): "2.7-mile section of Mt. Baker Highway … is closed" is one sentence.
    static func split(_ text: String) -> [Sentence] {
        let characters = Array(text)
        var sentences: [Sentence] = []
        var start = 0
        func add(_ range: Range<Int>) {
            let sentence = Sentence(String(characters[range]))
            if !sentence.words.isEmpty { sentences.append(sentence) }
        }
        for index in characters.indices {
            let character = characters[index]
            var ends = character == ";" || character.isNewline
            if ".!?".contains(character), index + 1 == characters.count || characters[index + 1].isWhitespace {
                // The letters just before the mark: scanned back, so a long text stays linear.
                var wordStart = index
                while wordStart > start, characters[wordStart - 1].isLetter { wordStart -= 1 }
                let before = String(characters[wordStart..<index]).lowercased()
                ends = character != "." || !(before.count == 1 || abbreviations.contains(before))
            }
            if ends {
                add(start..<(character == ";" || character.isNewline ? index : index + 1))
                start = index + 1
            }
        }
        add(start..<characters.count)
        return sentences
    }

    /// `text`'s words: runs of letters, digits and hyphens, lowercased; a comma, colon,
    /// bracket or a dash standing alone becomes `separator`.
    init(_ text: String) {
        self.text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        var words: [String] = []
        var word = ""
        func flush() {
            guard !word.isEmpty else { return }
            words.append(word.allSatisfy { $0 == "-" } ? Self.separator : word)
            word = ""
        }
        let characters = Array(text.lowercased())
        for (index, character) in characters.enumerated() {
            if character.isLetter || character.isNumber || character == "-" {
                word.append(character)
            } else if character == ",", word.last?.isNumber == true, index + 1 < characters.count, characters[index + 1].isNumber {
                continue  // "10,000 GVW" is one number
            } else {
                flush()
                if ",:()[]–—".contains(character), words.last != Self.separator { words.append(Self.separator) }
            }
        }
        flush()
        self.words = words
    }
}
