/// A BCP 47 locale that Parlance supports: a language it has data for (a folder in
/// `Sources/ParlanceText/Languages/`), optionally a script and a region ("es-MX",
/// "zh-Hans-CN", "pt-BR").
public struct ParlanceLocale: Sendable, Hashable, CustomStringConvertible, Codable {
    /// Lowercase language subtag: "es".
    public let language: String
    /// Title-case script subtag, if given: "Hans".
    public let script: String?
    /// Uppercase region subtag, if given: "MX" (or a UN M.49 number such as "419").
    public let region: String?

    /// Parses a BCP 47 tag (hyphens or underscores, any case).
    /// - Throws: `LocaleError` when the tag is malformed or its language has no data.
    public init(_ tag: String) throws(LocaleError) {
        // The common shape ("en-US", "de", "es_419") read from its bytes; anything else, and
        // a language with no data, by the general reading below (which also says what is wrong).
        if let (language, region) = Self.plain(tag), ParlanceLocale.supportedLanguages.contains(language) {
            self.language = language
            self.script = nil
            self.region = region
            return
        }
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
            .map(String.init)
        func isAlpha(_ s: String) -> Bool { s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } }
        func isDigit(_ s: String) -> Bool { s.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
        guard let first = parts.first, (2...3).contains(first.count), isAlpha(first), parts.count <= 3 else {
            throw .malformed(tag, supported: ParlanceLocale.supportedLanguages)
        }
        var script: String?
        var region: String?
        for part in parts.dropFirst() {
            if part.count == 4, isAlpha(part), script == nil, region == nil {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if (part.count == 2 && isAlpha(part)) || (part.count == 3 && isDigit(part)), region == nil {
                region = part.uppercased()
            } else {
                throw .malformed(tag, supported: ParlanceLocale.supportedLanguages)
            }
        }
        let language = first.lowercased()
        guard ParlanceLocale.supportedLanguages.contains(language) else {
            throw .unsupported(tag, supported: ParlanceLocale.supportedLanguages)
        }
        self.language = language
        self.script = script
        self.region = region
    }

    /// A tag of two or three ASCII letters, then nothing or a hyphen or underscore and two
    /// ASCII letters or three digits: its language (lower case) and region (upper case).
    static func plain(_ tag: String) -> (language: String, region: String?)? {
        var tag = tag
        return tag.withUTF8 { b -> (String, String?)? in
            func letter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
            func digit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
            var n = 0
            while n < b.count, letter(b[n]) { n += 1 }
            guard n == 2 || n == 3 else { return nil }
            let language = String(decoding: b[0..<n].map { $0 | 0x20 }, as: UTF8.self)
            if n == b.count { return (language, nil) }
            guard b[n] == UInt8(ascii: "-") || b[n] == UInt8(ascii: "_") else { return nil }
            let rest = b[(n + 1)...]
            if rest.count == 2, rest.allSatisfy(letter) {
                return (language, String(decoding: rest.map { $0 & ~0x20 }, as: UTF8.self))
            }
            if rest.count == 3, rest.allSatisfy(digit) { return (language, String(decoding: rest, as: UTF8.self)) }
            return nil
        }
    }

    /// The canonical tag: "es-MX".
    public var identifier: String { joined(by: "-") }

    /// ICU's locale id: "es_MX" (asked for every utterance: made without an array).
    public var icuIdentifier: String { joined(by: "_") }

    /// The language, script and region there are, with `separator` between them.
    private func joined(by separator: String) -> String {
        var text = language
        if let script { text += separator + script }
        if let region { text += separator + region }
        return text
    }

    /// The canonical tag, as `identifier`: "es-MX".
    public var description: String { identifier }

    /// The languages Parlance has data for, in a stable order: one per folder of
    /// `Languages/`, so a language is added by adding its folder.
    public static var supportedLanguages: [String] { LanguageResources.availableLanguages }

    /// Decodes a tag string ("es-MX") and checks it as `init(_:)` does: throws `LocaleError` for a malformed or
    /// unsupported tag, and a `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        let tag = try decoder.singleValueContainer().decode(String.self)
        self = try ParlanceLocale(tag)
    }

    /// Encodes the canonical tag as a string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

/// Why a locale tag was refused. The message names the supported languages.
public enum LocaleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The tag is not `language[-script][-region]`: the tag as given, and the supported languages.
    case malformed(String, supported: [String])
    /// The tag is well formed but Parlance has no data for its language: the tag as given, and the supported languages.
    case unsupported(String, supported: [String])

    /// The message for the user, naming the supported languages.
    public var description: String {
        switch self {
        case .malformed(let tag, let supported):
            "malformed locale '\(tag)': expected a BCP 47 tag such as 'es-ES' or 'fr'; supported languages: \(supported.joined(separator: ", "))"
        case .unsupported(let tag, let supported):
            "unsupported locale '\(tag)': supported languages are \(supported.joined(separator: ", "))"
        }
    }
}
