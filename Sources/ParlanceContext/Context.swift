import Foundation
import ParlanceText

/// What the parser knows about the device: the installed apps, the intents each handles,
/// and their vocabularies (records.md "Context file").
public struct ParserContext: Sendable, Decodable {
    /// The apps that handle intents, in the order of the context file.
    public var apps: [AppDefinition]
    /// Problems met while loading the app vocabulary files the context names: a malformed
    /// file is reported here (file, key path, what was expected) and skipped; the rest loads.
    public var diagnostics: [ContextError] = []
    /// The user's shortcuts: phrases they assigned to an app's intent with fixed parameters.
    public var shortcuts: [Shortcut] = []
    /// Interactions the apps donated (the start of the user's `DonationLog`).
    public var donations: [Donation] = []
    /// Apps on the device that handle no intent Parlance knows (records.md `installedApps`):
    /// a request that names one gets no intent and `unavailableApp`.
    public var installedApps: [String] = []

    /// A context built in code. Unlike `decode(_:file:directory:)`, it checks nothing (app names,
    /// vocabulary types, shortcuts, donations) and loads no vocabulary or intent definition files.
    public init(apps: [AppDefinition], shortcuts: [Shortcut] = [], donations: [Donation] = [], installedApps: [String] = []) {
        self.apps = apps
        self.shortcuts = shortcuts
        self.donations = donations
        self.installedApps = installedApps
    }

    enum CodingKeys: String, CodingKey { case apps, shortcuts, donations, installedApps }

    /// Decodes the JSON of a context file; `shortcuts`, `donations` and `installedApps` may be left
    /// out. The checks across apps, shortcuts and donations are made by `decode(_:file:directory:)`,
    /// not here.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        apps = try c.decode([AppDefinition].self, forKey: .apps)
        shortcuts = try c.decodeIfPresent([Shortcut].self, forKey: .shortcuts) ?? []
        donations = try c.decodeIfPresent([Donation].self, forKey: .donations) ?? []
        installedApps = try c.decodeIfPresent([String].self, forKey: .installedApps) ?? []
    }

    /// Whether the context describes a device (it lists apps): then a request naming an app
    /// that is not there gets no intent. A context of no apps labels a corpus.
    public var listsApps: Bool { !apps.isEmpty || !installedApps.isEmpty }

    /// Shortcuts and donations must name apps and intents of the context (checked once the
    /// intent definition files are in).
    func validate(file: String) throws(ContextError) {
        // An installed app without intents cannot also be an app with intents.
        for (n, installed) in installedApps.enumerated() {
            let key = compactAppKey(TextNormalizer.key(installed))
            guard !key.isEmpty else { throw ContextError(file: file, message: "at installedApps[\(n)]: an empty app name") }
            for (a, app) in apps.enumerated() {
                if let name = app.allNames.first(where: { compactAppKey(TextNormalizer.key($0)) == key }) {
                    throw ContextError(
                        file: file,
                        message:
                            "at installedApps[\(n)]: '\(installed)' is also apps[\(a)] '\(name)'; an app is either installed without intents or listed with its intents, not both"
                    )
                }
            }
        }
        // Apps are told apart by name: two with the same name (up to case, accents, spaces)
        // would be one app to the parser.
        var named: [String: Int] = [:]
        // A vocabulary type nothing reads (a typo such as "contactNames") would be ignored
        // silently: the catalogue's types and those of the context's custom intents only.
        let known = Set(IntentCatalogue.standard.vocabularyTypes).union(
            apps.flatMap(\.customIntents).flatMap(\.parameters).compactMap(\.vocabulary))
        for (a, app) in apps.enumerated() {
            for name in app.allNames {
                let key = compactAppKey(TextNormalizer.key(name))
                if let other = named[key], other != a {
                    throw ContextError(
                        file: file,
                        message: "at apps[\(a)]: '\(name)' is also the name of apps[\(other)] '\(apps[other].name)'; app names must differ")
                }
                named[key] = a
            }
            if app.intents.isEmpty, app.intentDefinition == nil {
                throw ContextError(
                    file: file, message: "at apps[\(a)] '\(app.name)': no intents (an app without intents goes in installedApps)")
            }
            // appVocabulary is keyed by locale: a key that is none ("english") would name a
            // file no language ever reads.
            for locale in app.appVocabulary.keys.sorted() {
                do { _ = try ParlanceLocale(locale) } catch {
                    throw ContextError(
                        file: file, message: "at apps[\(a)] '\(app.name)'.appVocabulary: key '\(locale)': \(error.description)")
                }
            }
            for (key, vocabularies) in [("userVocabulary", app.userVocabulary), ("appVocabularyItems", app.appVocabularyItems)] {
                for type in vocabularies.keys.sorted() where !known.contains(type) {
                    throw ContextError(
                        file: file,
                        message:
                            "at apps[\(a)] '\(app.name)'.\(key): no vocabulary type '\(type)' (known: \(known.sorted().joined(separator: ", ")))"
                    )
                }
                for (type, items) in vocabularies.sorted(by: { $0.key < $1.key }) {
                    var seen = Set<String>()
                    for item in items where !seen.insert(item.id).inserted {
                        throw ContextError(
                            file: file, message: "at apps[\(a)] '\(app.name)'.\(key).\(type): two items have the id '\(item.id)'")
                    }
                }
            }
        }
        for app in apps {
            for intent in app.customIntents {
                if let problem = intent.problems().first {
                    throw ContextError(file: file, message: "at apps.\(app.name).intents.\(intent.name): \(problem.message)")
                }
            }
        }
        var ids = Set<String>()
        for shortcut in shortcuts {
            guard ids.insert(shortcut.id).inserted else {
                throw ContextError(file: file, message: "at shortcuts: two shortcuts have the id '\(shortcut.id)'")
            }
            if let problem = shortcut.problem(in: self, catalogue: .standard) {
                throw ContextError(file: file, message: "at shortcuts: \(problem)")
            }
        }
        for donation in donations {
            guard let app = apps.first(where: { $0.name == donation.app }), app.handles(donation.intent) else {
                throw ContextError(
                    file: file,
                    message: "at donations: donation \(donation.id): no app '\(donation.app)' handling '\(donation.intent)' in the context")
            }
        }
    }

    /// Reads a context file (JSON) and the `AppIntentVocabulary.plist` files it names
    /// (relative to the file). Errors in the JSON name the file and the key path; errors in
    /// a vocabulary file go to `diagnostics`.
    public static func load(contentsOf url: URL) throws(ContextError) -> ParserContext {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ContextError(file: url.path, message: "cannot read: \(FileErrorText.describe(error))")
        }
        var context = try decode(data, file: url.path, directory: url.deletingLastPathComponent())
        context.loadAppVocabularies(relativeTo: url.deletingLastPathComponent())
        return context
    }

    /// Imports every app's `intentDefinition` file (`IntentDefinitionFile`): its intents join
    /// the app's. An intent the context also declares without parameters gets that
    /// declaration's phrases, title and responses added (the way to give an imported intent
    /// more phrases); one declared with parameters wins, with a warning. Unsupported
    /// constructs and unreadable files become diagnostics.
    public mutating func loadIntentDefinitions(relativeTo directory: URL) {
        for a in apps.indices {
            guard let path = apps[a].intentDefinition else { continue }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
            do {
                let file = try IntentDefinitionFile.load(contentsOf: url)
                for warning in file.warnings {
                    diagnostics.append(ContextError(file: url.path, message: "warning: \(warning)"))
                }
                for intent in file.intents {
                    guard let i = apps[a].intents.firstIndex(where: { $0.name == intent.name }) else {
                        apps[a].intents.append(.custom(intent))
                        continue
                    }
                    // Declared in the context without parameters: phrases (and responses) to add.
                    if case .custom(let inline) = apps[a].intents[i], inline.parameters.isEmpty {
                        apps[a].intents[i] = .custom(intent.adding(inline))
                    } else {
                        diagnostics.append(
                            ContextError(
                                file: url.path,
                                message:
                                    "warning: \(apps[a].name) declares \(intent.name) with its parameters in the context too; that declaration is used"
                            ))
                    }
                }
            } catch {
                diagnostics.append(error)
            }
        }
    }

    /// Loads every app's `appVocabulary` files, by language; failures become diagnostics.
    public mutating func loadAppVocabularies(relativeTo directory: URL) {
        for a in apps.indices {
            for (locale, path) in apps[a].appVocabulary.sorted(by: { $0.key < $1.key }) {
                let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : directory.appendingPathComponent(path)
                let language = String(locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
                do {
                    let vocabulary = try AppIntentVocabulary.load(contentsOf: url)
                    apps[a].appVocabularyFiles[language] = vocabulary
                    for name in vocabulary.alternativeAppNames where !apps[a].allNames.contains(name.name) {
                        apps[a].alternativeNames.append(name)
                    }
                    for warning in vocabulary.warnings {
                        diagnostics.append(ContextError(file: url.path, message: "warning: \(warning)"))
                    }
                } catch {
                    diagnostics.append(error)
                }
            }
        }
    }

    /// Decodes a context; with `directory`, imports the intent definition files it names
    /// (relative to it) before checking shortcuts and donations.
    public static func decode(_ data: Data, file: String, directory: URL? = nil) throws(ContextError) -> ParserContext {
        do {
            var context = try JSONGuard.decode(ParserContext.self, from: data)
            if let directory { context.loadIntentDefinitions(relativeTo: directory) }
            try context.validate(file: file)
            return context
        } catch let error as ContextError {
            throw error
        } catch let error as DecodingError {
            throw ContextError(file: file, message: LanguageResources.describe(error))
        } catch {
            throw ContextError(file: file, message: "\(error)")
        }
    }

    /// The built-in demo context from the SiriKit guides: MonkeyChat (contacts Bobo, Bobo
    /// the Great, Bobo Jr., Little Bobo), MonkeyFit (workout "Bananarific") and Soup Chef.
    public static let demo: ParserContext = {
        guard let url = Bundle.module.url(forResource: "demo-context", withExtension: "json", subdirectory: "Data"),
            let context = try? ParserContext.load(contentsOf: url)
        else { fatalError("Data/demo-context.json is missing or malformed in the ParlanceContext bundle") }
        return context
    }()

    /// The vocabulary types queries may name: the catalogue's, and those of the custom
    /// intents' object parameters ("storeName").
    public func vocabularyTypes(catalogue: IntentCatalogue = .standard) -> [String] {
        var types = catalogue.vocabularyTypes
        for p in apps.flatMap(\.customIntents).flatMap(\.parameters) {
            if let type = p.vocabulary, !types.contains(type) { types.append(type) }
        }
        return types
    }

    /// The apps that handle an intent.
    public func apps(handling intent: String) -> [AppDefinition] { apps.filter { $0.handles(intent) } }

    /// Every vocabulary item of a type, user vocabulary first (in priority order), across apps
    /// and the languages of their vocabulary files.
    public func vocabulary(_ type: String) -> [VocabularyItem] {
        apps.flatMap { app in
            (app.userVocabulary[type] ?? []) + app.appVocabulary(type, language: nil)
        }
    }
}

/// A context file, vocabulary file, intent definition, strings table or donation journal that cannot be
/// read or is wrong: which file, and what is wrong where.
public struct ContextError: Error, Sendable, CustomStringConvertible {
    /// The path of the file, as it was given.
    public let file: String
    /// What is wrong, with the key path or line where that can be told ("at apps[0]: …").
    public let message: String
    /// What the file is: "context file", "vocabulary file", "intent definition", "strings
    /// table" or "donation journal" — told by the reader that failed, or else by the name.
    public let kind: String
    /// The kind of file, its path and the message ("context file ctx.json: at apps[1]: …").
    public var description: String { "\(kind) \(file): \(message)" }

    /// A problem with `file`; when `kind` is nil, the kind of file is told by its name (`kind(of:)`).
    public init(file: String, message: String, kind: String? = nil) {
        self.file = file
        self.message = message
        self.kind = kind ?? ContextError.kind(of: file)
    }

    /// What a file is, from its name, for readers that take several kinds.
    public static func kind(of file: String) -> String {
        let name = file.lowercased()
        if name.hasSuffix(".plist") { return "vocabulary file" }
        if name.hasSuffix(".intentdefinition") { return "intent definition" }
        if name.hasSuffix(".strings") { return "strings table" }
        if name.hasSuffix(".jsonl") || name.hasSuffix(".jsonl.gz") { return "donation journal" }
        return "context file"
    }
}

/// An app of the context (an entry of `apps` in records.md "Context file"): its names, the intents it
/// handles, and its vocabularies.
public struct AppDefinition: Sendable, Decodable {
    /// Another name users call the app by (`INAlternativeAppNames`), with a hint of how it is said.
    public struct AlternativeName: Sendable, Decodable {
        /// The alternative name as written ("Monkey Chat").
        public var name: String
        /// How the name is said when its spelling does not tell ("monkey chat"); nil when not given.
        public var pronunciationHint: String?
    }

    /// The app's name ("MonkeyChat"). Apps are told apart by their names, ignoring case, accents and
    /// spaces.
    public var name: String
    /// Other names of the app: those of the context file, then those its vocabulary files add.
    public var alternativeNames: [AlternativeName]
    /// SiriKit intent names this app handles, and the custom intents it declares.
    public var intents: [IntentDeclaration]
    /// `AppIntentVocabulary.plist` paths by locale, relative to the context file.
    public var appVocabulary: [String: String]
    /// Ordered user vocabulary by vocabulary type, most important first.
    public var userVocabulary: [String: [VocabularyItem]]
    /// App vocabulary given inline (an extension of records.md), by vocabulary type.
    public var appVocabularyItems: [String: [VocabularyItem]]
    /// The loaded `appVocabulary` files by language ("en").
    public var appVocabularyFiles: [String: AppIntentVocabulary] = [:]
    /// An Xcode `.intentdefinition` file declaring custom intents (records.md extension),
    /// relative to the context file; its `<lang>.lproj/*.strings` localize it.
    public var intentDefinition: String?
    /// Intent parameters this app does not use ("requestPayment.note"): a value said for one
    /// resolves to `notRequired` (an extension of records.md).
    public var unusedParameters: Set<String>

    enum CodingKeys: String, CodingKey {
        case name, alternativeNames, intents, appVocabulary, userVocabulary, appVocabularyItems, unusedParameters, intentDefinition
    }

    /// Decodes an entry of `apps`. Throws when the name is empty, an intent is neither a catalogue
    /// intent nor a custom intent declaration, or an `unusedParameters` entry is not "intent.parameter"
    /// of the catalogue.
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
        unusedParameters = Set(try c.decodeIfPresent([String].self, forKey: .unusedParameters) ?? [])
        intentDefinition = try c.decodeIfPresent(String.self, forKey: .intentDefinition)
        for entry in unusedParameters {
            let parts = entry.split(separator: ".").map(String.init)
            guard parts.count == 2, IntentCatalogue.standard.intent(parts[0])?.parameter(parts[1]) != nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .unusedParameters, in: c, debugDescription: "'\(entry)' is not 'intent.parameter' of the catalogue")
            }
        }
    }

    /// App vocabulary of a type: the inline items, then those of the vocabulary file for
    /// `language` (or of every file when nil).
    public func appVocabulary(_ type: String, language: String?) -> [VocabularyItem] {
        let files =
            language.map { appVocabularyFiles[$0].map { [$0] } ?? [] }
            ?? appVocabularyFiles.keys.sorted().compactMap { appVocabularyFiles[$0] }
        return (appVocabularyItems[type] ?? []) + files.flatMap { $0.items[type] ?? [] }
    }

    /// Whether the app uses a parameter of an intent (see `unusedParameters`).
    public func uses(_ parameter: String, of intent: String) -> Bool { !unusedParameters.contains("\(intent).\(parameter)") }

    /// Whether the app handles the intent of this name (a SiriKit intent or one of its custom intents).
    public func handles(_ intent: String) -> Bool { intents.contains { $0.name == intent } }

    /// The custom intents the app declares.
    public var customIntents: [CustomIntent] {
        intents.compactMap { if case .custom(let intent) = $0 { intent } else { nil } }
    }

    /// The name and its alternatives.
    public var allNames: [String] { [name] + alternativeNames.map(\.name) }
}

/// An intent an app handles: a SiriKit intent by name, or a custom intent it declares
/// (`CustomIntent`; the parser does not parse to custom intents yet: their declarations give
/// example phrases and responses).
public enum IntentDeclaration: Sendable, Decodable {
    /// A SiriKit intent of the catalogue, by name ("sendMessage").
    case sirikit(String)
    /// A custom intent the app declares, inline or in its `intentDefinition` file.
    case custom(CustomIntent)

    /// The intent's name, SiriKit or custom ("sendMessage", "orderSoup").
    public var name: String {
        switch self {
        case .sirikit(let name): name
        case .custom(let intent): intent.name
        }
    }

    /// Decodes an entry of an app's `intents`: a string is a SiriKit intent name (one that is not in
    /// the catalogue is an error), an object a custom intent declaration.
    public init(from decoder: any Decoder) throws {
        if let name = try? decoder.singleValueContainer().decode(String.self) {
            guard IntentCatalogue.standard.intent(name) != nil else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "unknown SiriKit intent '\(name)'"))
            }
            self = .sirikit(name)
            return
        }
        self = .custom(try CustomIntent(from: decoder))
    }
}

/// A vocabulary item: a string (its id is the string) or `{"id", "phrase", "pronunciation"}`.
public struct VocabularyItem: Sendable, Decodable, Hashable {
    /// The identifier the resolver reports for the item (records.md resolution `items`); for an item
    /// given as a string, the string itself.
    public var id: String
    /// The words as the user says them ("Bobo the Great").
    public var phrase: String
    /// How the phrase is said when its spelling does not tell ("bo bo"); matched like the phrase. Nil
    /// when not given.
    public var pronunciation: String?
    /// What the user calls this contact ("Bobby" for Robert Hart): said whole, it is this item
    /// (records.md: a contact item's `nickname`). Nil when not given.
    public var nickname: String?
    /// The contact's relationship to the user (records.md: one of `NameKnowledge.relationships`,
    /// "mother", "manager"…): "my mom", "mamá" reach the contact that is the user's mother.
    public var relationship: String?

    /// An item with its identifier, its phrase and, optionally, its pronunciation, nickname and
    /// relationship.
    public init(id: String, phrase: String, pronunciation: String? = nil, nickname: String? = nil, relationship: String? = nil) {
        self.id = id
        self.phrase = phrase
        self.pronunciation = pronunciation
        self.nickname = nickname
        self.relationship = relationship
    }

    enum CodingKeys: String, CodingKey { case id, phrase, pronunciation, nickname, relationship }

    /// Decodes a string (the item's id and phrase) or an object with a `phrase` and, optionally, an
    /// `id` (the phrase when absent), a `pronunciation`, a `nickname` and a `relationship` (one of
    /// `NameKnowledge.relationships`; another is an error naming them).
    public init(from decoder: any Decoder) throws {
        if let phrase = try? decoder.singleValueContainer().decode(String.self) {
            self.init(id: phrase, phrase: phrase)
            return
        }
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let phrase = try c.decode(String.self, forKey: .phrase)
        let relationship = try c.decodeIfPresent(String.self, forKey: .relationship)
        if let relationship, !NameKnowledge.relationships.contains(relationship) {
            throw DecodingError.dataCorruptedError(
                forKey: .relationship, in: c,
                debugDescription: "'\(relationship)' is not a relationship (\(NameKnowledge.relationships.joined(separator: ", ")))")
        }
        self.init(
            id: try c.decodeIfPresent(String.self, forKey: .id) ?? phrase, phrase: phrase,
            pronunciation: try c.decodeIfPresent(String.self, forKey: .pronunciation),
            nickname: try c.decodeIfPresent(String.self, forKey: .nickname), relationship: relationship)
    }
}

/// An app name's key (`TextNormalizer.key`) as names are compared: without spaces, hyphens,
/// apostrophes or dots ("Monkey Chat", "monkey-chat" and "MonkeyChat" are one name).
package func compactAppKey(_ key: String) -> String {
    // Most keys have none of the four: a scan of their bytes says so, without reading characters.
    guard key.utf8.contains(where: { $0 == 0x20 || $0 == 0x2D || $0 == 0x27 || $0 == 0x2E }) else { return key }
    return key.filter { $0 != " " && $0 != "-" && $0 != "'" && $0 != "." }
}
