import Foundation
import ParlanceContext
import ParlanceText

/// Well-known services people name in requests (`Grammar/services.json`), and the apps a
/// context lists as installed without intents (`installedApps`): a request that names one
/// of them names an app the user cannot reach through Parlance, and is never routed to
/// another app (records.md `unavailableApp`).
public struct ServiceDirectory: Sendable, Decodable {
    /// A well-known service ("WhatsApp", "Uber"), with its spellings and the domains it serves.
    public struct Service: Sendable, Decodable, Hashable {
        /// The service's name, as `unavailableApp` reports it ("WhatsApp").
        public var name: String
        /// The catalogue domains it serves ("messaging", "calling"). With a context of no apps, it is
        /// taken as an app handling these domains' intents.
        public var domains: [String]
        /// Other spellings and spoken forms, in any language ("Whats App", "Wasap").
        public var aliases: [String]
        /// Names that are also ordinary words or first names count only with a cue.
        public var cue: Bool
        /// Spellings that count only with a cue (after a connective such as "on", or an article),
        /// whatever `cue` says.
        public var cuedAliases: [String]

        enum CodingKeys: String, CodingKey { case name, domains, aliases, cue, cuedAliases }

        /// A service with its spellings and domains; see the properties.
        public init(name: String, domains: [String] = [], aliases: [String] = [], cue: Bool = false, cuedAliases: [String] = []) {
            self.name = name
            self.domains = domains
            self.aliases = aliases
            self.cue = cue
            self.cuedAliases = cuedAliases
        }

        /// Decodes an entry of `services`; every field but `name` may be left out.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            domains = try c.decodeIfPresent([String].self, forKey: .domains) ?? []
            aliases = try c.decodeIfPresent([String].self, forKey: .aliases) ?? []
            cue = try c.decodeIfPresent(Bool.self, forKey: .cue) ?? false
            cuedAliases = try c.decodeIfPresent([String].self, forKey: .cuedAliases) ?? []
        }

        /// Every spelling with whether it needs a cue.
        var spellings: [(name: String, cue: Bool)] {
            [(name, cue)] + aliases.map { ($0, cue) } + cuedAliases.map { ($0, true) }
        }
    }

    /// The services, in file order.
    public var services: [Service]

    /// The directory shipped with Parlance.
    public static let standard: ServiceDirectory = {
        guard let url = Bundle.module.url(forResource: "services", withExtension: "json", subdirectory: "Grammar"),
            let data = try? Data(contentsOf: url), let directory = try? JSONGuard.decode(ServiceDirectory.self, from: data)
        else { return ServiceDirectory(services: []) }
        return directory
    }()

    /// A directory of these services.
    public init(services: [Service]) { self.services = services }

    /// Each service as an app handling the catalogue's intents of its domains, by name.
    func apps(catalogue: IntentCatalogue) -> [String: AppDefinition] {
        var apps: [String: AppDefinition] = [:]
        for service in services {
            let intents = catalogue.intents.filter { service.domains.contains($0.domain) }.map(\.name)
            let json: [String: Any] = ["name": service.name, "intents": intents]
            guard !intents.isEmpty, let data = try? JSONSerialization.data(withJSONObject: json),
                let app = try? JSONGuard.decode(AppDefinition.self, from: data)
            else { continue }
            apps[service.name] = app
        }
        return apps
    }
}

/// An unavailable app said in an utterance: which one, where, and the words that go with it.
struct UnavailableMention: Sendable {
    var name: String
    var range: Range<Int>
    var extent: Range<Int>
}

/// Finds unavailable apps in units: the context's installed apps and the well-known services
/// that are not apps of the context, by their compact keys (case, accents, spaces folded).
struct UnavailableAppFinder: Sendable {
    struct Entry: Sendable {
        var name: String
        var key: String
        var cue: Bool
        /// The key's length in characters.
        var length = 0
    }
    let entries: [Entry]
    let longest: Int

    init(context: ParserContext, directory: ServiceDirectory = .standard) {
        let appKeys = Set(context.apps.flatMap(\.allNames).map { IntentParser.compact(TextNormalizer.key($0)) })
        var entries: [Entry] = []
        for name in context.installedApps {
            entries.append(Entry(name: name, key: Self.key(name), cue: false))
        }
        for service in directory.services {
            // A service the user has as an app of the context is that app.
            guard !service.spellings.contains(where: { appKeys.contains(IntentParser.compact(TextNormalizer.key($0.name))) }) else {
                continue
            }
            let keys = service.spellings.map { (Self.key($0.name), $0.cue) }
            for (key, cue) in keys { entries.append(Entry(name: service.name, key: key, cue: cue)) }
        }
        let kept = entries.filter { !$0.key.isEmpty }.map { entry in
            var entry = entry
            entry.length = entry.key.count
            return entry
        }
        self.entries = kept
        self.longest = 3
        self.exact = Dictionary(kept.indices.map { (kept[$0].key, $0) }, uniquingKeysWith: min)
        // Two ASCII strings are equal only byte for byte, and an ASCII run can equal only an
        // ASCII key or one of the rare others that may be (`asciiness`): with none of those, the
        // sketch of the ASCII keys rules out an ASCII run. With every key ASCII, a run with a unit
        // that can never be ASCII is ruled out too.
        let asciiness = kept.map { Self.asciiness($0.key) }
        if !asciiness.contains(.maybe) {
            var prints = WordPrints()
            for (entry, kind) in zip(kept, asciiness) where kind == .ascii { prints.insert(entry.key) }
            self.asciiPrints = prints
        } else {
            self.asciiPrints = nil
        }
        self.keysASCII = !asciiness.contains { $0 != .ascii }
        self.longestKey = kept.map(\.key.unicodeScalars.count).max() ?? 0
        let verbNames = kept.indices.filter { !kept[$0].cue && kept[$0].length >= 4 }.map { n in
            let key = kept[n].key
            return VerbName(entry: n, length: kept[n].length, asciiFirst: key.bytesAllSatisfy { $0 < 0x80 } ? key.utf8.first : nil)
        }
        self.verbNames = verbNames
        self.verbNamesByFirst = (0..<128).map { byte in verbNames.filter { $0.asciiFirst.map { $0 == byte } ?? true } }
    }

    /// An entry a name made a verb may be said by (no cue, four characters or more), with the
    /// first byte of its key when the key is ASCII.
    private struct VerbName: Sendable {
        var entry: Int
        var length: Int
        var asciiFirst: UInt8?
    }
    /// The entries a name made a verb may be said by, in the order of `entries`.
    private let verbNames: [VerbName]
    /// Per ASCII byte, those of `verbNames` a word that starts with it may start with: the
    /// names whose ASCII key starts with the byte, and those whose key is not ASCII (two ASCII
    /// strings, one the other's prefix, start with the same byte), in the same order.
    private let verbNamesByFirst: [[VerbName]]

    /// The first entry of each key.
    private let exact: [String: Int]
    /// The prints of the ASCII keys (`WordPrints`) when no other key may equal an ASCII string,
    /// else nil.
    private let asciiPrints: WordPrints?
    /// Whether every key is ASCII.
    private let keysASCII: Bool
    /// The most scalars a key has: words longer than any name (with its verb ending, in any
    /// normalization form) are not looked up, so that a word of thousands of letters or marks
    /// costs one count, not a comparison with every name.
    private let longestKey: Int

    var isEmpty: Bool { entries.isEmpty }

    /// Whether the UTF-8 bytes of `word` start with those of `prefix`.
    static func bytes(of word: String, startWith prefix: String) -> Bool {
        var word = word
        var prefix = prefix
        return word.withUTF8 { w in
            prefix.withUTF8 { p in
                guard let pb = p.baseAddress else { return true }
                guard let wb = w.baseAddress, p.count <= w.count else { return false }
                return memcmp(wb, pb, p.count) == 0
            }
        }
    }

    /// The latest unit a name used as the verb may start at (after a wake word or a filler).
    static let verbPosition = 2

    /// A name's key: lower case, without spaces, hyphens, apostrophes and dots, accents kept.
    static func key(_ text: String) -> String { IntentParser.compact(text.lowercased()) }

    /// Whether a unit's key is ASCII, or may still be equal to an ASCII string (Swift's strings
    /// are equal when canonically equivalent: three scalars decompose to ASCII ones, U+037E to
    /// ";", U+1FEF to "`" and U+212A to "K"), or can never be: a run with such a unit is no
    /// key when every key is ASCII.
    enum Asciiness: Equatable { case ascii, maybe, never }

    static func asciiness(_ key: String) -> Asciiness {
        if key.bytesAllSatisfy({ $0 < 0x80 }) { return .ascii }
        return key.unicodeScalars.allSatisfy { $0.isASCII || [0x37E, 0x1FEF, 0x212A].contains($0.value) } ? .maybe : .never
    }

    /// The first unavailable app said, outside the ranges of the context's own app mentions.
    /// `extent` gives the words that go with a name ("on WhatsApp"); a name that needs a cue
    /// counts only when such words come with it or an article stands before it.
    func find(
        in units: [MatchUnit], avoiding taken: [Range<Int>], articles: Set<String>, extent: (Range<Int>) -> Range<Int>,
        startsName: (Int) -> Bool = { _ in false }
    ) -> UnavailableMention? {
        guard !entries.isEmpty else { return nil }
        // Each unit's text as a key once (lower case, compacted): a run's key is its units'
        // keys end to end.
        let unitKeys = units.map { UnavailableAppFinder.key($0.token.text) }
        let unitScalars = units.map { $0.token.text.unicodeScalars.count }
        let unitASCII = asciiPrints == nil ? [] : unitKeys.map(Self.asciiness)
        var i = 0
        while i < units.count {
            if taken.contains(where: { $0.contains(i) }) {
                i += 1
                continue
            }
            for length in stride(from: min(longest, units.count - i), through: 1, by: -1) {
                let range = i..<(i + length)
                if taken.contains(where: { $0.overlaps(range) }) { continue }
                // Case-folded but with its accents: "über" is a German word, not Uber.
                guard unitScalars[range].reduce(0, +) <= 4 * longestKey + 3 else { continue }
                // An ASCII run whose print no key has is no key: only a name made a verb (below) may
                // still be said there.
                let ruledOut =
                    asciiPrints.map { prints in
                        (keysASCII && unitASCII[range].contains(.never))
                            || (unitASCII[range].allSatisfy { $0 == .ascii } && !prints.contains(joining: unitKeys[range]))
                    } ?? false
                if ruledOut, !(length == 1 && i <= Self.verbPosition) { continue }
                let joined = unitKeys[range].concatenated()
                var found = ruledOut ? nil : exact[joined].map { entries[$0] }
                // The name made a verb where a verb stands ("whatsappe Rob", "bizumea a Rob",
                // "tu peux paypaler"): the name and an ending of one to three letters, near the start,
                // for names that are no ordinary word.
                if found == nil, length == 1, i <= Self.verbPosition {
                    let count = joined.characterCount
                    // Two ASCII strings, one the other's prefix, start with the same byte: the
                    // names that cannot be the word's start are passed over before comparing.
                    let asciiFirst = joined.bytesAllSatisfy { $0 < 0x80 } ? joined.utf8.first : nil
                    found = (asciiFirst.map { verbNamesByFirst[Int($0)] } ?? verbNames).first { v in
                        let extra = count - v.length
                        guard extra >= 1, extra <= 3 else { return false }
                        // Not a name that is also a word: "signale" is French for "flag", not Signal.
                        // (Two ASCII words: one starts the other when its bytes start the other's,
                        // but for a CR LF, which is one character and no letter.)
                        let key = entries[v.entry].key
                        let starts =
                            asciiFirst != nil && v.asciiFirst != nil ? Self.bytes(of: joined, startWith: key) : joined.hasPrefix(key)
                        return starts && joined.allSatisfy(\.isLetter)
                    }.map { entries[$0.entry] }
                }
                guard let entry = found else { continue }
                // Words run together ("what did I pay" is no DiDi): a name that needs a cue, said
                // as several words, is written with capitals ("To Do").
                if entry.cue, length > 1, !units[range].allSatisfy(\.capitalized) { continue }
                var around = extent(range)
                let article = i > 0 && articles.contains(units[i - 1].key)
                if entry.cue, around == range, !article {
                    // Leading, as the verb: followed by a colon within three words or, after at
                    // most one word, by a known name ("Telegram Rob: …", "Telegram a Sam …").
                    let next = range.upperBound
                    let colon = units[next..<min(units.count, next + 3)].contains { $0.key == ":" }
                    let addressed =
                        i <= Self.verbPosition && next < units.count
                        && (colon || startsName(next) || (next + 1 < units.count && startsName(next + 1)))
                    guard addressed || joined != entry.key else { continue }
                }
                // "un Uber", "an Uber": the article goes with the name.
                if around == range, article { around = (i - 1)..<range.upperBound }
                return UnavailableMention(name: entry.name, range: range, extent: around)
            }
            i += 1
        }
        return nil
    }
}
