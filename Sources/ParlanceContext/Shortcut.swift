import Foundation
import ParlanceText

/// A shortcut: an intent of an app with fixed parameters, and the phrase the user assigned
/// to it ("sopa del día" → Soup Chef orderSoup, soup = tomato, quantity = 1).
///
/// In a context file (records.md extension), `"shortcuts": [...]`:
/// ```json
/// {"id": "s1", "phrase": "sopa del día", "app": "Soup Chef", "intent": "orderSoup",
///  "parameters": {"soup": "tomato", "quantity": 1}}
/// ```
/// `phrase` may be left out: the shortcut then has no phrase yet, and
/// `ParserContext.suggestedPhrases(for:language:)` offers some. `language` ("es"), when
/// given, is the only language the phrase is listened for in.
public struct Shortcut: Sendable, Hashable, Decodable {
    /// The shortcut's identifier, unique in the context; `ParseResult.shortcut` reports it.
    public var id: String
    /// The phrase the user assigned ("sopa del día"); nil when the shortcut has none yet.
    public var phrase: String?
    /// The language code the phrase is listened for in ("es"); nil for every language.
    public var language: String?
    /// The name of the app whose intent the shortcut runs.
    public var app: String
    /// The intent it runs, SiriKit or custom; one the app handles.
    public var intent: String
    /// The fixed parameter values by name: enum case ids, vocabulary item ids, numbers or text.
    public var parameters: [String: ParameterValue]

    /// A shortcut made in code; it is not checked against a context.
    public init(id: String, phrase: String?, language: String? = nil, app: String, intent: String, parameters: [String: ParameterValue]) {
        self.id = id
        self.phrase = phrase
        self.language = language
        self.app = app
        self.intent = intent
        self.parameters = parameters
    }

    enum CodingKeys: String, CodingKey { case id, phrase, language, app, intent, parameters }

    /// Decodes an entry of a context's `shortcuts`; throws when `phrase` is given but blank.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        phrase = try c.decodeIfPresent(String.self, forKey: .phrase)
        language = try c.decodeIfPresent(String.self, forKey: .language)
        app = try c.decode(String.self, forKey: .app)
        intent = try c.decode(String.self, forKey: .intent)
        parameters = try c.decodeIfPresent([String: ParameterValue].self, forKey: .parameters) ?? [:]
        if let phrase, phrase.trimmingCharacters(in: .whitespaces).isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .phrase, in: c, debugDescription: "a shortcut phrase cannot be empty (leave it out for a shortcut without one)")
        }
    }

    /// Why the shortcut does not fit the context (unknown app, intent, parameter or enum
    /// case), or nil.
    func problem(in context: ParserContext, catalogue: IntentCatalogue) -> String? {
        guard let app = context.apps.first(where: { $0.name == self.app }) else {
            return "shortcut \(id): unknown app '\(self.app)' (the context has \(context.apps.map(\.name).joined(separator: ", ")))"
        }
        if let custom = app.customIntents.first(where: { $0.name == intent }) {
            for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
                guard let p = custom.parameter(name) else {
                    return
                        "shortcut \(id): \(intent) has no parameter '\(name)' (it has \(custom.parameters.map(\.name).joined(separator: ", ")))"
                }
                if p.type == .enum, !p.cases.contains(where: { $0.id == value.display }) {
                    return
                        "shortcut \(id): '\(value.display)' is not a case of \(intent).\(name) (\(p.cases.map(\.id).joined(separator: ", ")))"
                }
            }
            return nil
        }
        guard app.handles(intent), let spec = catalogue.intent(intent) else {
            return "shortcut \(id): \(app.name) does not handle '\(intent)'"
        }
        for name in parameters.keys.sorted() where spec.parameter(name) == nil {
            return "shortcut \(id): \(intent) has no parameter '\(name)'"
        }
        return nil
    }

    /// The frame the shortcut runs: its intent with the fixed parameters (no spans: nothing
    /// of it was said). Enum values are shown by their name in the language.
    package func frame(in context: ParserContext, catalogue: IntentCatalogue, language: String, confidence: Double) -> IntentFrame {
        let app = context.apps.first { $0.name == self.app }
        let custom = app?.customIntents.first { $0.name == intent }
        let spec = catalogue.intent(intent)
        var result: [Parameter] = []
        for (name, value) in parameters.sorted(by: { $0.key < $1.key }) {
            if let p = custom?.parameter(name) {
                switch p.type {
                case .enum:
                    result.append(
                        Parameter(
                            name: name, value: .enumCase(value.display), raw: p.caseName(value.display, language: language), span: nil))
                default: result.append(Parameter(name: name, value: value, raw: value.display, span: nil))
                }
            } else {
                let typed: ParameterValue = spec?.parameter(name)?.type == .enum ? .enumCase(value.display) : value
                result.append(Parameter(name: name, value: typed, raw: value.display, span: nil))
            }
        }
        return IntentFrame(
            domain: custom != nil ? "custom" : spec?.domain ?? "custom", name: intent, app: self.app, confidence: confidence,
            parameters: result)
    }
}
