import Foundation
import ParlanceText

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
