import ArgumentParser
import Foundation
import Parlance

/// `parlance new-language`: writes the files of a new language into a source checkout.
struct NewLanguage: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new-language",
        abstract: "Write the files of a new language into a Parlance source checkout, to be filled in.",
        discussion: """
            Mirrors the reference language (en, en-US) as NewLanguage/layout.json describes: the \
            text layer's seven data files and case files; the grammar (common.sentences with \
            placeholder rules, a file per domain, lexicon.json, gazetteer.json, places.json); the \
            parser's case file; the team, resolution, training and blind corpus folders; an entry \
            in Corpora/thresholds.json and Corpora/blind/thresholds.json with the reference's floors. \
            Data files start as skeletons with a "todo", the others empty. Nothing that exists is \
            overwritten. Then it prints what the language still lacks, as `parlance parity` does; \
            the checkout still builds.
            """
    )

    @Argument(help: "The language: a code (nl; the corpus locale is CLDR's likely one, nl-NL) or a locale (nl-BE).")
    var language: String

    @Flag(name: .long, help: "Only the text layer (tokens and values, no intent grammar), as ja and zh.")
    var textOnly = false

    @Option(name: .long, help: "The checkout's root folder.")
    var root: String = "."

    func run() throws {
        let (code, locale, name) = try Self.identify(language)
        let layout = try LanguageLayout.load()
        let rootURL = try checkoutRoot(root, layout: layout)
        let parity = LanguageParity(layout: layout, root: rootURL)
        let parts = layout.parts.filter { !textOnly || $0.name == "text" }
        let paths = LanguagePaths(language: code, locale: locale)
        let reference = LanguagePaths(language: layout.reference.language, locale: layout.reference.locale)

        // Nothing is overwritten: every folder must be new.
        let existing = parts.flatMap(\.folders).compactMap { paths.fill($0.path) }.filter {
            FileManager.default.fileExists(atPath: rootURL.appendingPathComponent($0).path)
        }
        guard existing.isEmpty else {
            throw InputError("\(code) already has \(existing.joined(separator: ", ")); nothing was written")
        }

        let skeleton = try LanguageLayout.resourceFolder.appendingPathComponent("skeleton")
        var written: [String] = []
        for part in parts {
            for folder in part.folders {
                guard let path = paths.fill(folder.path), let referencePath = reference.fill(folder.path) else { continue }
                try FileManager.default.createDirectory(at: rootURL.appendingPathComponent(path), withIntermediateDirectories: true)
                let names = folder.match == "any" ? [folder.scaffold ?? "lines.jsonl"] : parity.fileNames(in: referencePath)
                for fileName in names {
                    let skeletonFile = skeleton.appendingPathComponent(
                        folder.path.replacingOccurrences(of: "{language}", with: "_language_")
                            .replacingOccurrences(of: "{locale}", with: "_locale_") + "/" + fileName)
                    var contents = Data()
                    if let data = FileManager.default.contents(atPath: skeletonFile.path) {
                        let text = String(decoding: data, as: UTF8.self)
                            .replacingOccurrences(of: "{name}", with: name)
                            .replacingOccurrences(of: "{language}", with: code)
                            .replacingOccurrences(of: "{locale}", with: locale)
                        contents = Data(text.utf8)
                    }
                    try write(contents, to: path + "/" + fileName, root: rootURL)
                    written.append(path + "/" + fileName)
                }
            }
            for file in part.thresholds ?? [] {
                try addThresholds(for: locale, copying: layout.reference.locale, in: file, root: rootURL)
                written.append("\(file) (\(locale), the floors of \(layout.reference.locale))")
            }
        }

        print("Wrote \(name) (\(code), corpus locale \(locale)):")
        for path in written { print("  \(path)") }
        let gaps = parity.gaps(for: code)
        print("")
        print("Still needed (\(gaps.count); `parlance parity \(code)` or `swift test --filter LanguageParityTests` says it again):")
        for gap in gaps { print("  \(gap.path): \(gap.need)") }
    }

    /// The language code, the corpus locale and the language's English name, from CLDR.
    static func identify(_ argument: String) throws -> (code: String, locale: String, name: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let code = parts[0]
        guard (2...3).contains(code.count), code.allSatisfy({ $0.isASCII && $0.isLowercase }) else {
            throw ValidationError("'\(argument)': a language is a lowercase ISO 639 code (nl) or a locale (nl-BE)")
        }
        guard let name = Locale(identifier: "en").localizedString(forLanguageCode: code), name != code else {
            throw ValidationError("'\(argument)': CLDR knows no language '\(code)'")
        }
        if parts.count > 1 {
            guard parts.count == 2, let region = parts.last, region.count == 2, region.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw ValidationError("'\(argument)': a locale here is a language and a region, as nl-BE")
            }
            return (code, argument, name)
        }
        // CLDR's likely subtags: nl → nl-Latn-NL.
        let maximal = Locale.Language(identifier: code).maximalIdentifier.split(separator: "-").map(String.init)
        guard let region = maximal.dropFirst().first(where: { $0.count == 2 && $0.allSatisfy(\.isUppercase) }) else {
            throw ValidationError("'\(argument)': CLDR has no likely region for '\(code)'; give a locale (\(code)-XX)")
        }
        return (code, "\(code)-\(region)", name)
    }

    private func write(_ data: Data, to path: String, root: URL) throws {
        let url = root.appendingPathComponent(path)
        guard !FileManager.default.fileExists(atPath: url.path) else { throw InputError("\(path) exists; nothing more was written") }
        do { try data.write(to: url) } catch { throw InputError("cannot write \(path): \(FileErrorText.describe(error))") }
    }

    /// Adds `locale` to a thresholds file: a copy of the reference's entry, as written (its
    /// keys in their order), placed among the entries in sorted order. Other lines stay as
    /// they are.
    private func addThresholds(for locale: String, copying reference: String, in file: String, root: URL) throws {
        let url = root.appendingPathComponent(file)
        guard let data = FileManager.default.contents(atPath: url.path),
            let table = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Double]]
        else { throw InputError("\(file): cannot read it as {locale: {metric: floor}}") }
        guard table[locale] == nil else { return }
        guard table[reference] != nil,
            let text = Self.inserting(locale, copying: reference, into: String(decoding: data, as: UTF8.self))
        else { throw InputError("\(file): no entry for \(reference) to copy") }
        try Data(text.utf8).write(to: url)
    }

    /// The thresholds text with `reference`'s entry copied under the key `locale`; nil when the
    /// text does not hold `reference` as a top-level entry of its own lines.
    static func inserting(_ locale: String, copying reference: String, into text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Top-level entries: a line `<indent>"key": {` up to the line `<indent>}` or `<indent>},`.
        guard lines.count > 2 else { return nil }
        let indent = String(lines[1].prefix { $0 == " " })
        var entries: [(key: String, start: Int, end: Int)] = []
        var index = 1
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix(indent + "\""), !line.hasPrefix(indent + " "), line.hasSuffix("{"),
                let key = line.dropFirst(indent.count + 1).split(separator: "\"").first,
                let close = lines[index...].firstIndex(where: { $0 == indent + "}" || $0 == indent + "}," })
            {
                entries.append((String(key), index, close))
                index = close
            }
            index += 1
        }
        guard let source = entries.first(where: { $0.key == reference }) else { return nil }
        var block = Array(lines[source.start...source.end])
        block[0] = block[0].replacingOccurrences(of: "\"\(reference)\"", with: "\"\(locale)\"")
        if block[block.count - 1].hasSuffix(",") { block[block.count - 1].removeLast() }
        if let next = entries.first(where: { $0.key > locale }) {
            block[block.count - 1] += ","
            lines.insert(contentsOf: block, at: next.start)
        } else if let last = entries.last {
            lines[last.end] += ","
            lines.insert(contentsOf: block, at: last.end + 1)
        } else {
            return nil
        }
        return lines.joined(separator: "\n")
    }
}

/// `parlance parity`: what each language lacks against the reference language.
struct Parity: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Say what each language of a source checkout still lacks against the reference language (en).",
        discussion: """
            Checks every file NewLanguage/layout.json names: files the reference has (present, not \
            empty, no skeleton "todo" left), the reference's intents in each .sentences file, the \
            entries of lexicon.json and gazetteer.json, the rules the grammar needs, thresholds \
            entries and the trained model. Exits with 1 when something is missing.
            """
    )

    @Argument(help: "The languages to check (default: all).")
    var languages: [String] = []

    @Option(name: .long, help: "The checkout's root folder.")
    var root: String = "."

    func run() throws {
        let layout = try LanguageLayout.load()
        let rootURL = try checkoutRoot(root, layout: layout)
        let parity = LanguageParity(layout: layout, root: rootURL)
        let known = Set(layout.parts.flatMap { LanguageLayout.languages(of: $0.name, root: rootURL) })
        let wanted = languages.isEmpty ? known.sorted() : languages
        if let unknown = wanted.first(where: { !known.contains($0) }) {
            throw ValidationError("'\(unknown)' has no language folder (languages: \(known.sorted().joined(separator: ", ")))")
        }
        var lacking = 0
        for language in wanted {
            let gaps = parity.gaps(for: language)
            let parts = parity.parts(for: language).map(\.name).joined(separator: " and ")
            if gaps.isEmpty {
                print("\(language) (\(parts)): complete")
            } else {
                lacking += 1
                print("\(language) (\(parts)): \(gaps.count) still needed")
                for gap in gaps { print("  \(gap.path): \(gap.need)") }
            }
        }
        if lacking > 0 { throw ExitCode(ExitStatus.failed) }
    }
}

/// The root of a source checkout: it must hold the reference language's text-layer folder.
func checkoutRoot(_ path: String, layout: LanguageLayout) throws -> URL {
    let url = URL(fileURLWithPath: path).standardizedFileURL
    let marker = "Sources/ParlanceText/Languages/\(layout.reference.language)"
    guard FileManager.default.fileExists(atPath: url.appendingPathComponent(marker).path) else {
        throw InputError("\(path) is not a Parlance source checkout (it has no \(marker)); give its root with --root")
    }
    return url
}
