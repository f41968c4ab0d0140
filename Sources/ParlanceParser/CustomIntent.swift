import Foundation
import ParlanceICU

/// An intent an app defines itself, as a Shortcuts custom intent (intents.md "Custom intents";
/// records.md context file, `intents: [{...}]`): Soup Chef's `orderSoup`.
///
/// ```json
/// {"name": "orderSoup", "category": "order", "confirmation": true,
///  "title": {"en": "Order soup", "es": "Pedir sopa"},
///  "parameters": [
///    {"name": "soup", "type": "enum", "required": true,
///     "cases": [{"id": "tomato", "names": {"en": ["tomato"], "es": ["tomate"], "fr": ["tomate"]}}]},
///    {"name": "quantity", "type": "integer"},
///    {"name": "options", "type": "string", "list": true}],
///  "phrases": {"en": ["order {quantity} {soup} soups"], "es": ["pide {quantity} sopas de {soup}"]},
///  "shortcutTypes": [{"parameters": ["soup", "quantity"], "title": {"en": "Order {quantity} {soup}"}}],
///  "responses": {"success": {"success": true, "templates": {"en": "Your {quantity, plural, …}"}}}}
/// ```
public struct CustomIntent: Sendable, Codable, Hashable {
    public struct Parameter: Sendable, Codable, Hashable {
        public enum ValueType: String, Sendable, Codable, Hashable, CaseIterable {
            case string, integer, decimal, boolean
            /// One of `cases`, named per language.
            case `enum`
            /// An app object with identifier and display string, resolved through `vocabulary`.
            case object
        }

        public struct Case: Sendable, Codable, Hashable {
            public let id: String
            /// Names per language, the first the display name.
            public let names: [String: [String]]

            public init(id: String, names: [String: [String]]) {
                self.id = id
                self.names = names
            }
        }

        public let name: String
        public let type: ValueType
        public let list: Bool
        public let required: Bool
        public let cases: [Case]
        /// For objects: the vocabulary type that resolves them.
        public let vocabulary: String?

        enum CodingKeys: String, CodingKey { case name, type, list, required, cases, vocabulary }

        public init(
            name: String, type: ValueType, list: Bool = false, required: Bool = false, cases: [Case] = [], vocabulary: String? = nil
        ) {
            self.name = name
            self.type = type
            self.list = list
            self.required = required
            self.cases = cases
            self.vocabulary = vocabulary
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            let typeName = try c.decode(String.self, forKey: .type)
            guard let type = ValueType(rawValue: typeName) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .type, in: c,
                    debugDescription:
                        "unknown parameter type '\(typeName)': expected one of \(ValueType.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            self.type = type
            list = try c.decodeIfPresent(Bool.self, forKey: .list) ?? false
            required = try c.decodeIfPresent(Bool.self, forKey: .required) ?? false
            cases = try c.decodeIfPresent([Case].self, forKey: .cases) ?? []
            vocabulary = try c.decodeIfPresent(String.self, forKey: .vocabulary)
            if type == .enum, cases.isEmpty {
                throw DecodingError.dataCorruptedError(forKey: .cases, in: c, debugDescription: "an enum parameter needs its cases")
            }
        }

        /// The display name of a case in a language (its first name there), else its id.
        public func caseName(_ id: String, language: String) -> String {
            cases.first { $0.id == id }?.names[language]?.first ?? id
        }
    }

    /// A combination of parameters that makes a shortcut, with its title and subtitle per language.
    public struct ShortcutType: Sendable, Codable, Hashable {
        public let parameters: [String]
        public let title: [String: String]
        public let subtitle: [String: String]?

        public init(parameters: [String], title: [String: String], subtitle: [String: String]? = nil) {
            self.parameters = parameters
            self.title = title
            self.subtitle = subtitle
        }
    }

    /// A response code's templates (ICU MessageFormat) per language.
    public struct Response: Sendable, Codable, Hashable {
        public let success: Bool
        public let templates: [String: String]

        public init(success: Bool, templates: [String: String]) {
            self.success = success
            self.templates = templates
        }
    }

    public let name: String
    public let category: String?
    public let title: [String: String]
    public let confirmation: Bool
    public let parameters: [Parameter]
    /// Example phrases per language; `{parameter}` marks where a value goes.
    public let phrases: [String: [String]]
    public let shortcutTypes: [ShortcutType]
    /// By response code: "success", "failure", and the app's own ("failureOutOfStock").
    public let responses: [String: Response]

    enum CodingKeys: String, CodingKey { case name, category, title, confirmation, parameters, phrases, shortcutTypes, responses }

    /// Categories of custom intents (intents.md).
    public static let categories = [
        "generic", "information", "order", "book", "buy", "call", "create", "do", "go", "log", "play", "run", "search", "send", "set",
        "share", "start", "view", "download", "filter", "navigate", "open", "post", "request", "toggle"
    ]

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        category = try c.decodeIfPresent(String.self, forKey: .category)
        if let category, !Self.categories.contains(category) {
            throw DecodingError.dataCorruptedError(
                forKey: .category, in: c,
                debugDescription: "unknown category '\(category)': expected one of \(Self.categories.joined(separator: ", "))")
        }
        title = try c.decodeIfPresent([String: String].self, forKey: .title) ?? [:]
        confirmation = try c.decodeIfPresent(Bool.self, forKey: .confirmation) ?? false
        parameters = try c.decodeIfPresent([Parameter].self, forKey: .parameters) ?? []
        phrases = try c.decodeIfPresent([String: [String]].self, forKey: .phrases) ?? [:]
        shortcutTypes = try c.decodeIfPresent([ShortcutType].self, forKey: .shortcutTypes) ?? []
        responses = try c.decodeIfPresent([String: Response].self, forKey: .responses) ?? [:]
        // A declaration without parameters may add phrases to an intent imported from an
        // `.intentdefinition` file: its slots are checked once that file is in.
        if !parameters.isEmpty, let problem = problems().first {
            throw DecodingError.dataCorruptedError(forKey: problem.key, in: c, debugDescription: problem.message)
        }
    }

    public init(
        name: String, category: String? = nil, title: [String: String] = [:], confirmation: Bool = false, parameters: [Parameter] = [],
        phrases: [String: [String]] = [:], shortcutTypes: [ShortcutType] = [], responses: [String: Response] = [:]
    ) {
        self.name = name
        self.category = category
        self.title = title
        self.confirmation = confirmation
        self.parameters = parameters
        self.phrases = phrases
        self.shortcutTypes = shortcutTypes
        self.responses = responses
    }

    /// What is wrong with the declaration (a phrase or shortcut type naming a parameter the
    /// intent does not have), with the key it concerns; empty when it is well-formed.
    func problems() -> [(key: CodingKeys, message: String)] {
        var result: [(CodingKeys, String)] = []
        let names = Set(parameters.map(\.name))
        for (language, list) in phrases.sorted(by: { $0.key < $1.key }) {
            for phrase in list {
                for slot in Self.slots(in: phrase) where !names.contains(slot) {
                    result.append((.phrases, "phrase '\(phrase)' (\(language)) names '{\(slot)}', which is not a parameter of \(name)"))
                }
            }
        }
        for type in shortcutTypes {
            for p in type.parameters where !names.contains(p) {
                result.append((.shortcutTypes, "shortcut type names '\(p)', which is not a parameter of \(name)"))
            }
        }
        // A template ICU cannot read is found here, when the context loads, not when
        // `respond` first renders it.
        for (code, response) in responses.sorted(by: { $0.key < $1.key }) {
            for (language, template) in response.templates.sorted(by: { $0.key < $1.key }) {
                do {
                    try MessageFormat.check(template, locale: language)
                } catch {
                    result.append((.responses, "response '\(code)' (\(language)): \(error)"))
                }
            }
        }
        return result
    }

    public func parameter(_ name: String) -> Parameter? { parameters.first { $0.name == name } }

    /// This intent with a supplement's phrases added (per language, no repeats), and its title
    /// and responses where it has them.
    func adding(_ supplement: CustomIntent) -> CustomIntent {
        var phrases = self.phrases
        for (language, list) in supplement.phrases {
            for phrase in list where !(phrases[language] ?? []).contains(phrase) { phrases[language, default: []].append(phrase) }
        }
        return CustomIntent(
            name: name, category: supplement.category ?? category, title: title.merging(supplement.title) { $1 },
            confirmation: confirmation || supplement.confirmation,
            parameters: parameters, phrases: phrases, shortcutTypes: shortcutTypes + supplement.shortcutTypes,
            responses: responses.merging(supplement.responses) { $1 })
    }

    /// A phrase with sample values in its slots: an enum's first case, 2 for numbers.
    public func example(_ phrase: String, language: String) -> String {
        var result = phrase
        for slot in Self.slots(in: phrase) {
            guard let p = parameter(slot) else { continue }
            let sample: String
            switch p.type {
            case .enum: sample = p.cases.first.map { p.caseName($0.id, language: language) } ?? slot
            case .integer: sample = "2"
            case .decimal: sample = "1.5"
            default: sample = slot
            }
            result = result.replacingOccurrences(of: "{\(slot)}", with: sample)
        }
        return result
    }

    /// The `{name}` slots of a phrase, in order.
    public static func slots(in phrase: String) -> [String] {
        var result: [String] = []
        var rest = phrase[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return result
    }
}

extension AppDefinition {
    /// "What can I do with this app?": example phrases of its intents in a language, by
    /// intent: its custom intents' phrases, then the `IntentPhrases` of its vocabulary file.
    public func examples(language: String) -> [(intent: String, phrases: [String])] {
        var result: [(String, [String])] = []
        for intent in customIntents {
            if let phrases = intent.phrases[language], !phrases.isEmpty {
                result.append((intent.name, phrases.map { intent.example($0, language: language) }))
            }
        }
        if let file = appVocabularyFiles[language] {
            for (intent, phrases) in file.intentPhrases.sorted(by: { $0.key < $1.key }) where !phrases.isEmpty {
                result.append((intent, phrases))
            }
        }
        return result
    }
}
