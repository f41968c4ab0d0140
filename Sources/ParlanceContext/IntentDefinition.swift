import Foundation
import ParlanceText

/// An Xcode intent definition file (`Intents.intentdefinition`, XML property list) and the
/// `.strings` files of its localizations, as custom intent declarations (intents.md "Custom
/// intents").
///
/// What it maps (key names as Xcode writes them):
/// - `INIntents[]` → `CustomIntent`: `INIntentName` ("OrderSoup" → "orderSoup"),
///   `INIntentCategory`, `INIntentTitle`, `INIntentUserConfirmationRequired`; an intent whose
///   `INIntentType` is `System` (a customized SiriKit intent) is left out with a warning;
/// - `INIntentParameters[]`: `INIntentParameterName`, `INIntentParameterType` (String, Integer,
///   Decimal, Boolean, Object with `INIntentParameterObjectType` as the vocabulary),
///   `INIntentParameterEnumType` (an enum of `INEnums`), `INIntentParameterSupportsMultipleValues`;
///   a parameter is required when it is the intent's `INIntentKeyParameter` or Siri asks for it
///   when it is missing (a `Primary` prompt in `INIntentParameterPromptDialogs`);
/// - `INEnums[]`: `INEnumValueName` is the case id, `INEnumValueDisplayName` and the
///   `INEnumValueSynonyms` its names; the `unknown` case (index 0) Xcode adds is skipped;
/// - `INIntentParameterCombinations` and `INIntentManagedParameterCombinations` ("soup,quantity")
///   → shortcut types (title and subtitle), and their titles → example phrases, with the
///   intent's title when it has no placeholders;
/// - `INIntentResponse.INIntentResponseCodes[]` → responses (`INIntentResponseCodeFormatString`
///   as an ICU MessageFormat template).
///
/// Text is localized through its `…ID` key: the base language takes the file's text (or its own
/// `.strings` entry), every other language the entry of its `.strings` table. `${name}`
/// placeholders become `{name}` slots. Anything the file uses that Parlance cannot honour is
/// named in `warnings`, never silently dropped.
public struct IntentDefinitionFile: Sendable {
    /// The custom intents the file declares, in file order, with their texts in every language read.
    public var intents: [CustomIntent]
    /// Constructs the file uses that Parlance does not support, each named
    /// ("OrderSoup.deliveryTime: parameter type 'DateComponents' is not supported; the parameter is left out"),
    /// and unknown keys ("INIntents[0]: unknown key 'INFoo', ignored"). Never silently dropped.
    public var warnings: [String]

    /// A result made in code, with its intents and warnings.
    public init(intents: [CustomIntent] = [], warnings: [String] = []) {
        self.intents = intents
        self.warnings = warnings
    }

    /// Reads the file and every `<lang>.lproj/<basename>.strings` next to its folder (the Xcode
    /// layout: `SoupChef/Base.lproj/Intents.intentdefinition`, `SoupChef/es.lproj/Intents.strings`),
    /// an `en.lproj` one included. The file has no development-region key, so the base language
    /// is `baseLanguage` when given, else the language of the file's own folder when that is not
    /// `Base.lproj` (`de.lproj/Intents.intentdefinition` → "de"), else "en". A regional folder
    /// (`es-MX.lproj`) is read as its language ("es") unless that language has its own folder.
    /// Errors name the file (the definition or a `.strings` table) and the key path or line.
    public static func load(contentsOf url: URL, baseLanguage: String? = nil) throws(ContextError) -> IntentDefinitionFile {
        let data = try read(url)
        let folder = url.deletingLastPathComponent()
        let table = url.deletingPathExtension().lastPathComponent
        let inLocalizedFolder = folder.lastPathComponent.hasSuffix(".lproj")
        let root = inLocalizedFolder ? folder.deletingLastPathComponent() : folder
        var base = baseLanguage.map(language(ofTag:)) ?? "en"
        if baseLanguage == nil, inLocalizedFolder, folder.lastPathComponent != "Base.lproj" {
            base = language(ofTag: String(folder.lastPathComponent.dropLast(".lproj".count)))
        }

        var notes: [String] = []
        var strings: [String: [String: String]] = [:]
        var sources: [String: String] = [:]
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let folders = entries.filter { $0.hasSuffix(".lproj") && $0 != "Base.lproj" }
            .map { (folder: $0, tag: String($0.dropLast(".lproj".count))) }
            // A language's own folder before its regional ones.
            .sorted { (language(ofTag: $0.tag) == $0.tag ? 0 : 1, $0.tag) < (language(ofTag: $1.tag) == $1.tag ? 0 : 1, $1.tag) }
        for (name, tag) in folders {
            let stringsURL = root.appendingPathComponent(name).appendingPathComponent(table + ".strings")
            guard FileManager.default.fileExists(atPath: stringsURL.path) else { continue }
            let language = language(ofTag: tag)
            if let earlier = sources[language] {
                notes.append("\(name)/\(table).strings: read as language '\(language)', which \(earlier) already gives; ignored")
                continue
            }
            strings[language] = try decodeStrings(try read(stringsURL), file: stringsURL.path)
            sources[language] = "\(name)/\(table).strings"
        }
        for directory in Set([folder.path, root.path]).sorted() {
            let catalogue = URL(fileURLWithPath: directory).appendingPathComponent(table + ".xcstrings")
            if FileManager.default.fileExists(atPath: catalogue.path) {
                notes.append("\(catalogue.lastPathComponent): string catalogues are not read; only .strings tables are")
            }
        }

        var result = try decode(data, file: url.path, strings: strings, baseLanguage: base)
        result.warnings.insert(contentsOf: notes, at: 0)
        return result
    }

    /// Decodes the definition file's data with its translations: `strings` maps a language
    /// ("es") to its `.strings` table (localization ID → text); the `baseLanguage` text is the
    /// file's own unless its table gives one.
    public static func decode(_ data: Data, file: String, strings: [String: [String: String]], baseLanguage: String) throws(ContextError)
        -> IntentDefinitionFile
    {
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: PropertyListGuard.checked(data), options: [], format: nil)
        } catch {
            throw ContextError(
                file: file,
                message: "not a property list (an intent definition is an XML property list): \(PropertyListGuard.describe(error))")
        }
        var reader = IntentDefinitionReader(file: file, strings: strings, baseLanguage: language(ofTag: baseLanguage))
        return try reader.read(root)
    }

    /// Reads a `.strings` table: old-style `"key" = "value";` pairs (`/* */` and `//` comments;
    /// escapes `\"` `\\` `\n` `\t` `\r` `\Uxxxx` and octal; UTF-8, or UTF-16 with a byte-order
    /// mark), or a property list (XML or binary) of strings. Errors give the line.
    public static func decodeStrings(_ data: Data, file: String) throws(ContextError) -> [String: String] {
        let head = String(decoding: data.prefix(64), as: UTF8.self).drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if head.hasPrefix("bplist") || head.hasPrefix("<?xml") || head.hasPrefix("<plist") {
            let root: Any
            do {
                root = try PropertyListSerialization.propertyList(from: PropertyListGuard.checked(data), options: [], format: nil)
            } catch {
                throw ContextError(file: file, message: "not a property list: \(PropertyListGuard.describe(error))")
            }
            guard let table = root as? [String: Any] else { throw ContextError(file: file, message: "expected a dictionary of strings") }
            var result: [String: String] = [:]
            for (key, value) in table {
                guard let text = value as? String else { throw ContextError(file: file, message: "the value of '\(key)' is not a string") }
                result[key] = text
            }
            return result
        }
        guard let text = StringsTableParser.text(of: data) else {
            throw ContextError(file: file, message: "not UTF-8 or UTF-16 text")
        }
        var parser = StringsTableParser(text)
        do {
            return try parser.parse()
        } catch {
            throw ContextError(file: file, message: "line \(error.line): \(error.message)")
        }
    }

    static func read(_ url: URL) throws(ContextError) -> Data {
        do { return try Data(contentsOf: url) } catch {
            throw ContextError(file: url.path, message: "cannot read: \(FileErrorText.describe(error))")
        }
    }

    /// "es-MX", "es_MX" → "es"; "zh-Hans" → "zh".
    static func language(ofTag tag: String) -> String {
        String(tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first ?? "").lowercased()
    }

    /// `${name}` placeholders as `{name}` slots, the rest of the text as it is
    /// ("Order ${quantity} ${soup}" → "Order {quantity} {soup}").
    static func slotted(_ text: String) -> String {
        pieces(of: text).map { piece in
            switch piece {
            case .text(let s): s
            case .placeholder(let name): "{\(name)}"
            }
        }.joined()
    }

    /// As an ICU MessageFormat pattern: `${name}` → `{name}`, apostrophes doubled and literal
    /// braces quoted, so that the rest reads as written ("n'y a plus" stays "n'y a plus").
    static func messagePattern(_ text: String) -> String {
        pieces(of: text).map { piece in
            switch piece {
            case .placeholder(let name): "{\(name)}"
            case .text(let s):
                s.replacingOccurrences(of: "'", with: "''")
                    .replacingOccurrences(of: "{", with: "'{'")
                    .replacingOccurrences(of: "}", with: "'}'")
            }
        }.joined()
    }

    /// The `${name}` placeholders of a text, in order.
    static func placeholders(in text: String) -> [String] {
        pieces(of: text).compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    enum Piece: Equatable {
        case text(String)
        case placeholder(String)
    }

    /// Splits Xcode text at its `${name}` placeholders; a `$` not opening one is text.
    static func pieces(of text: String) -> [Piece] {
        var result: [Piece] = []
        var literal = ""
        var rest = text[...]
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            if afterDollar < rest.endIndex, rest[afterDollar] == "{",
                let close = rest[afterDollar...].firstIndex(of: "}")
            {
                let name = rest[rest.index(after: afterDollar)..<close]
                if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                    if !literal.isEmpty { result.append(.text(literal)) }
                    literal = ""
                    result.append(.placeholder(String(name)))
                    rest = rest[rest.index(after: close)...]
                    continue
                }
            }
            literal.append("$")
            rest = rest[afterDollar...]
        }
        literal += rest
        if !literal.isEmpty { result.append(.text(literal)) }
        return result
    }
}

/// The keys of each kind of dictionary in an intent definition: those the importer reads and
/// those it ignores on purpose (identifiers, tags, namespaces, versions, display order, Shortcuts
/// and widget presentation, descriptions Siri does not say, dialogs Parlance does not hold).
/// Any other key is warned about. A `…ID` key goes with the text key it localizes.
enum IntentDefinitionKeys {
    struct KeySet {
        let read: Set<String>
        let ignored: Set<String>
    }

    static let topLevel = KeySet(
        read: ["INIntents", "INEnums"],
        ignored: [
            "INTypes",  // custom object types: their properties do not matter to parsing
            "INIntentDefinitionModelVersion", "INIntentDefinitionNamespace", "INIntentDefinitionSystemVersion",
            "INIntentDefinitionToolsBuildVersion", "INIntentDefinitionToolsVersion"
        ]
    )

    static let intent = KeySet(
        read: [
            "INIntentName", "INIntentType", "INIntentClassName", "INIntentCategory", "INIntentTitle", "INIntentTitleID",
            "INIntentUserConfirmationRequired", "INIntentKeyParameter", "INIntentParameters",
            "INIntentParameterCombinations", "INIntentManagedParameterCombinations", "INIntentResponse"
        ],
        ignored: [
            "INIntentDescription", "INIntentDescriptionID", "INIntentVerb", "INIntentVerbAssociations", "INIntentConfigurable",
            "INIntentEligibleForWidgets", "INIntentIneligibleForSuggestions", "INIntentInput", "INIntentLastParameterTag",
            "INIntentRestrictions", "INIntentDefaultImageName", "INIntentForeground", "INIntentHash", "INIntentClassPrefix",
            "INIntentDeprecated", "INIntentEntity"
        ]
    )

    /// Parameter keys after their prefix (`INIntentParameter…`, `INIntentResponseParameter…`).
    static let parameterSuffixes = KeySet(
        read: [
            "Name", "Type", "EnumType", "ObjectType", "SupportsMultipleValues", "PromptDialogs",
            "SupportsDynamicEnumeration", "Relationship", "Metadata"
        ],
        ignored: [
            "DisplayName", "DisplayNameID", "DisplayPriority", "Tag", "Configurable", "SupportsResolution", "SupportsSearch",
            "CustomDisambiguation", "EnumTypeNamespace", "ObjectTypeNamespace", "UnsupportedReasons", "FixedSizeArray",
            "ArraySizes", "WindowSize", "EntityKeypath", "Default", "DialogFormatString", "DialogFormatStringID"
        ]
    )

    static func parameter(prefix: String) -> KeySet {
        KeySet(read: Set(parameterSuffixes.read.map { prefix + $0 }), ignored: Set(parameterSuffixes.ignored.map { prefix + $0 }))
    }

    static let parameterMetadata = KeySet(
        read: [
            "INIntentParameterMetadataDefaultValue", "INIntentParameterMetadataDefaultValueID",
            "INIntentParameterMetadataMinimumValue", "INIntentParameterMetadataMaximumValue"
        ],
        ignored: [
            "INIntentParameterMetadataCapitalization", "INIntentParameterMetadataDisableAutocorrect",
            "INIntentParameterMetadataDisableSmartDashes", "INIntentParameterMetadataDisableSmartQuotes",
            "INIntentParameterMetadataMultiline", "INIntentParameterMetadataPlaceholder", "INIntentParameterMetadataPlaceholderID",
            "INIntentParameterMetadataType", "INIntentParameterMetadataTrueDisplayName", "INIntentParameterMetadataTrueDisplayNameID",
            "INIntentParameterMetadataFalseDisplayName", "INIntentParameterMetadataFalseDisplayNameID",
            "INIntentParameterMetadataCurrencyCodes", "INIntentParameterMetadataCustomUTIs"
        ]
    )

    static let promptDialog = KeySet(
        read: ["INIntentParameterPromptDialogType"],
        ignored: [
            "INIntentParameterPromptDialogCustom", "INIntentParameterPromptDialogFormatString",
            "INIntentParameterPromptDialogFormatStringID"
        ]
    )

    static let combination = KeySet(
        read: [
            "INIntentParameterCombinationTitle", "INIntentParameterCombinationTitleID",
            "INIntentParameterCombinationSubtitle", "INIntentParameterCombinationSubtitleID",
            "INIntentParameterCombinationIsPrimary"
        ],
        ignored: ["INIntentParameterCombinationSupportsBackgroundExecution", "INIntentParameterCombinationUpdatesLinked"]
    )

    static let response = KeySet(
        read: ["INIntentResponseCodes", "INIntentResponseParameters"],
        ignored: ["INIntentResponseLastParameterTag", "INIntentResponseOutput", "INIntentResponseName"]
    )

    static let responseCode = KeySet(
        read: [
            "INIntentResponseCodeName", "INIntentResponseCodeSuccess", "INIntentResponseCodeFormatString",
            "INIntentResponseCodeFormatStringID"
        ],
        // The short form for small screens; Parlance renders the full one.
        ignored: ["INIntentResponseCodeConciseFormatString", "INIntentResponseCodeConciseFormatStringID"]
    )

    static let enumeration = KeySet(
        read: ["INEnumName", "INEnumValues"],
        ignored: ["INEnumType", "INEnumDisplayName", "INEnumDisplayNameID"]
    )

    static let enumValue = KeySet(
        read: ["INEnumValueName", "INEnumValueIndex", "INEnumValueDisplayName", "INEnumValueDisplayNameID", "INEnumValueSynonyms"],
        ignored: []
    )

    static let enumSynonym = KeySet(
        read: ["INEnumValueSynonymSynonym", "INEnumValueSynonymSynonymID"],
        ignored: ["INEnumValueSynonymPronunciationHint", "INEnumValueSynonymPronunciationHintID"]
    )

    /// Response codes Xcode gives every custom intent, often without text.
    static let defaultResponseCodes: Set<String> = ["success", "failure"]
}

/// Walks the property list, keeping the key path for error messages and warnings.
private struct IntentDefinitionReader {
    typealias Keys = IntentDefinitionKeys
    typealias Parameter = CustomIntent.Parameter

    let file: String
    let strings: [String: [String: String]]
    let baseLanguage: String
    var warnings: [String] = []
    /// Cases of `INEnums` by enum name, the `unknown` case left out.
    var enums: [String: [Parameter.Case]] = [:]

    init(file: String, strings: [String: [String: String]], baseLanguage: String) {
        self.file = file
        self.strings = strings
        self.baseLanguage = baseLanguage
    }

    // MARK: Values

    func fail(_ path: String, _ message: String) -> ContextError {
        ContextError(file: file, message: "at \(path): \(message)")
    }

    func dictionary(_ value: Any?, _ path: String) throws(ContextError) -> [String: Any] {
        guard let d = value as? [String: Any] else { throw fail(path, "expected a dictionary, found \(kind(value))") }
        return d
    }

    func array(_ value: Any?, _ path: String) throws(ContextError) -> [Any] {
        guard let a = value as? [Any] else { throw fail(path, "expected an array, found \(kind(value))") }
        return a
    }

    /// A non-empty string.
    func string(_ value: Any?, _ path: String) throws(ContextError) -> String {
        guard let s = value as? String else { throw fail(path, "expected a string, found \(kind(value))") }
        guard !s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw fail(path, "expected a non-empty string") }
        return s
    }

    /// A string that may be missing or empty (Xcode writes `<string></string>` for no text).
    func text(_ value: Any?, _ path: String) throws(ContextError) -> String? {
        guard let value else { return nil }
        guard let s = value as? String else { throw fail(path, "expected a string, found \(kind(value))") }
        return s
    }

    /// A boolean; a missing key is false.
    func bool(_ value: Any?, _ path: String) throws(ContextError) -> Bool {
        guard let value else { return false }
        if let b = value as? Bool { return b }
        throw fail(path, "expected a boolean, found \(kind(value))")
    }

    func integer(_ value: Any?, _ path: String) throws(ContextError) -> Int? {
        guard let value else { return nil }
        if let n = value as? Int { return n }
        throw fail(path, "expected an integer, found \(kind(value))")
    }

    func kind(_ value: Any?) -> String {
        guard let value else { return "nothing (the key is missing)" }
        if type(of: value) == Bool.self { return "a boolean" }
        switch value {
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "a dictionary"
        case is NSNumber: return "a number"
        case is Date: return "a date"
        case is Data: return "data"
        default: return "\(type(of: value))"
        }
    }

    mutating func checkKeys(_ d: [String: Any], _ path: String, _ keys: Keys.KeySet) {
        for key in d.keys.sorted() where !keys.read.contains(key) && !keys.ignored.contains(key) {
            warnings.append("\(path): unknown key '\(key)', ignored")
        }
    }

    /// The text of `key` per language, through its `…ID` localization key; empty texts are left
    /// out. A language whose table lacks the ID has no text, with a warning.
    mutating func localized(_ d: [String: Any], _ key: String, _ path: String) throws(ContextError) -> [String: String] {
        let base = try text(d[key], "\(path).\(key)") ?? ""
        let id = try text(d[key + "ID"], "\(path).\(key)ID")
        var result: [String: String] = [:]
        if let id, let own = strings[baseLanguage]?[id], !own.isEmpty {
            result[baseLanguage] = own
        } else if !base.isEmpty {
            result[baseLanguage] = base
        }
        for (language, table) in strings.sorted(by: { $0.key < $1.key }) where language != baseLanguage {
            if let id, let translation = table[id], !translation.isEmpty {
                result[language] = translation
            } else if !base.isEmpty {
                let which = id.map { "ID '\($0)'" } ?? "no \(key)ID"
                warnings.append("\(path).\(key) (\(which)): no \(language) translation of '\(base)'; left out in \(language)")
            }
        }
        return result
    }

    // MARK: File

    mutating func read(_ root: Any) throws(ContextError) -> IntentDefinitionFile {
        let top = try dictionary(root, "(top level)")
        checkKeys(top, "(top level)", Keys.topLevel)
        if let list = top["INEnums"] {
            for (e, entry) in try array(list, "INEnums").enumerated() {
                try readEnum(entry, "INEnums[\(e)]")
            }
        }
        var intents: [CustomIntent] = []
        for (i, entry) in try array(top["INIntents"], "INIntents").enumerated() {
            guard let intent = try readIntent(entry, "INIntents[\(i)]") else { continue }
            if intents.contains(where: { $0.name == intent.name }) {
                warnings.append("INIntents[\(i)]: a second intent named '\(intent.name)'; left out")
                continue
            }
            intents.append(intent)
        }
        return IntentDefinitionFile(intents: intents, warnings: warnings)
    }

    mutating func readEnum(_ entry: Any, _ path: String) throws(ContextError) {
        let d = try dictionary(entry, path)
        checkKeys(d, path, Keys.enumeration)
        let name = try string(d["INEnumName"], "\(path).INEnumName")
        var cases: [Parameter.Case] = []
        for (v, valueEntry) in try array(d["INEnumValues"], "\(path).INEnumValues").enumerated() {
            let valuePath = "\(path).INEnumValues[\(v)]"
            let value = try dictionary(valueEntry, valuePath)
            checkKeys(value, valuePath, Keys.enumValue)
            let id = try string(value["INEnumValueName"], "\(valuePath).INEnumValueName")
            let index = try integer(value["INEnumValueIndex"], "\(valuePath).INEnumValueIndex")
            // Xcode's `unknown` case, index 0: the value of an enum parameter nobody set.
            if index == 0 || (index == nil && id == "unknown") { continue }
            var names: [String: [String]] = [:]
            for (language, display) in try localized(value, "INEnumValueDisplayName", valuePath) {
                names[language] = [display]
            }
            if names[baseLanguage] == nil {
                warnings.append("\(valuePath): enum case '\(id)' of \(name) has no display name; its id is its name")
                names[baseLanguage] = [id]
            }
            if let synonyms = value["INEnumValueSynonyms"] {
                for (s, synonymEntry) in try array(synonyms, "\(valuePath).INEnumValueSynonyms").enumerated() {
                    let synonymPath = "\(valuePath).INEnumValueSynonyms[\(s)]"
                    let synonym = try dictionary(synonymEntry, synonymPath)
                    checkKeys(synonym, synonymPath, Keys.enumSynonym)
                    for (language, text) in try localized(synonym, "INEnumValueSynonymSynonym", synonymPath)
                    where names[language] != nil && !(names[language] ?? []).contains(text) {
                        names[language, default: []].append(text)
                    }
                }
            }
            cases.append(Parameter.Case(id: id, names: names))
        }
        if enums[name] != nil { warnings.append("\(path): a second enum named '\(name)'; it replaces the first") }
        enums[name] = cases
    }

    // MARK: Intents

    mutating func readIntent(_ entry: Any, _ path: String) throws(ContextError) -> CustomIntent? {
        let d = try dictionary(entry, path)
        checkKeys(d, path, Keys.intent)
        let xcodeName = try string(d["INIntentName"], "\(path).INIntentName")
        switch try text(d["INIntentType"], "\(path).INIntentType") {
        case nil, "Custom": break
        case "System":
            let className = try text(d["INIntentClassName"], "\(path).INIntentClassName") ?? xcodeName
            warnings.append(
                "\(xcodeName): customizes the SiriKit intent \(className), which is not a custom intent; left out (name the SiriKit intent in the context file)"
            )
            return nil
        case let other?:
            warnings.append("\(path).INIntentType: unknown intent type '\(other)'; read as a custom intent")
        }
        let name = xcodeName.prefix(1).lowercased() + xcodeName.dropFirst()

        var category: String?
        if let value = try text(d["INIntentCategory"], "\(path).INIntentCategory"), !value.isEmpty {
            if CustomIntent.categories.contains(value) {
                category = value
            } else {
                warnings.append(
                    "\(xcodeName): category '\(value)' is not one of \(CustomIntent.categories.joined(separator: ", ")); the intent has no category"
                )
            }
        }
        let title = try localized(d, "INIntentTitle", path)
        let confirmation = try bool(d["INIntentUserConfirmationRequired"], "\(path).INIntentUserConfirmationRequired")
        let keyParameter = try text(d["INIntentKeyParameter"], "\(path).INIntentKeyParameter")

        // Parameters, and those left out (unsupported types).
        var parameters: [Parameter] = []
        var enumTypes: [String: String] = [:]
        var declared: Set<String> = []
        var leftOut: Set<String> = []
        if let list = d["INIntentParameters"] {
            for (p, parameterEntry) in try array(list, "\(path).INIntentParameters").enumerated() {
                let parameterPath = "\(path).INIntentParameters[\(p)]"
                let read = try readParameter(parameterEntry, parameterPath, intent: xcodeName, keyParameter: keyParameter)
                guard !declared.contains(read.name) else {
                    warnings.append("\(parameterPath): a second parameter named '\(read.name)'; left out")
                    continue
                }
                declared.insert(read.name)
                if let parameter = read.parameter {
                    parameters.append(parameter)
                    if let enumType = read.enumType { enumTypes[parameter.name] = enumType }
                } else {
                    leftOut.insert(read.name)
                }
            }
        }
        if let keyParameter, !declared.contains(keyParameter) {
            warnings.append("\(path).INIntentKeyParameter: '\(keyParameter)' is not a parameter of \(xcodeName)")
        }

        // Shortcut types and phrases from the parameter combinations.
        var combinations: [(key: String, path: String, primary: Bool, d: [String: Any])] = []
        for group in ["INIntentParameterCombinations", "INIntentManagedParameterCombinations"] {
            guard let value = d[group] else { continue }
            let table = try dictionary(value, "\(path).\(group)")
            var found: [(key: String, path: String, primary: Bool, d: [String: Any])] = []
            for (key, combinationEntry) in table {
                let combinationPath = "\(path).\(group)[\"\(key)\"]"
                let combination = try dictionary(combinationEntry, combinationPath)
                let primary = try bool(
                    combination["INIntentParameterCombinationIsPrimary"], "\(combinationPath).INIntentParameterCombinationIsPrimary")
                found.append((key, combinationPath, primary, combination))
            }
            // The primary one first, then those with more parameters.
            found.sort { a, b in
                let countA = a.key.split(separator: ",").count
                let countB = b.key.split(separator: ",").count
                return (a.primary ? 0 : 1, -countA, a.key) < (b.primary ? 0 : 1, -countB, b.key)
            }
            combinations += found
        }
        var shortcutTypes: [CustomIntent.ShortcutType] = []
        var phrases: [String: [String]] = [:]
        var seen: Set<[String]> = []
        for combination in combinations {
            checkKeys(combination.d, combination.path, Keys.combination)
            let names = combination.key.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard seen.insert(names.sorted()).inserted else { continue }
            let titles = try localized(combination.d, "INIntentParameterCombinationTitle", combination.path)
            if let missing = names.first(where: { !declared.contains($0) }) {
                warnings.append(
                    "\(combination.path): names '\(missing)', which is not a parameter of \(xcodeName); the shortcut type is left out")
                continue
            }
            // A parameter left out, in the combination or a placeholder of its title.
            let used = names + titles.keys.sorted().flatMap { IntentDefinitionFile.placeholders(in: titles[$0] ?? "") }
            if let unsupported = used.first(where: { leftOut.contains($0) }) {
                let said = titles[baseLanguage].map { " ('\($0)')" } ?? ""
                warnings.append(
                    "\(combination.path): uses \(xcodeName).\(unsupported), which is left out; the shortcut type and its phrases\(said) are left out"
                )
                continue
            }
            guard titles[baseLanguage] != nil else {
                warnings.append("\(combination.path): the shortcut type has no title; left out")
                continue
            }
            let subtitles = try localized(combination.d, "INIntentParameterCombinationSubtitle", combination.path)
            shortcutTypes.append(
                CustomIntent.ShortcutType(
                    parameters: names,
                    title: titles.mapValues(IntentDefinitionFile.slotted),
                    subtitle: subtitles.isEmpty ? nil : subtitles.mapValues(IntentDefinitionFile.slotted)
                ))
            for (language, text) in titles.sorted(by: { $0.key < $1.key }) {
                addPhrase(text, language: language, to: &phrases, intent: xcodeName, leftOut: leftOut, path: combination.path)
            }
        }
        for (language, text) in title.sorted(by: { $0.key < $1.key }) where IntentDefinitionFile.placeholders(in: text).isEmpty {
            addPhrase(text, language: language, to: &phrases, intent: xcodeName, leftOut: leftOut, path: path)
        }

        var responses: [String: CustomIntent.Response] = [:]
        if let response = d["INIntentResponse"] {
            responses = try readResponse(response, "\(path).INIntentResponse", intent: xcodeName, enumTypes: enumTypes)
        }

        var intent = CustomIntent(
            name: name, category: category, title: title, confirmation: confirmation, parameters: parameters,
            phrases: phrases, shortcutTypes: shortcutTypes, responses: responses
        )
        // What the declaration itself finds wrong (a title naming a parameter the intent lacks).
        let problems = intent.problems()
        if !problems.isEmpty {
            for problem in problems { warnings.append("\(xcodeName): \(problem.message); left out") }
            let names = Set(parameters.map(\.name))
            intent = CustomIntent(
                name: name, category: category, title: title, confirmation: confirmation, parameters: parameters,
                phrases: phrases.mapValues { $0.filter { CustomIntent.slots(in: $0).allSatisfy(names.contains) } }.filter {
                    !$0.value.isEmpty
                },
                shortcutTypes: shortcutTypes.filter { $0.parameters.allSatisfy(names.contains) }, responses: responses
            )
        }
        return intent
    }

    /// Adds an example phrase (a title with `{name}` slots) unless a slot names a parameter that
    /// was left out.
    mutating func addPhrase(
        _ text: String, language: String, to phrases: inout [String: [String]], intent: String, leftOut: Set<String>, path: String
    ) {
        let phrase = IntentDefinitionFile.slotted(text)
        if let unsupported = CustomIntent.slots(in: phrase).first(where: leftOut.contains) {
            warnings.append(
                "\(path): phrase '\(text)' (\(language)) names \(intent).\(unsupported), which is left out; the phrase is left out")
            return
        }
        if !(phrases[language] ?? []).contains(phrase) { phrases[language, default: []].append(phrase) }
    }

    /// A parameter, or nil (with a warning) when its type is not supported.
    mutating func readParameter(_ entry: Any, _ path: String, intent: String, keyParameter: String?) throws(ContextError) -> (
        name: String, parameter: Parameter?, enumType: String?
    ) {
        let d = try dictionary(entry, path)
        checkKeys(d, path, Keys.parameter(prefix: "INIntentParameter"))
        let name = try string(d["INIntentParameterName"], "\(path).INIntentParameterName")
        let qualified = "\(intent).\(name)"
        let list = try bool(d["INIntentParameterSupportsMultipleValues"], "\(path).INIntentParameterSupportsMultipleValues")
        let enumType = try text(d["INIntentParameterEnumType"], "\(path).INIntentParameterEnumType")

        var required = name == keyParameter
        if let dialogs = d["INIntentParameterPromptDialogs"] {
            for (p, dialogEntry) in try array(dialogs, "\(path).INIntentParameterPromptDialogs").enumerated() {
                let dialogPath = "\(path).INIntentParameterPromptDialogs[\(p)]"
                let dialog = try dictionary(dialogEntry, dialogPath)
                checkKeys(dialog, dialogPath, Keys.promptDialog)
                // "Siri can ask for value when run": a missing value is asked for.
                if try text(dialog["INIntentParameterPromptDialogType"], "\(dialogPath).INIntentParameterPromptDialogType") == "Primary" {
                    required = true
                }
            }
        }

        let parameter: Parameter
        if let enumType {
            guard let cases = enums[enumType] else {
                warnings.append("\(qualified): enum type '\(enumType)' is not declared in INEnums; the parameter is left out")
                return (name, nil, nil)
            }
            guard !cases.isEmpty else {
                warnings.append("\(qualified): enum type '\(enumType)' has no cases besides 'unknown'; the parameter is left out")
                return (name, nil, nil)
            }
            parameter = Parameter(name: name, type: .enum, list: list, required: required, cases: cases)
        } else {
            let type = try string(d["INIntentParameterType"], "\(path).INIntentParameterType")
            switch type {
            case "String", "SpeakableString":
                parameter = Parameter(name: name, type: .string, list: list, required: required)
            case "Integer":
                parameter = Parameter(name: name, type: .integer, list: list, required: required)
            case "Decimal":
                parameter = Parameter(name: name, type: .decimal, list: list, required: required)
            case "Boolean":
                parameter = Parameter(name: name, type: .boolean, list: list, required: required)
            case "Object":
                let objectType = try text(d["INIntentParameterObjectType"], "\(path).INIntentParameterObjectType")
                if objectType == nil {
                    warnings.append("\(qualified): an Object parameter without INIntentParameterObjectType; it has no vocabulary")
                }
                parameter = Parameter(name: name, type: .object, list: list, required: required, vocabulary: objectType)
            default:
                warnings.append("\(qualified): parameter type '\(type)' is not supported; the parameter is left out")
                return (name, nil, nil)
            }
        }

        // Behaviours Parlance cannot honour: named, the parameter kept.
        if try bool(d["INIntentParameterSupportsDynamicEnumeration"], "\(path).INIntentParameterSupportsDynamicEnumeration") {
            warnings.append(
                "\(qualified): dynamic options (INIntentParameterSupportsDynamicEnumeration) come from the app at run time and are not listed; the value is taken as said"
            )
        }
        if d["INIntentParameterRelationship"] != nil {
            warnings.append("\(qualified): the relationship to another parameter (INIntentParameterRelationship) is not supported; ignored")
        }
        if let metadata = d["INIntentParameterMetadata"] {
            let metadataPath = "\(path).INIntentParameterMetadata"
            let m = try dictionary(metadata, metadataPath)
            checkKeys(m, metadataPath, Keys.parameterMetadata)
            if let value = m["INIntentParameterMetadataDefaultValue"] {
                warnings.append("\(qualified): the default value (\(value)) is not applied; a missing value stays missing")
            }
            if m["INIntentParameterMetadataMinimumValue"] != nil || m["INIntentParameterMetadataMaximumValue"] != nil {
                let bounds = [
                    m["INIntentParameterMetadataMinimumValue"].map { "minimum \($0)" },
                    m["INIntentParameterMetadataMaximumValue"].map { "maximum \($0)" }
                ]
                .compactMap { $0 }.joined(separator: ", ")
                warnings.append("\(qualified): the value range (\(bounds)) is not enforced")
            }
        }
        return (name, parameter, enumType)
    }

    // MARK: Responses

    mutating func readResponse(_ value: Any, _ path: String, intent: String, enumTypes: [String: String]) throws(ContextError) -> [String:
        CustomIntent.Response]
    {
        let d = try dictionary(value, path)
        checkKeys(d, path, Keys.response)

        var responseParameters: Set<String> = []
        if let list = d["INIntentResponseParameters"] {
            for (p, entry) in try array(list, "\(path).INIntentResponseParameters").enumerated() {
                let parameterPath = "\(path).INIntentResponseParameters[\(p)]"
                let parameter = try dictionary(entry, parameterPath)
                checkKeys(parameter, parameterPath, Keys.parameter(prefix: "INIntentResponseParameter"))
                let name = try string(parameter["INIntentResponseParameterName"], "\(parameterPath).INIntentResponseParameterName")
                responseParameters.insert(name)
                if let enumType = try text(
                    parameter["INIntentResponseParameterEnumType"], "\(parameterPath).INIntentResponseParameterEnumType")
                {
                    if enumTypes[name] != enumType {
                        warnings.append(
                            "\(intent) response parameter '\(name)': enum '\(enumType)' is not that of an intent parameter named '\(name)'; its cases are said by their ids"
                        )
                    }
                } else {
                    let type = try string(parameter["INIntentResponseParameterType"], "\(parameterPath).INIntentResponseParameterType")
                    if !["String", "SpeakableString", "Integer", "Decimal", "Boolean", "Object"].contains(type) {
                        warnings.append(
                            "\(intent) response parameter '\(name)': type '\(type)' is not supported; pass its text as a string when rendering"
                        )
                    }
                }
            }
        }

        var responses: [String: CustomIntent.Response] = [:]
        for (c, entry) in try array(d["INIntentResponseCodes"], "\(path).INIntentResponseCodes").enumerated() {
            let codePath = "\(path).INIntentResponseCodes[\(c)]"
            let code = try dictionary(entry, codePath)
            checkKeys(code, codePath, Keys.responseCode)
            let name = try string(code["INIntentResponseCodeName"], "\(codePath).INIntentResponseCodeName")
            let success = try bool(code["INIntentResponseCodeSuccess"], "\(codePath).INIntentResponseCodeSuccess")
            let texts = try localized(code, "INIntentResponseCodeFormatString", codePath)
            guard !texts.isEmpty else {
                // Xcode gives every intent "success" and "failure", often without text.
                if !Keys.defaultResponseCodes.contains(name) {
                    warnings.append("\(intent) response '\(name)': it has no text; left out")
                }
                continue
            }
            if responses[name] != nil { warnings.append("\(codePath): a second response code '\(name)'; it replaces the first") }
            for (language, text) in texts.sorted(by: { $0.key < $1.key }) {
                for placeholder in IntentDefinitionFile.placeholders(in: text) where !responseParameters.contains(placeholder) {
                    warnings.append("\(intent) response '\(name)' (\(language)): '${\(placeholder)}' is not a response parameter")
                }
            }
            responses[name] = CustomIntent.Response(success: success, templates: texts.mapValues(IntentDefinitionFile.messagePattern))
        }
        return responses
    }
}

/// A parser of old-style `.strings` tables, with line numbers for errors.
struct StringsTableParser {
    struct Failure: Error {
        let line: Int
        let message: String
    }

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// The text of a table: UTF-16 or UTF-8 by its byte-order mark, else UTF-8.
    static func text(of data: Data) -> String? {
        let bytes = [UInt8](data.prefix(3))
        if bytes.starts(with: [0xFF, 0xFE]) { return String(data: data.dropFirst(2), encoding: .utf16LittleEndian) }
        if bytes.starts(with: [0xFE, 0xFF]) { return String(data: data.dropFirst(2), encoding: .utf16BigEndian) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return String(data: data.dropFirst(3), encoding: .utf8) }
        return String(data: data, encoding: .utf8)
    }

    mutating func parse() throws(Failure) -> [String: String] {
        var result: [String: String] = [:]
        while true {
            try skipTrivia()
            guard position < scalars.count else { return result }
            let key = try token("a key")
            try skipTrivia()
            if peek == ";" {
                position += 1
                result[key] = key
                continue
            }
            guard peek == "=" else { throw Failure(line: line, message: "expected '=' or ';' after \"\(key)\"") }
            position += 1
            try skipTrivia()
            let value = try token("the value of \"\(key)\"")
            try skipTrivia()
            guard peek == ";" else { throw Failure(line: line, message: "expected ';' after the value of \"\(key)\"") }
            position += 1
            result[key] = value
        }
    }

    private var peek: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    private func isUnquoted(_ c: Unicode.Scalar) -> Bool {
        (c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))) || "_$+/:.-".unicodeScalars.contains(c)
    }

    private mutating func skipTrivia() throws(Failure) {
        while let c = peek {
            if c == "\n" {
                line += 1
                position += 1
            } else if c.properties.isWhitespace || c == "\u{FEFF}" {
                position += 1
            } else if c == "/", position + 1 < scalars.count, scalars[position + 1] == "*" {
                let start = line
                position += 2
                while true {
                    guard let d = peek else { throw Failure(line: start, message: "unterminated comment") }
                    if d == "*", position + 1 < scalars.count, scalars[position + 1] == "/" {
                        position += 2
                        break
                    }
                    if d == "\n" { line += 1 }
                    position += 1
                }
            } else if c == "/", position + 1 < scalars.count, scalars[position + 1] == "/" {
                while let d = peek, d != "\n" { position += 1 }
            } else {
                return
            }
        }
    }

    private mutating func token(_ what: String) throws(Failure) -> String {
        guard let first = peek else { throw Failure(line: line, message: "expected \(what), found the end of the file") }
        if first == "\"" { return try quoted() }
        guard isUnquoted(first) else { throw Failure(line: line, message: "expected \(what) (a quoted string), found '\(first)'") }
        var s = String.UnicodeScalarView()
        while let c = peek, isUnquoted(c) {
            s.append(c)
            position += 1
        }
        return String(s)
    }

    private mutating func quoted() throws(Failure) -> String {
        let start = line
        position += 1
        var s = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        while true {
            guard let c = peek else { throw Failure(line: start, message: "unterminated string") }
            position += 1
            if c == "\"" { break }
            if c == "\n" { line += 1 }
            guard c == "\\" else {
                s.append(c)
                continue
            }
            guard let e = peek else { throw Failure(line: start, message: "unterminated string") }
            position += 1
            switch e {
            case "n": s.append("\n")
            case "t": s.append("\t")
            case "r": s.append("\r")
            case "a": s.append("\u{07}")
            case "b": s.append("\u{08}")
            case "f": s.append("\u{0C}")
            case "v": s.append("\u{0B}")
            case "U", "u":
                var value: UInt32 = 0
                var digits = 0
                while digits < 4, let h = peek, h.isASCII, let digit = UInt32(String(h), radix: 16) {
                    value = value * 16 + digit
                    digits += 1
                    position += 1
                }
                guard digits > 0 else { throw Failure(line: line, message: "\\\(e) without hexadecimal digits") }
                if (0xD800...0xDBFF).contains(value) {
                    pendingHigh = value
                    continue
                }
                if (0xDC00...0xDFFF).contains(value), let high = pendingHigh,
                    let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00))
                {
                    s.append(scalar)
                } else if let scalar = Unicode.Scalar(value) {
                    s.append(scalar)
                } else {
                    throw Failure(line: line, message: "\\\(e)\(String(value, radix: 16)) is not a character")
                }
            case "0"..."7":
                var value = UInt32(String(e), radix: 8) ?? 0
                var digits = 1
                while digits < 3, let o = peek, ("0"..."7").contains(o) {
                    value = value * 8 + (UInt32(String(o), radix: 8) ?? 0)
                    digits += 1
                    position += 1
                }
                if let scalar = Unicode.Scalar(value) { s.append(scalar) }
            case "\n":
                line += 1
                s.append("\n")
            default:
                s.append(e)  // \" \\ \' and any other character stand for themselves
            }
            pendingHigh = nil
        }
        return String(s)
    }
}
