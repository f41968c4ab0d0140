import Foundation
import ParlanceICU
import ParlanceText

/// Plural forms of names ("tomato soups", "sopas de tomate" for a case named "tomato soup",
/// "sopa de tomate"), from the `plurals` of each language's `lexicon.json`: pairs of a
/// singular ending and its plural ending (`["", "s"]`, `["y", "ies"]`; Italian `["a", "e"]`).
/// Custom enum cases are matched, and resolved, in the singular and the plural alike.
public enum NamePlurals {
    private static let rules = Locked<[String: [(singular: String, plural: String)]]>([:])

    /// The language's ending pairs (none for a language without a lexicon or without plurals).
    static func rules(_ language: String) -> [(singular: String, plural: String)] {
        rules.withLock { cache in
            if let known = cache[language] { return known }
            struct File: Decodable { var plurals: [[String]]? }
            var found: [(String, String)] = []
            if let url = LanguageGrammar.directory?.appendingPathComponent(language).appendingPathComponent("lexicon.json"),
                let data = try? Data(contentsOf: url), let file = try? JSONGuard.decode(File.self, from: data)
            {
                found = (file.plurals ?? []).compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
            }
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

extension CustomIntent.Parameter {
    /// The ways a case of this enum may be said in a language: its names; each name without
    /// the words the names of several cases share ("tomato" for "Tomato Soup" when the others
    /// are soups too), when something of three letters or more is left; and the plurals of
    /// both (`NamePlurals`).
    public func saidForms(of c: Case, language: String) -> [String] {
        let names = c.names[language] ?? []
        var owners: [String: Set<String>] = [:]
        for other in cases {
            for name in other.names[language] ?? [] {
                for word in name.lowercased().split(separator: " ") { owners[String(word), default: []].insert(other.id) }
            }
        }
        var forms = names
        for name in names {
            let kept = name.split(separator: " ").filter { (owners[$0.lowercased()]?.count ?? 0) < 2 }
            let short = kept.joined(separator: " ")
            if !kept.isEmpty, kept.contains(where: { $0.count >= 3 }), short != name, !forms.contains(short) { forms.append(short) }
        }
        for form in forms {
            for plural in NamePlurals.variants(form, language: language) where !forms.contains(plural) { forms.append(plural) }
        }
        return forms
    }
}
