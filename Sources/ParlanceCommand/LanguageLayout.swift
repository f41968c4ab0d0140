import Foundation
import Parlance

/// What a language is made of in a source checkout (`NewLanguage/layout.json`): the folders
/// mirrored from the reference language, the entries some files must hold, the rules the
/// grammar must define, the thresholds entries and the generated files. `parlance
/// new-language` writes a language from it; `parlance parity` says what a language lacks.
struct LanguageLayout: Decodable {
    struct Reference: Decodable {
        let language: String
        let locale: String
    }

    struct Folder: Decodable {
        let path: String
        let about: String
        /// "any": one non-empty file of any name will do (a blind corpus's files are named by
        /// whoever wrote them); otherwise the reference's file names.
        let match: String?
        /// The empty file written in an "any" folder.
        let scaffold: String?
    }

    /// Key paths of a JSON file that must be filled as in the reference: "notNames" (the
    /// key, non-empty), "values.*.*" (every key the reference has at each `*`), "*".
    struct Entries: Decodable {
        let file: String
        let keys: [String]
    }

    /// Rules a grammar must define (in any of its `.sentences` files); "category_*" stands for
    /// every rule of the reference whose name starts with "category_".
    struct Rules: Decodable {
        let file: String
        let names: [String]
    }

    struct Generated: Decodable {
        let path: String
        let how: String
    }

    struct Part: Decodable {
        /// "text" (every folder of the text layer's Languages) or "parser" (every grammar folder).
        let name: String
        let folders: [Folder]
        let entries: [Entries]?
        let rules: Rules?
        let thresholds: [String]?
        let generated: [Generated]?
    }

    let reference: Reference
    let parts: [Part]

    /// The layout and skeleton shipped with the command.
    static var resourceFolder: URL {
        get throws {
            guard let url = Bundle.module.url(forResource: "NewLanguage", withExtension: nil) else {
                throw InputError("the command's NewLanguage resource folder is missing")
            }
            return url
        }
    }

    static func load() throws -> LanguageLayout {
        let url = try resourceFolder.appendingPathComponent("layout.json")
        do {
            return try JSONDecoder().decode(LanguageLayout.self, from: Data(contentsOf: url))
        } catch {
            throw InputError("NewLanguage/layout.json: \(error)")
        }
    }

    /// The languages of a kind found in a checkout: folders of the text layer ("text") or of
    /// the grammar ("parser").
    static func languages(of part: String, root: URL) -> [String] {
        let folder =
            part == "text" ? "Sources/ParlanceText/Languages" : "Sources/ParlanceParser/Grammar/Languages"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
        return entries.filter { !$0.hasPrefix(".") }.sorted()
    }
}

/// A path of the layout with its language and locale filled in.
struct LanguagePaths {
    let language: String
    /// The corpus locale (nl-NL); nil when the language has no corpus folder yet.
    let locale: String?

    func fill(_ path: String) -> String? {
        if path.contains("{locale}") && locale == nil { return nil }
        return path.replacingOccurrences(of: "{language}", with: language).replacingOccurrences(of: "{locale}", with: locale ?? "")
    }
}

/// One thing a language still lacks: a file, an entry of a file, a rule, a thresholds entry.
struct LanguageGap: Equatable, Sendable {
    /// The path relative to the checkout.
    let path: String
    /// What is missing there.
    let need: String
}

/// Compares languages with the layout's reference language.
struct LanguageParity {
    let layout: LanguageLayout
    let root: URL

    private var fileManager: FileManager { .default }

    /// The corpus locale of a language in the checkout: the folder of Corpora/intents named
    /// for it (nl-NL for nl), or nil.
    func locale(of language: String) -> String? {
        if language == layout.reference.language { return layout.reference.locale }
        let folders = (try? fileManager.contentsOfDirectory(atPath: root.appendingPathComponent("Corpora/intents").path)) ?? []
        return folders.sorted().first { $0 == language || $0.hasPrefix(language + "-") }
    }

    /// The parts that apply to a language: "text" when it has a text-layer folder, "parser"
    /// when it has a grammar folder.
    func parts(for language: String) -> [LanguageLayout.Part] {
        layout.parts.filter { LanguageLayout.languages(of: $0.name, root: root).contains(language) }
    }

    /// Everything `language` lacks against the reference, in layout order.
    func gaps(for language: String) -> [LanguageGap] {
        let paths = LanguagePaths(language: language, locale: locale(of: language))
        let reference = LanguagePaths(language: layout.reference.language, locale: layout.reference.locale)
        var gaps: [LanguageGap] = []
        for part in parts(for: language) {
            for folder in part.folders {
                guard let path = paths.fill(folder.path), let referencePath = reference.fill(folder.path) else {
                    gaps.append(
                        LanguageGap(
                            path: folder.path.replacingOccurrences(of: "{locale}", with: "\(language)-*"),
                            need: "missing: \(folder.about) (no corpus locale: Corpora/intents has no \(language)-* folder)"))
                    continue
                }
                gaps += folderGaps(folder, path: path, referencePath: referencePath)
            }
            for entries in part.entries ?? [] {
                guard let path = paths.fill(entries.file), let referencePath = reference.fill(entries.file) else { continue }
                gaps += entryGaps(entries, path: path, referencePath: referencePath)
            }
            if let rules = part.rules, let path = paths.fill(rules.file), let referencePath = reference.fill(rules.file) {
                gaps += ruleGaps(rules, path: path, referencePath: referencePath)
            }
            for file in part.thresholds ?? [] {
                guard let locale = paths.locale else { continue }
                if !thresholdLocales(in: file).contains(locale) {
                    gaps.append(
                        LanguageGap(path: file, need: "no entry for \(locale) (the reference's floors: \(layout.reference.locale))"))
                }
            }
            for generated in part.generated ?? [] {
                guard let path = paths.fill(generated.path) else { continue }
                if !fileManager.fileExists(atPath: root.appendingPathComponent(path).path) {
                    gaps.append(
                        LanguageGap(path: path, need: "missing: " + generated.how.replacingOccurrences(of: "{language}", with: language)))
                }
            }
        }
        return gaps
    }

    // MARK: - Folders and files

    func fileNames(in path: String) -> [String] {
        var isDirectory: ObjCBool = false
        let url = root.appendingPathComponent(path)
        guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
            let names = try? fileManager.contentsOfDirectory(atPath: url.path)
        else { return [] }
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    private func folderGaps(_ folder: LanguageLayout.Folder, path: String, referencePath: String) -> [LanguageGap] {
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: root.appendingPathComponent(path).path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            return [LanguageGap(path: path, need: "missing: \(folder.about)")]
        }
        if folder.match == "any" {
            let filled = fileNames(in: path).contains { fileGap(path + "/" + $0, referencePath: nil) == nil }
            return filled ? [] : [LanguageGap(path: path, need: "no non-empty file: \(folder.about)")]
        }
        return fileNames(in: referencePath).compactMap { name in
            fileGap(path + "/" + name, referencePath: referencePath + "/" + name)
        }
    }

    /// What one file lacks: existence, content, a skeleton's `todo`, the reference's intents.
    private func fileGap(_ path: String, referencePath: String?) -> LanguageGap? {
        let url = root.appendingPathComponent(path)
        guard let data = fileManager.contents(atPath: url.path) else { return LanguageGap(path: path, need: "missing") }
        let text = String(decoding: data, as: UTF8.self)
        if text.allSatisfy(\.isWhitespace) && !path.hasSuffix(".sentences") { return LanguageGap(path: path, need: "empty") }
        if path.hasSuffix(".json"), let object = try? JSONSerialization.jsonObject(with: data) {
            if let dictionary = object as? [String: Any], dictionary["todo"] != nil {
                return LanguageGap(path: path, need: "still the skeleton: fill it in and remove its \"todo\"")
            }
            if let array = object as? [Any], array.isEmpty { return LanguageGap(path: path, need: "empty") }
        }
        if path.hasSuffix(".sentences") {
            if text.split(separator: "\n").contains(where: { $0.hasPrefix("# TODO") }) {
                return LanguageGap(path: path, need: "still the skeleton: write its rules and remove its TODO line")
            }
            let outline: SentenceFileOutline
            do { outline = try SentenceFileOutline(text, file: path) } catch {
                return LanguageGap(path: path, need: "the grammar cannot read it: \(error)")
            }
            if let referencePath, let referenceText = fileManager.contents(atPath: root.appendingPathComponent(referencePath).path),
                let reference = try? SentenceFileOutline(String(decoding: referenceText, as: UTF8.self), file: referencePath)
            {
                let missing = reference.intents.subtracting(outline.intents).sorted()
                if !missing.isEmpty { return LanguageGap(path: path, need: "no templates for " + missing.joined(separator: ", ")) }
            }
        }
        return nil
    }

    // MARK: - Entries, rules, thresholds

    private func json(_ path: String) -> Any? {
        fileManager.contents(atPath: root.appendingPathComponent(path).path).flatMap { try? JSONSerialization.jsonObject(with: $0) }
    }

    private func entryGaps(_ entries: LanguageLayout.Entries, path: String, referencePath: String) -> [LanguageGap] {
        guard let reference = json(referencePath) else { return [] }
        // A missing or skeleton file is already said by its folder.
        guard let object = json(path), (object as? [String: Any])?["todo"] == nil else { return [] }
        var missing: [String] = []
        for key in entries.keys {
            missing += Self.missingKeys(key.split(separator: ".").map(String.init), reference: reference, value: object, prefix: "")
        }
        guard !missing.isEmpty else { return [] }
        return [LanguageGap(path: path, need: "entries the reference has: " + missing.joined(separator: ", "))]
    }

    /// The key paths under `keys` that `reference` fills and `value` does not.
    static func missingKeys(_ keys: [String], reference: Any, value: Any?, prefix: String) -> [String] {
        guard let key = keys.first else {
            return isFilled(reference) && !isFilled(value) ? [prefix] : []
        }
        guard let referenceObject = reference as? [String: Any] else { return [] }
        let object = value as? [String: Any]
        let names = key == "*" ? referenceObject.keys.sorted() : [key]
        return names.flatMap { name -> [String] in
            guard let next = referenceObject[name] else { return [] }
            let path = prefix.isEmpty ? name : prefix + "." + name
            return missingKeys(Array(keys.dropFirst()), reference: next, value: object?[name], prefix: path)
        }
    }

    private static func isFilled(_ value: Any?) -> Bool {
        switch value {
        case nil: false
        case let array as [Any]: !array.isEmpty
        case let object as [String: Any]: !object.isEmpty
        case let string as String: !string.isEmpty
        default: true
        }
    }

    /// The rule names defined in every `.sentences` file of the folder holding `file`.
    private func ruleNames(nextTo file: String) -> Set<String> {
        let folder = (file as NSString).deletingLastPathComponent
        return fileNames(in: folder).filter { $0.hasSuffix(".sentences") }.reduce(into: Set<String>()) { names, name in
            // A file the grammar cannot read defines nothing (its own gap says why).
            let text = fileManager.contents(atPath: root.appendingPathComponent(folder + "/" + name).path) ?? Data()
            names.formUnion((try? SentenceFileOutline(String(decoding: text, as: UTF8.self), file: folder + "/" + name))?.rules ?? [])
        }
    }

    private func ruleGaps(_ rules: LanguageLayout.Rules, path: String, referencePath: String) -> [LanguageGap] {
        guard fileManager.fileExists(atPath: root.appendingPathComponent(path).path) else { return [] }
        let referenceRules = ruleNames(nextTo: referencePath)
        let wanted = rules.names.flatMap { name -> [String] in
            name.hasSuffix("*") ? referenceRules.filter { $0.hasPrefix(String(name.dropLast())) }.sorted() : [name]
        }
        let have = ruleNames(nextTo: path)
        let missing = wanted.filter { !have.contains($0) }
        return missing.isEmpty
            ? [] : [LanguageGap(path: path, need: "rules to define: " + missing.map { "<\($0)>" }.joined(separator: ", "))]
    }

    func thresholdLocales(in file: String) -> Set<String> {
        Set((json(file) as? [String: Any])?.keys.map { $0 } ?? [])
    }
}
