import Foundation
import ParlanceICU

/// Plural forms of names ("tomato soups", "sopas de tomate" for a case named "tomato soup",
/// "sopa de tomate"), from each language's `plurals.json`: pairs of a singular ending and its
/// plural ending (`["", "s"]`, `["y", "ies"]`; Italian `["a", "e"]`).
/// Custom enum cases are matched, and resolved, in the singular and the plural alike.
public enum NamePlurals {
    private static let rules = Locked<[String: [(singular: String, plural: String)]]>([:])

    /// The language's ending pairs (none for a language without plurals).
    static func rules(_ language: String) -> [(singular: String, plural: String)] {
        rules.withLock { cache in
            if let known = cache[language] { return known }
            struct File: Decodable { var plurals: [[String]] }
            // A language without the file (or with a damaged one) has no plural forms; the
            // text layer's own tests check every folder's files.
            let file = try? LanguageResources.load(File.self, file: "plurals.json", language: language)
            let found = (file?.plurals ?? []).compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
            cache[language] = found
            return found
        }
    }

    /// The name's plural readings: one word of three letters or more at a time made plural
    /// by each rule that fits it (the head noun may be first or last). Not the name itself.
    public static func variants(_ name: String, language: String) -> [String] {
        let words = name.split(separator: " ").map(String.init)
        var result: [String] = []
        for (i, word) in words.enumerated() where word.count >= 3 && word.allSatisfy(\.isLetter) {
            for (singular, plural) in rules(language) where word.count > singular.count && word.lowercased().hasSuffix(singular) {
                var changed = words
                changed[i] = String(word.dropLast(singular.count)) + plural
                let variant = changed.joined(separator: " ")
                if variant != name, !result.contains(variant) { result.append(variant) }
            }
        }
        return result
    }
}
