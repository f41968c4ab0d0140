import Foundation
import ParlanceText

/// What the parser knows about the device: the installed apps, the intents each handles,
/// and their vocabularies (records.md "Context file").
public struct ParserContext: Sendable, Decodable {
    public var apps: [AppDefinition]

    public init(apps: [AppDefinition]) { self.apps = apps }

    /// Reads a context file (JSON). Errors name the file and the key path.
    public static func load(contentsOf url: URL) throws(ContextError) -> ParserContext {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ContextError(file: url.path, message: "cannot read: \(error.localizedDescription)")
        }
        return try decode(data, file: url.path)
    }

    public static func decode(_ data: Data, file: String) throws(ContextError) -> ParserContext {
        do {
            return try JSONDecoder().decode(ParserContext.self, from: data)
        } catch let error as DecodingError {
            throw ContextError(file: file, message: LanguageResources.describe(error))
        } catch {
            throw ContextError(file: file, message: "\(error)")
        }
    }

    /// The built-in demo context from the SiriKit guides: MonkeyChat (contacts Bobo, Bobo
    /// the Great, Bobo Jr., Little Bobo), MonkeyFit (workout "Bananarific") and Soup Chef.
    public static let demo: ParserContext = {
        guard let url = Bundle.module.url(forResource: "demo-context", withExtension: "json", subdirectory: "Grammar"),
            let context = try? ParserContext.load(contentsOf: url)
        else { fatalError("Grammar/demo-context.json is missing or malformed in the ParlanceParser bundle") }
        return context
    }()

    /// The apps that handle an intent.
    public func apps(handling intent: String) -> [AppDefinition] { apps.filter { $0.handles(intent) } }

    /// Every vocabulary item of a type, user vocabulary first (in priority order), across apps.
    public func vocabulary(_ type: String) -> [VocabularyItem] {
        apps.flatMap { ($0.userVocabulary[type] ?? []) + ($0.appVocabularyItems[type] ?? []) }
    }
}

public struct ContextError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let message: String
    public var description: String { "context file \(file): \(message)" }
}

public struct AppDefinition: Sendable, Decodable {
    public struct AlternativeName: Sendable, Decodable {
        public var name: String
        public var pronunciationHint: String?
    }

    public var name: String
    public var alternativeNames: [AlternativeName]
    /// SiriKit intent names this app handles, and the custom intents it declares.
    public var intents: [IntentDeclaration]
    /// `AppIntentVocabulary.plist` paths by locale, relative to the context file.
    public var appVocabulary: [String: String]
    /// Ordered user vocabulary by vocabulary type, most important first.
    public var userVocabulary: [String: [VocabularyItem]]
    /// App vocabulary given inline (an extension of records.md), by vocabulary type.
    public var appVocabularyItems: [String: [VocabularyItem]]

    enum CodingKeys: String, CodingKey { case name, alternativeNames, intents, appVocabulary, userVocabulary, appVocabularyItems }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .name, in: c, debugDescription: "an app name cannot be empty")
        }
        alternativeNames = try c.decodeIfPresent([AlternativeName].self, forKey: .alternativeNames) ?? []
        intents = try c.decodeIfPresent([IntentDeclaration].self, forKey: .intents) ?? []
        appVocabulary = try c.decodeIfPresent([String: String].self, forKey: .appVocabulary) ?? [:]
        userVocabulary = try c.decodeIfPresent([String: [VocabularyItem]].self, forKey: .userVocabulary) ?? [:]
        appVocabularyItems = try c.decodeIfPresent([String: [VocabularyItem]].self, forKey: .appVocabularyItems) ?? [:]
    }

    public func handles(_ intent: String) -> Bool { intents.contains { $0.name == intent } }

    /// The name and its alternatives.
    public var allNames: [String] { [name] + alternativeNames.map(\.name) }
}

/// An intent an app handles: a SiriKit intent by name, or a custom intent it declares
/// (custom intents are declared for the coming custom-intent support; the parser does not
/// parse to them yet).
public enum IntentDeclaration: Sendable, Decodable {
    case sirikit(String)
    case custom(name: String, category: String?)

    public var name: String {
        switch self {
        case .sirikit(let name): name
        case .custom(let name, _): name
        }
    }

    enum CodingKeys: String, CodingKey { case name, category }

    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            guard IntentCatalogue.standard.intent(name) != nil else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown SiriKit intent '\(name)'"))
            }
            self = .sirikit(name)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self = .custom(name: try c.decode(String.self, forKey: .name), category: try c.decodeIfPresent(String.self, forKey: .category))
    }
}

/// A vocabulary item: a string (its id is the string) or `{"id", "phrase", "pronunciation"}`.
public struct VocabularyItem: Sendable, Decodable, Hashable {
    public var id: String
    public var phrase: String
    public var pronunciation: String?

    public init(id: String, phrase: String, pronunciation: String? = nil) {
        self.id = id
        self.phrase = phrase
        self.pronunciation = pronunciation
    }

    enum CodingKeys: String, CodingKey { case id, phrase, pronunciation }

    public init(from decoder: any Decoder) throws {
        if let phrase = try? decoder.singleValueContainer().decode(String.self) {
            self.init(id: phrase, phrase: phrase)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let phrase = try c.decode(String.self, forKey: .phrase)
        self.init(id: try c.decodeIfPresent(String.self, forKey: .id) ?? phrase, phrase: phrase,
                  pronunciation: try c.decodeIfPresent(String.self, forKey: .pronunciation))
    }
}
