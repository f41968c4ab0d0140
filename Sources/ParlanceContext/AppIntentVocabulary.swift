import Foundation
import ParlanceText

/// An app's `AppIntentVocabulary.plist` for one locale (intents.md "App-specific
/// vocabulary"), XML or binary property list:
/// - `ParameterVocabularies`: for intent parameters (`INStartWorkoutIntent.workoutName`),
///   items with an identifier and synonyms (phrase, pronunciation hint, examples);
/// - `IntentPhrases`: example phrases per intent;
/// - `INAlternativeAppNames` (also accepted here): app-name synonyms with pronunciation hints.
public struct AppIntentVocabulary: Sendable {
    /// Items by vocabulary type (`workoutActivityName`); one item per synonym, sharing the
    /// identifier.
    public var items: [String: [VocabularyItem]] = [:]
    /// Example phrases by catalogue intent name (`startWorkout`).
    public var intentPhrases: [String: [String]] = [:]
    /// Example phrases of vocabulary items, by item identifier.
    public var examples: [String: [String]] = [:]
    /// App-name synonyms from `INAlternativeAppNames`, in file order, each with its pronunciation hint.
    /// `ParserContext.loadAppVocabularies(relativeTo:)` adds them to the app's `alternativeNames`.
    public var alternativeAppNames: [AppDefinition.AlternativeName] = []
    /// Names that were well-formed but are not in the intent catalogue (skipped).
    public var warnings: [String] = []

    /// Reads a file; errors name the file, the key path and what was expected.
    public static func load(contentsOf url: URL, catalogue: IntentCatalogue = .standard) throws(ContextError) -> AppIntentVocabulary {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ContextError(file: url.path, message: "cannot read: \(FileErrorText.describe(error))")
        }
        return try decode(data, file: url.path, catalogue: catalogue)
    }

    /// Reads a vocabulary file's data (XML or binary property list). `file` names it in errors and
    /// warnings; parameter names that are not in `catalogue` are skipped with a warning.
    ///
    /// Throws a `ContextError` naming the file, the key path and what was expected when the data is not
    /// a property list or does not have the shape of an `AppIntentVocabulary.plist`.
    public static func decode(_ data: Data, file: String, catalogue: IntentCatalogue = .standard) throws(ContextError)
        -> AppIntentVocabulary
    {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: PropertyListGuard.checked(data), options: [], format: nil)
        } catch {
            throw ContextError(file: file, message: "not a property list (XML or binary): \(PropertyListGuard.describe(error))")
        }
        do {
            return try PlistReader(file: file, catalogue: catalogue).read(root)
        } catch let error as ContextError {
            throw error
        } catch {
            throw ContextError(file: file, message: "\(error)")
        }
    }

    /// `INStartWorkoutIntent` → `startWorkout`.
    static func intentName(_ sirikit: String) -> String? {
        guard sirikit.hasPrefix("IN"), sirikit.hasSuffix("Intent"), sirikit.count > 8 else { return nil }
        let core = sirikit.dropFirst(2).dropLast(6)
        return core.prefix(1).lowercased() + core.dropFirst()
    }
}

/// Walks the property list, keeping the key path for error messages.
private struct PlistReader {
    let file: String
    let catalogue: IntentCatalogue

    func fail(_ path: String, _ message: String) -> ContextError {
        ContextError(file: file, message: "at \(path): \(message)")
    }

    func dictionary(_ value: Any?, _ path: String) throws -> [String: Any] {
        guard let d = value as? [String: Any] else { throw fail(path, "expected a dictionary, found \(kind(value))") }
        return d
    }

    func array(_ value: Any?, _ path: String) throws -> [Any] {
        guard let a = value as? [Any] else { throw fail(path, "expected an array, found \(kind(value))") }
        return a
    }

    func string(_ value: Any?, _ path: String) throws -> String {
        guard let s = value as? String else { throw fail(path, "expected a string, found \(kind(value))") }
        guard !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw fail(path, "expected a non-empty string") }
        return s
    }

    func kind(_ value: Any?) -> String {
        switch value {
        case nil: "nothing (the key is missing)"
        case is String: "a string"
        case is [Any]: "an array"
        case is [String: Any]: "a dictionary"
        case is Bool, is NSNumber: "a number"
        case is Date: "a date"
        case is Data: "data"
        default: "\(type(of: value!))"
        }
    }

    func read(_ root: Any) throws -> AppIntentVocabulary {
        var result = AppIntentVocabulary()
        let top = try dictionary(root, "(top level)")
        for key in top.keys.sorted() where !["ParameterVocabularies", "IntentPhrases", "INAlternativeAppNames"].contains(key) {
            result.warnings.append("unknown key '\(key)' ignored")
        }
        if let vocabularies = top["ParameterVocabularies"] {
            for (v, entry) in try array(vocabularies, "ParameterVocabularies").enumerated() {
                let path = "ParameterVocabularies[\(v)]"
                let d = try dictionary(entry, path)
                var types: [String] = []
                for (n, name) in try array(d["ParameterNames"], "\(path).ParameterNames").enumerated() {
                    let full = try string(name, "\(path).ParameterNames[\(n)]")
                    let parts = full.split(separator: ".", maxSplits: 1).map(String.init)
                    guard parts.count == 2, let intent = AppIntentVocabulary.intentName(parts[0]) else {
                        throw fail("\(path).ParameterNames[\(n)]", "expected 'INSomeIntent.parameterName', found '\(full)'")
                    }
                    guard let spec = catalogue.intent(intent), let parameter = spec.parameter(parts[1]) else {
                        result.warnings.append("\(path).ParameterNames[\(n)]: '\(full)' is not in the intent catalogue; skipped")
                        continue
                    }
                    guard let type = parameter.vocabulary else {
                        result.warnings.append("\(path).ParameterNames[\(n)]: '\(full)' takes no vocabulary; skipped")
                        continue
                    }
                    if !types.contains(type) { types.append(type) }
                }
                var items: [VocabularyItem] = []
                for (i, itemEntry) in try array(d["ParameterVocabulary"], "\(path).ParameterVocabulary").enumerated() {
                    let itemPath = "\(path).ParameterVocabulary[\(i)]"
                    let item = try dictionary(itemEntry, itemPath)
                    let id = try string(item["VocabularyItemIdentifier"], "\(itemPath).VocabularyItemIdentifier")
                    let synonyms = try array(item["VocabularyItemSynonyms"], "\(itemPath).VocabularyItemSynonyms")
                    guard !synonyms.isEmpty else { throw fail("\(itemPath).VocabularyItemSynonyms", "expected at least one synonym") }
                    for (s, synonymEntry) in synonyms.enumerated() {
                        let synonymPath = "\(itemPath).VocabularyItemSynonyms[\(s)]"
                        let synonym = try dictionary(synonymEntry, synonymPath)
                        let phrase = try string(synonym["VocabularyItemPhrase"], "\(synonymPath).VocabularyItemPhrase")
                        let pronunciation = try synonym["VocabularyItemPronunciation"].map {
                            try string($0, "\(synonymPath).VocabularyItemPronunciation")
                        }
                        if let examples = synonym["VocabularyItemExamples"] {
                            for (e, example) in try array(examples, "\(synonymPath).VocabularyItemExamples").enumerated() {
                                result.examples[id, default: []].append(try string(example, "\(synonymPath).VocabularyItemExamples[\(e)]"))
                            }
                        }
                        items.append(VocabularyItem(id: id, phrase: phrase, pronunciation: pronunciation))
                    }
                }
                for type in types { result.items[type, default: []].append(contentsOf: items) }
            }
        }
        if let phrases = top["IntentPhrases"] {
            for (p, entry) in try array(phrases, "IntentPhrases").enumerated() {
                let path = "IntentPhrases[\(p)]"
                let d = try dictionary(entry, path)
                let sirikit = try string(d["IntentName"], "\(path).IntentName")
                let examples = try array(d["IntentExamples"], "\(path).IntentExamples").enumerated().map { e, example in
                    try string(example, "\(path).IntentExamples[\(e)]")
                }
                // A custom intent keeps its own name; a SiriKit one is named as in the catalogue.
                let name = AppIntentVocabulary.intentName(sirikit).flatMap { catalogue.intent($0)?.name } ?? sirikit
                result.intentPhrases[name, default: []].append(contentsOf: examples)
            }
        }
        if let names = top["INAlternativeAppNames"] {
            for (n, entry) in try array(names, "INAlternativeAppNames").enumerated() {
                let path = "INAlternativeAppNames[\(n)]"
                let d = try dictionary(entry, path)
                let name = try string(d["INAlternativeAppName"], "\(path).INAlternativeAppName")
                let hint = try d["INAlternativeAppNamePronunciationHint"].map {
                    try string($0, "\(path).INAlternativeAppNamePronunciationHint")
                }
                result.alternativeAppNames.append(.init(name: name, pronunciationHint: hint))
            }
        }
        return result
    }
}
