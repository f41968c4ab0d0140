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
    /// A typed parameter of a custom intent (an entry of the declaration's `parameters`).
    public struct Parameter: Sendable, Codable, Hashable {
        /// The type of a custom parameter's values (the declaration's `type`).
        public enum ValueType: String, Sendable, Codable, Hashable, CaseIterable {
            /// Text as said, a whole number, a decimal number, or yes or no.
            case string, integer, decimal, boolean
            /// One of `cases`, named per language.
            case `enum`
            /// An app object with identifier and display string, resolved through `vocabulary`.
            case object
        }

        /// One case of an enum parameter, with its names in each language.
        public struct Case: Sendable, Codable, Hashable {
            /// The case's identifier: the value a parse gives the parameter ("tomato").
            public let id: String
            /// Names per language, the first the display name.
            public let names: [String: [String]]

            /// A case with its identifier and its names by language code ("en").
            public init(id: String, names: [String: [String]]) {
                self.id = id
                self.names = names
            }
        }

        /// The parameter's name, as `{name}` slots in phrases and titles write it ("soup").
        public let name: String
        /// The type of its values.
        public let type: ValueType
        /// Whether it takes several values; false when not declared.
        public let list: Bool
        /// Whether the intent cannot be carried out without it: when it is not said, the resolver
        /// reports it in `IntentFrame.missing` with `needsValue`. False when not declared.
        public let required: Bool
        /// For an `enum` parameter, its cases (at least one); empty for other types.
        public let cases: [Case]
        /// For objects: the vocabulary type that resolves them.
        public let vocabulary: String?

        enum CodingKeys: String, CodingKey { case name, type, list, required, cases, vocabulary }

        /// A parameter declared in code. Unlike `init(from:)`, it does not check that an enum has
        /// cases.
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

        /// Decodes an entry of a declaration's `parameters`; throws on an unknown `type` or an `enum`
        /// without `cases`.
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
        /// The names of the parameters a shortcut of this type fixes.
        public let parameters: [String]
        /// The shortcut's title by language, with `{parameter}` slots ("Order {quantity} {soup}").
        public let title: [String: String]
        /// The shortcut's subtitle by language, with slots as in `title`; nil when it has none.
        public let subtitle: [String: String]?

        /// A shortcut type fixing `parameters`, with its title and, optionally, its subtitle by
        /// language.
        public init(parameters: [String], title: [String: String], subtitle: [String: String]? = nil) {
            self.parameters = parameters
            self.title = title
            self.subtitle = subtitle
        }
    }

    /// A response code's templates (ICU MessageFormat) per language.
    public struct Response: Sendable, Codable, Hashable {
        /// Whether the code reports that the intent was carried out ("success") rather than a failure.
        public let success: Bool
        /// The ICU MessageFormat template by language code ("en"), with the response's properties as
        /// arguments.
        public let templates: [String: String]

        /// A response with its success flag and its templates by language.
        public init(success: Bool, templates: [String: String]) {
            self.success = success
            self.templates = templates
        }
    }

    /// The intent's name, as parses, shortcuts and donations give it ("orderSoup").
    public let name: String
    /// The Shortcuts category (one of `categories`, such as "order"), whose verbs may lead a phrase of
    /// the intent; nil when not declared.
    public let category: String?
    /// The intent's title by language ("Order soup"); empty when not declared.
    public let title: [String: String]
    /// Whether the app asks the user to confirm before carrying the intent out; false when not
    /// declared.
    public let confirmation: Bool
    /// The intent's typed parameters, in declaration order.
    public let parameters: [Parameter]
    /// Example phrases per language; `{parameter}` marks where a value goes.
    public let phrases: [String: [String]]
    /// The combinations of parameters users can make shortcuts of, each with its title.
    public let shortcutTypes: [ShortcutType]
    /// By response code: "success", "failure", and the app's own ("failureOutOfStock").
    public let responses: [String: Response]

    enum CodingKeys: String, CodingKey { case name, category, title, confirmation, parameters, phrases, shortcutTypes, responses }

    /// Categories of custom intents (intents.md).
    public static let categories = [
        "generic", "information", "order", "book", "buy", "call", "create", "do", "go", "log", "play", "run", "search", "send", "set",
        "share", "start", "view", "download", "filter", "navigate", "open", "post", "request", "toggle"
    ]

    /// Decodes an inline declaration of a context file. Throws on an unknown `category` or a malformed
    /// parameter and, when the declaration has parameters, on a phrase or shortcut type that names a
    /// parameter the intent does not have or a response template ICU cannot read. A declaration without
    /// parameters (phrases for an intent of an `.intentdefinition` file) is checked once that file is
    /// in.
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

    /// A custom intent declared in code; nothing is checked (see `init(from:)`).
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

    /// The parameter named `name`, or nil when the intent has none of that name.
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
