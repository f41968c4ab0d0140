import ParlanceContext
import ParlanceText

/// One unit of the stream that templates match: a word, number or symbol token, or ":".
/// Other punctuation is left out of matching (it stays in the spans of free text).
struct MatchUnit: Sendable {
    var key: String
    let token: Token
    /// A comma stands between the previous unit and this one.
    var commaBefore: Bool
    /// A sentence ends between the previous unit and this one (". ", "? ", "! ", "; ").
    var sentenceBefore = false
    /// The unit's text starts with a capital (worked out once: slot matching asks often).
    let capitalized: Bool

    init(key: String, token: Token, commaBefore: Bool, sentenceBefore: Bool = false) {
        self.key = key
        self.token = token
        self.commaBefore = commaBefore
        self.sentenceBefore = sentenceBefore
        self.capitalized = Self.startsUppercase(token.text)
    }

    /// Whether the text's first character is upper case: for an ASCII first byte, whether it
    /// is A–Z (what `Character.isUppercase` says of it, whatever marks follow); else asked of
    /// the character.
    static func startsUppercase(_ text: String) -> Bool {
        guard let byte = text.utf8.first else { return false }
        if byte < 0x80 { return byte >= 0x41 && byte <= 0x5A }
        return text.first?.isUppercase ?? false
    }

    /// A token's key as the stages after the text layer compare it (the matcher's slips, app
    /// and name lookups, the models' features): a key past `WordLength.longest` keeps its
    /// first scalars and an ellipsis, which no entry has, so it still matches nothing and
    /// stays apart from the short words.
    static func boundedKey(_ key: String) -> String {
        WordLength.cut(key).map { $0 + "…" } ?? key
    }
}

extension Collection<String> {
    /// The strings end to end (what `joined()` gives), appended one by one: `joined()` on a
    /// slice of an array goes through a generic path several times dearer.
    func concatenated() -> String {
        var result = ""
        for part in self { result += part }
        return result
    }
}

extension [MatchUnit] {
    /// Whether unit `i` starts with a capital that marks a name: inside a sentence (not its
    /// first word), in a language that does not capitalize every noun (`capitalizedNouns`).
    func capitalMarksName(_ i: Int, capitalizedNouns: Bool) -> Bool {
        !capitalizedNouns && i > 0 && !self[i].sentenceBefore && self[i].capitalized
    }
}

/// What a slot captured.
enum CapturedValue: Sendable {
    case words
    case list([Range<Int>])
    case entity(Entity)
    case enumeration(String)
    case goal(Entity)
    case app
}

struct Capture: Sendable {
    var parameter: String
    var range: Range<Int>
    var value: CapturedValue
}

/// A path the matcher accepted: its score, the template words it read, the words it skipped,
/// the template it went through and what it captured, in order.
struct MatchPath: Sendable {
    let score: Double
    let literals: Int
    /// Words the path skipped (see `MatchScores.skippedWord`).
    let skips: Int
    /// The template whose accept edge the path passed last (nil: none).
    let templateIndex: Int?
    let captures: [Capture]
}

/// An automaton's slots bound to a grammar's enum lexicons and to vocabulary names, by slot
/// id, once per grammar: the matcher finds a slot's lexicon without hashing its parameter's
/// name, and a vocabulary by a small index.
struct SlotBinding: Sendable {
    /// Per slot id, its enum lexicon's index in `lexicons` (-1: none).
    private(set) var lexiconOf: [Int32] = []
    /// The lexicons, each behind one reference: a match reads one without copying its
    /// dozen arrays and dictionaries.
    private(set) var lexicons: [Shared] = []
    /// Per slot id, its vocabulary's index in `vocabularyNames` (-1: none).
    private(set) var vocabularyOf: [Int32] = []
    private(set) var vocabularyNames: [String] = []

    /// A lexicon behind a reference.
    final class Shared: Sendable {
        let lexicon: PhraseLexicon
        init(_ lexicon: PhraseLexicon) { self.lexicon = lexicon }

        /// `PhraseLexicon.matches`, read in place.
        func matches(_ keys: [String], lengths: [Int], from start: Int) -> [(Int, String, Bool)] {
            lexicon.matches(keys, lengths: lengths, from: start)
        }

        /// `PhraseLexicon.startsExactly`, read in place.
        func startsExactly(_ keys: [String], at start: Int, knownFirst: Bool) -> Bool {
            lexicon.startsExactly(keys, at: start, knownFirst: knownFirst)
        }
    }

    /// The binding's number, by which a language's vocabularies are resolved once for it
    /// (`IntentParser.LanguageCache.vocabularies(of:)`); 0 for a binding of nothing.
    private(set) var serial = 0

    init() {}

    /// `slots` bound to `enumerations` (each slot's parameter's lexicon) and to the names of
    /// their vocabularies.
    init(_ slots: [Automaton.Slot], enumerations: [String: PhraseLexicon]) {
        defer { serial = MemoOwner.next() }
        var lexiconIndex: [String: Int32] = [:]
        var vocabularyIndex: [String: Int32] = [:]
        for slot in slots {
            switch slot.kind {
            case .enumeration:
                if let known = lexiconIndex[slot.parameter] {
                    lexiconOf.append(known)
                } else if let lexicon = enumerations[slot.parameter] {
                    lexicons.append(Shared(lexicon))
                    lexiconIndex[slot.parameter] = Int32(lexicons.count - 1)
                    lexiconOf.append(Int32(lexicons.count - 1))
                } else {
                    lexiconOf.append(-1)
                }
                vocabularyOf.append(-1)
            case .free(_, _, let vocabulary?, _, _):
                lexiconOf.append(-1)
                if let known = vocabularyIndex[vocabulary] {
                    vocabularyOf.append(known)
                } else {
                    vocabularyNames.append(vocabulary)
                    vocabularyIndex[vocabulary] = Int32(vocabularyNames.count - 1)
                    vocabularyOf.append(Int32(vocabularyNames.count - 1))
                }
            default:
                lexiconOf.append(-1)
                vocabularyOf.append(-1)
            }
        }
    }

    /// Slot `id`'s lexicon index, -1 for none (and for an oracle bound to nothing).
    @inline(__always) func lexicon(_ id: Int) -> Int { id < lexiconOf.count ? Int(lexiconOf[id]) : -1 }
    /// Slot `id`'s vocabulary index, -1 for none.
    @inline(__always) func vocabulary(_ id: Int) -> Int { id < vocabularyOf.count ? Int(vocabularyOf[id]) : -1 }
}

/// Which keys join list items and which cannot be (or start) a name, in one table: one
/// lookup per unit (of its bytes, no `Hasher`) instead of one per set. Keys and the sets'
/// words are normalized alike (`TextNormalizer.key`), so bytes decide as `==` would.
struct WordClasses: Sendable {
    static let conjunction: UInt8 = 1
    static let notName: UInt8 = 2
    private let table: FeatureTable
    private let flags: [UInt8]

    init(conjunctions: Set<String>, notNames: Set<String>) {
        let words = conjunctions.union(notNames).sorted()
        table = FeatureTable(words)
        flags = words.map { (conjunctions.contains($0) ? Self.conjunction : 0) | (notNames.contains($0) ? Self.notName : 0) }
    }

    /// `conjunction` and `notName`, as they hold of `key`.
    func flags(of key: String) -> UInt8 { table[key].map { flags[Int($0)] } ?? 0 }
}

/// Everything slot matching needs to know about the utterance and the context.
struct SlotOracle {
    var units: [MatchUnit]
    /// Entities by the unit they start at: (end unit, entity).
    var entities: [Int: [(end: Int, entity: Entity)]]
    /// Vocabulary phrases by vocabulary type.
    var vocabularies: [String: PhraseSet]
    /// The automaton's slots' enum lexicons and vocabularies, by slot id (`SlotBinding`).
    var binding: SlotBinding
    /// Keys that join list items ("and", "y", "et") and words that cannot be (or start) a name
    /// (pronouns, articles: "tell me a joke"), the grammar's (`LanguageGrammar.wordClasses`);
    /// nil: none of either.
    var wordClasses: WordClasses?
    /// Capitals carry no signal (German capitalizes every noun).
    var capitalizedNouns = false
    /// The app mention a mention pattern must cover, as a unit range.
    var app: Range<Int>?
    /// `vocabularies` by `binding.vocabularyNames`' indices (nil: the context has none), when
    /// resolved beforehand; empty: looked up by name.
    var boundVocabularies: [PhraseSet?] = []
    /// The grammar's enum phrases by their first word, for the matcher to ask whether one
    /// starts at a unit, said exactly (`valueStart(_:at:startWords:)`, each unit the first time
    /// it is asked); nil: none is ever said.
    var valueStartWords: StartWords?
    /// App mentions left in place, or (empty ranges) the places mentions were taken from: no
    /// name, place or other value slot covers or spans them (only a message's text and skipped
    /// words may: "tell Rob I'm on Natter now").
    var mentions: [Range<Int>] = []

    /// The key in `vocabularies` of the language's titles with their article ("la doctora",
    /// "al doctor"): a person's name may open with one (`NameKnowledge.titlePhrases`).
    static let titlePhrases = "title phrases"

    /// Whether one of the lexicons' phrases starts at `keys[i]`, said exactly.
    /// `startWords`: the lexicons' phrases by their first word (`startWords(_:)`): a unit that
    /// starts none is ruled out at once, and only the lexicons that have a phrase starting
    /// with it are asked.
    static func valueStart(_ keys: [String], at i: Int, startWords: StartWords) -> Bool {
        guard startWords.prints.contains(keys[i]), let lexicons = startWords.lexicons[keys[i]] else { return false }
        // (Each of these lexicons has a phrase that starts with the unit's key.)
        return lexicons.contains { $0.startsExactly(keys, at: i, knownFirst: true) }
    }

    /// The lexicons by the first word of each of their phrases, with the words' prints
    /// (`WordPrints`): most units are ruled out without hashing them. (Each lexicon behind a
    /// reference: read in place, not copied with its dozen tables for each unit asked.)
    struct StartWords: Sendable {
        var lexicons: [String: [SlotBinding.Shared]] = [:]
        var prints = WordPrints()
    }

    /// The lexicons by the first word of each of their phrases.
    static func startWords(_ enumerations: [String: PhraseLexicon]) -> StartWords {
        var words = StartWords()
        for name in enumerations.keys.sorted() {
            let lexicon = SlotBinding.Shared(enumerations[name]!)
            for word in lexicon.lexicon.firstWords {
                words.lexicons[word, default: []].append(lexicon)
                words.prints.insert(word)
            }
        }
        return words
    }
}

/// Key sequences of vocabulary phrases. The phrases and their indexes are held behind one
/// reference (`Table`, copied on write): a copy of a set (a context's vocabularies are handed
/// from stage to stage and run to run) is one reference counted, not a dozen tables.
struct PhraseSet: Sendable {
    private var table = Table()

    var longest: Int { table.longest }
    /// Every word of every phrase.
    var words: Set<String> { table.words }
    /// Every phrase (for an image).
    fileprivate var phrases: Set<[String]> { table.phrases }

    mutating func insert(_ keys: [String]) {
        if !isKnownUniquelyReferenced(&table) { table = table.copy() }
        table.insert(keys)
    }

    /// Whether `key` is a word of some phrase (keys are in one normalization form, as
    /// `TextNormalizer.key` makes them: equal keys are equal bytes, and have the same sketch).
    @inline(__always) func hasWord(_ key: String) -> Bool { table.hasWord(key) }

    /// Whether the words are one of the phrases (a run whose sketch no phrase has is ruled out
    /// before an array is made and hashed).
    func contains(_ keys: ArraySlice<String>) -> Bool { table.contains(keys) }

    /// The length of the longest phrase said from `start` on, nil when none is.
    func longestMatch(_ keys: [String], at start: Int) -> Int? { table.longestMatch(keys, at: start) }

    /// A known phrase said a little differently: split or run together ("banana rific",
    /// "Dschungel Sprint"), or with one slip in words of four letters or more ("Cocunut
    /// Crunch"). For closed slots, which otherwise take known phrases only. The matcher asks
    /// its two halves through `SlotSources.isNearPhrase`, which rules out a run with two words
    /// the set lacks before the second; this is the definition that answer is checked against.
    func nearlyContains(_ keys: ArraySlice<String>) -> Bool { table.saidSplitUp(keys) || table.saidWithOneSlip(keys) }

    /// `nearlyContains`'s first half: a known phrase with its words split or run together.
    func saidSplitUp(_ keys: ArraySlice<String>) -> Bool { table.saidSplitUp(keys) }

    /// `nearlyContains`'s second half: a known phrase with one slip in one of its words (so
    /// every other word is one of the set's).
    func saidWithOneSlip(_ keys: ArraySlice<String>) -> Bool { table.saidWithOneSlip(keys) }

    /// Vocabularies larger than this get no near matching (it scans the phrases).
    static let nearMatchLimit = 2_000
}

extension PhraseSet {
    /// What a `PhraseSet` holds: a class, read in place (a struct stored behind a reference is
    /// copied to be read); written only while the set is built, by its one owner.
    fileprivate final class Table: @unchecked Sendable {
        @exclusivity(unchecked) fileprivate var phrases: Set<[String]> = []
        /// Phrases with their words run together ("bananarific"), for names said split up.
        @exclusivity(unchecked) private var joined: Set<String> = []
        /// Phrases by word count and first character, for near matches (kept only for small
        /// vocabularies).
        @exclusivity(unchecked) private var byLength: [NearKey: NearPhrases] = [:]
        /// The phrases of one key for near matching, with their words' `EditDistance.letterMask`s
        /// (most words are ruled out by them before they are compared): phrase `i`'s word `n` has
        /// mask `masks[i * count + n]` (the phrases of a key have the same number of words).
        private struct NearPhrases {
            var phrases: [[String]] = []
            var masks: [UInt64] = []
        }
        private struct NearKey: Hashable {
            var count: Int
            var first: Character?
        }
        @exclusivity(unchecked) private(set) var longest = 0
        /// Every word of every phrase, and their sketch (`Bits256`): most words that are none are
        /// ruled out without hashing them (`hasWord`).
        @exclusivity(unchecked) private(set) var words: Set<String> = []
        @exclusivity(unchecked) private var wordSketch = Bits256()
        /// Sketches (`Bits256`) of `joined`, and of `byLength`'s keys (word count, first byte): a
        /// run that is none is ruled out without making or hashing it.
        @exclusivity(unchecked) private var joinedSketch = Bits256()
        /// The second sketches (`Bits256.secondSketch`) of `joined`: a run said split up is
        /// looked for (`saidSplitUp`) only when both its bits are set.
        @exclusivity(unchecked) private var joinedSecondSketch = Bits256()
        @exclusivity(unchecked) private var nearSketch = Bits256()

        init() {}

        /// A table of its own with the same phrases.
        func copy() -> Table {
            let made = Table()
            made.phrases = phrases
            made.joined = joined
            made.byLength = byLength
            made.longest = longest
            made.words = words
            made.wordSketch = wordSketch
            made.joinedSketch = joinedSketch
            made.joinedSecondSketch = joinedSecondSketch
            made.nearSketch = nearSketch
            return made
        }

        func insert(_ keys: [String]) {
            guard !keys.isEmpty else { return }
            guard phrases.insert(keys).inserted else { return }
            longest = max(longest, keys.count)
            words.formUnion(keys)
            for key in keys { wordSketch.insert(Bits256.sketch(key)) }
            joined.insert(keys.joined())
            let ends = Bits256.ends(joining: keys[...])
            joinedSketch.insert(Bits256.sketch(count: ends.count, first: ends.first, last: ends.last))
            joinedSecondSketch.insert(Bits256.secondSketch(count: ends.count, first: ends.first, last: ends.last))
            if phrases.count <= PhraseSet.nearMatchLimit {
                func add(_ bucket: inout NearPhrases) {
                    bucket.phrases.append(keys)
                    for word in keys { bucket.masks.append(EditDistance.letterMask(word)) }
                }
                add(&byLength[NearKey(count: keys.count, first: keys.first?.first), default: NearPhrases()])
                nearSketch.insert(Bits256.sketch(count: keys.count, first: keys.first?.utf8.first, last: nil))
            } else {
                byLength = [:]
                nearSketch = Bits256()
            }
        }

        /// `PhraseSet.hasWord`.
        @inline(__always) func hasWord(_ key: String) -> Bool { wordSketch.contains(Bits256.sketch(key)) && words.contains(key) }

        /// `PhraseSet.contains`.
        func contains(_ keys: ArraySlice<String>) -> Bool {
            joinedSketch.contains(Bits256.sketch(joining: keys)) && phrases.contains(Array(keys))
        }

        /// `PhraseSet.longestMatch`.
        func longestMatch(_ keys: [String], at start: Int) -> Int? {
            guard start < keys.count else { return nil }
            // A phrase holds only words of the set: none runs past the first key that is not one.
            let most = min(longest, keys.count - start)
            var reach = 0
            while reach < most, hasWord(keys[start + reach]) { reach += 1 }
            guard reach > 0 else { return nil }
            return stride(from: reach, through: 1, by: -1).first { contains(keys[start..<(start + $0)]) }
        }

        /// `PhraseSet.saidSplitUp`.
        func saidSplitUp(_ keys: ArraySlice<String>) -> Bool {
            guard keys.count <= longest + 3 else { return false }
            let ends = Bits256.ends(joining: keys)
            guard joinedSketch.contains(Bits256.sketch(count: ends.count, first: ends.first, last: ends.last)),
                joinedSecondSketch.contains(Bits256.secondSketch(count: ends.count, first: ends.first, last: ends.last))
            else { return false }
            let run = keys.concatenated()
            return run.characterCount >= 6 && joined.contains(run)
        }

        /// `PhraseSet.saidWithOneSlip`.
        func saidWithOneSlip(_ keys: ArraySlice<String>) -> Bool {
            guard keys.count <= longest + 3,
                nearSketch.contains(Bits256.sketch(count: keys.count, first: keys.first?.utf8.first, last: nil)),
                let candidates = byLength[NearKey(count: keys.count, first: keys.first?.first)]
            else { return false }
            let count = keys.count
            let base = keys.startIndex
            // Each said word's mask, made when first needed (0: not yet; a mask is never 0 for a
            // word of four characters or more), on the stack.
            return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: count) { masks in
                masks.initialize(repeating: 0)
                for (i, phrase) in candidates.phrases.enumerated() {
                    var slips = 0
                    var ok = true
                    for n in 0..<count where keys[base + n] != phrase[n] {
                        slips += 1
                        guard slips == 1 else {
                            ok = false
                            break
                        }
                        let said = keys[base + n]
                        if masks[n] == 0 { masks[n] = said.characterCount < 4 ? 1 : EditDistance.letterMask(said) }
                        if masks[n] == 1 || EditDistance.maskRulesOut(masks[n], candidates.masks[i * count + n])
                            || !EditDistance.withinOne(said, phrase[n])
                        {
                            ok = false
                            break
                        }
                    }
                    if ok, slips == 1 { return true }
                }
                return false
            }
        }
    }
}

/// What `EditDistance.endsRuleOut` leaves of a list of words, by length in characters: a word
/// no word of the list of its length or one either side might be within one slip of is ruled
/// out with two bit tests, before the list is scanned. Words of one slip share their first
/// or their last byte, unless `EditDistance.endsOpen` (then nothing is ruled out).
struct EndsSketch: Sendable {
    /// Per length n, the first bytes (and the last bytes) of the words of n - 1, n or n + 1
    /// characters whose ends can rule something out.
    private var firsts: [Bits256] = []
    private var lasts: [Bits256] = []
    /// The lengths n with a word of n - 1, n or n + 1 characters whose ends rule nothing out.
    private var open = Bits256()
    /// Lengths from here on are never ruled out (the tables stop below it).
    static let longest = 250

    mutating func insert(length: Int, ends: (first: UInt8, last: UInt8)?) {
        for n in max(0, length - 1)...(length + 1) where n < Self.longest {
            if EditDistance.endsOpen(ends) {
                open.insert(n)
            } else if let ends {
                while firsts.count <= n {
                    firsts.append(Bits256())
                    lasts.append(Bits256())
                }
                firsts[n].insert(Int(ends.first))
                lasts[n].insert(Int(ends.last))
            }
        }
    }

    /// False only when every word of the list of `length - 1`, `length` or `length + 1`
    /// characters is ruled out by its ends against `ends` (`EditDistance.endsRuleOut`).
    func mayBeNear(length: Int, ends: (first: UInt8, last: UInt8)?) -> Bool {
        guard let ends, !EditDistance.endsOpen(ends), length < Self.longest else { return true }
        if open.contains(length) { return true }
        guard length < firsts.count else { return false }
        return firsts[length].contains(Int(ends.first)) || lasts[length].contains(Int(ends.last))
    }
}

/// Phrases of an enum parameter's values in one language: "missed" → ["missed", "unanswered"].
struct PhraseLexicon: Sendable {
    private(set) var entries: [[String]: String] = [:]
    /// Phrases that name more than one value ("chicken" for two chicken soups), with all of them.
    private(set) var shared: [[String]: [String]] = [:]
    private(set) var longest = 0
    /// What near matching scans, in the order the phrases were inserted (so that the first
    /// near phrase found is always the same one): the one-word phrases of five letters or
    /// more, and the phrases of several words by their first character, each word with its
    /// length in characters.
    private var longWords: [(word: String, length: Int, value: String, ends: (first: UInt8, last: UInt8)?, mask: UInt64)] = []
    /// `longWords`' indices by length, in insertion order.
    private var longWordsByLength: [[Int]] = []
    /// What the ends of `longWords` leave (`EndsSketch`).
    private var longWordEnds = EndsSketch()
    /// The first word of every phrase, and their prints (`WordPrints`): most units are ruled
    /// out without hashing them.
    private(set) var firstWords: Set<String> = []
    private var firstPrints = WordPrints()
    /// The sketches of the phrases run together (`Bits256.sketch(joining:)`): a run whose bit
    /// is clear is no phrase, found without making an array and hashing it.
    private var joinedSketch = Bits256()
    /// The phrases of several words, each word with its length in characters, and their indices
    /// by the first character of the phrase (in insertion order); `severalFirstBytes` has the
    /// first byte of each such character, so that a unit that starts none is ruled out without
    /// making its first character.
    private var several: [(phrase: [String], lengths: [Int], value: String)] = []
    private var severalByFirst: [Character: [Int]] = [:]
    private var severalFirstBytes = Bits256()
    /// The sketches of the first and of the second words of `several`: said with one word a
    /// little different, such a phrase has its first word or its second said exactly, so a
    /// unit with neither is ruled out before its first character is made.
    private var severalFirstWords = Bits256()
    private var severalSecondWords = Bits256()

    /// Every insertion, in order: an image of the lexicon replays them (`ImageCodable`), so
    /// that a lexicon read from an image is the one built, down to its scanning order.
    private var inserted: [(keys: [String], value: String)] = []

    mutating func insert(_ keys: [String], value: String) {
        guard !keys.isEmpty else { return }
        inserted.append((keys, value))
        if let existing = entries[keys] {
            if existing != value, !(shared[keys] ?? []).contains(value) { shared[keys, default: [existing]].append(value) }
        } else {
            entries[keys] = value
            joinedSketch.insert(Bits256.sketch(joining: keys[...]))
            firstWords.insert(keys[0])
            firstPrints.insert(keys[0])
            let lengths = keys.map(\.count)
            if keys.count == 1, lengths[0] >= 5 {
                while longWordsByLength.count <= lengths[0] { longWordsByLength.append([]) }
                longWordsByLength[lengths[0]].append(longWords.count)
                let ends = EditDistance.ends(keys[0])
                longWords.append((keys[0], lengths[0], value, ends, EditDistance.letterMask(keys[0])))
                longWordEnds.insert(length: lengths[0], ends: ends)
            }
            if keys.count > 1, let first = keys[0].first, let byte = keys[0].utf8.first {
                severalByFirst[first, default: []].append(several.count)
                several.append((keys, lengths, value))
                severalFirstBytes.insert(Int(byte))
                severalFirstWords.insert(Bits256.sketch(keys[0]))
                severalSecondWords.insert(Bits256.sketch(keys[1]))
            }
        }
        longest = max(longest, keys.count)
    }

    /// Whether some phrase starts with `key` (the prints first, then the set).
    private func startsSome(_ key: String) -> Bool { firstPrints.contains(key) && firstWords.contains(key) }

    /// The value of a run of keys that is a phrase (its sketch looked at first).
    private func entry(_ run: ArraySlice<String>) -> String? {
        joinedSketch.contains(Bits256.sketch(joining: run)) ? entries[Array(run)] : nil
    }

    /// Whether one of the phrases starts at `start`, said exactly. `knownFirst`: some phrase is
    /// known to start with `keys[start]` (not looked up again).
    func startsExactly(_ keys: [String], at start: Int, knownFirst: Bool = false) -> Bool {
        guard longest > 0, start < keys.count, knownFirst || startsSome(keys[start]) else { return false }
        return (1...longest).contains { n in start + n <= keys.count && entry(keys[start..<(start + n)]) != nil }
    }

    /// Every value a phrase names (one for most phrases; none for an unknown phrase).
    func values(of keys: ArraySlice<String>) -> [String] {
        let phrase = Array(keys)
        return shared[phrase] ?? entries[phrase].map { [$0] } ?? []
    }

    /// The longest phrase said exactly from `start` on: its end and value; nil when none is.
    func longestExact(_ keys: [String], from start: Int) -> (end: Int, value: String)? {
        for length in stride(from: min(longest, keys.count - start), through: 1, by: -1) {
            if let value = entry(keys[start..<(start + length)]) { return (start + length, value) }
        }
        return nil
    }

    /// Matches starting at `start`: (end, value, exact). A single long word may have one slip.
    /// `lengths`, when given, are the keys' lengths in characters (they rule out most slips
    /// without comparing the words).
    func matches(_ keys: [String], lengths saidLengths: [Int]? = nil, from start: Int) -> [(Int, String, Bool)] {
        var result: [(Int, String, Bool)] = []
        // Every phrase starts with one of `firstWords`: one lookup rules out most positions.
        if start < keys.count, startsSome(keys[start]) {
            for length in 1...max(1, longest) where start + length <= keys.count {
                if let value = entry(keys[start..<(start + length)]) {
                    result.append((start + length, value, true))
                }
            }
        }
        let length = result.isEmpty && start < keys.count ? (saidLengths?[start] ?? keys[start].count) : 0
        if length >= 5 {
            // The first long word (in insertion order) within one slip: the first of each of the
            // three lengths that can be, then the earliest of those.
            var first: Int?
            // Words whose ends alone rule them out are not compared (`EditDistance.endsRuleOut`).
            let ends = EditDistance.ends(keys[start])
            let mayBeNear = longWordEnds.mayBeNear(length: length, ends: ends)
            let mask = mayBeNear ? EditDistance.letterMask(keys[start]) : 0
            for known in (length - 1)...(length + 1) where mayBeNear {
                for index in known < longWordsByLength.count ? longWordsByLength[known] : [] {
                    if let first, index > first { break }
                    if !EditDistance.endsRuleOut(ends, longWords[index].ends), !EditDistance.maskRulesOut(mask, longWords[index].mask),
                        EditDistance.withinOne(keys[start], longWords[index].word)
                    {
                        first = index
                        break
                    }
                }
            }
            if let first { result.append((start + 1, longWords[first].value, false)) }
        }
        // A phrase of several words with one of them a little different ("tomato soups",
        // "sopas de tomate" for "Tomato Soup", "sopa de tomate"): the plural, or a slip.
        if result.isEmpty, start < keys.count, let byte = keys[start].utf8.first, severalFirstBytes.contains(Int(byte)),
            severalFirstWords.contains(Bits256.sketch(keys[start]))
                || (start + 1 < keys.count && severalSecondWords.contains(Bits256.sketch(keys[start + 1]))),
            let first = keys[start].first, let candidates = severalByFirst[first]
        {
            for index in candidates where start + several[index].phrase.count <= keys.count {
                let phrase = several[index].phrase
                let lengths = several[index].lengths
                var slips = 0
                for n in phrase.indices where keys[start + n] != phrase[n] {
                    slips += 1
                    if slips > 1 || lengths[n] < 4 || saidLengths.map({ abs($0[start + n] - lengths[n]) > 1 }) == true
                        || !EditDistance.withinOne(keys[start + n], phrase[n])
                    {
                        slips = 2
                        break
                    }
                }
                if slips == 1 { result.append((start + phrase.count, several[index].value, false)) }
            }
        }
        return result
    }
}

/// Scores, in one place: what a matched word, a slot token, a known name is worth.
enum MatchScores {
    static let literal = 1.0
    static let fuzzyLiteral = 0.5
    static let entity = 1.2
    static let enumPhrase = 1.0
    static let knownNameToken = 0.8
    /// A word of a known phrase said a little differently (closed slots only).
    static let nearKnownNameToken = 0.5
    static let unknownNameToken = -0.4
    static let capitalizedNameToken = -0.15
    static let capitalizedPlaceToken = -0.1
    static let longNameToken = -1.0
    /// Breaks ties toward the reading that captures (or fixes) more.
    static let capture = 0.05
    /// Each word of a preamble left out before a clause boundary.
    static let preambleToken = -0.1
    /// A word no template has at that point (a filler, an adverb, a hesitation: "let's go
    /// *burn* …", "call *quickly* Rob"), skipped at this cost, at most `maximumSkips` per
    /// reading. Dearer than any slot word, so a reading that places the word wins.
    static let skippedWord = -0.7
    static let maximumSkips = 2
    static let textToken = -0.02
    static let filler = -0.03
    static let wildcardToken = -0.3
    static let placeToken = -0.2
    /// Unknown words of a string (a search term): a little less likely than a place.
    static let stringToken = -0.25
    static let guardedToken = -1.0
    /// The most donations add to a reading (all of it for an intent the user does very often
    /// and recently, half for one donation today): enough to decide a near-tie, never to
    /// overturn a clearly better reading.
    static let donation = 0.4
}

/// The paths of one matcher run, as values in arrays: a path is an index into `nodes`, its
/// parent another index, its capture an index into `captures`. Nothing in the matcher's loop
/// is reference-counted; the accepted paths become `MatchPath`s at the end (`paths(_:)`).
struct PathArena {
    struct Node {
        var score: Double
        var literals: Int
        var skips: Int
        /// The template the path entered on this step (-1: none).
        var template: Int32
        /// The node before (-1: the start).
        var parent: Int32
        /// What this step captured, in `captures` (-1: nothing).
        var capture: Int32
    }

    /// One way a slot matches at a position: where it ends, its score and the capture's bonus,
    /// the capture (in `captures`) and the units it matched.
    struct SlotMatch {
        var end: Int
        var score: Double
        var bonus: Double
        var capture: Int32
        var literals: Int
    }

    /// What a step captured, as plain values (nothing to release when the arena is emptied):
    /// the slot (by id), the units, and the value's kind, with where its value is kept.
    struct Captured {
        enum Kind: UInt8 { case words, list, entity, enumeration, goal, app }
        var slot: Int32
        var start: Int32
        var end: Int32
        var kind: Kind
        /// A list: its first item in `items`; an entity or a goal: its index among the entities
        /// starting at `start`; an enum value: its index in `values`.
        var first: Int32 = 0
        /// A list's number of items.
        var count: Int32 = 0
    }

    var nodes: [Node] = []
    var captures: [Captured] = []
    /// The items of the list captures, one after another.
    var items: [Range<Int>] = []
    /// The values of the enum captures.
    var values: [String] = []
    /// Two lists a list slot splits its values into, kept (with their capacity) from slot to
    /// slot and run to run; what they hold between two uses means nothing.
    var listItems: [Range<Int>] = []
    var listSplit: [Range<Int>] = []

    init(reserving capacity: Int = 0) { nodes.reserveCapacity(capacity) }

    mutating func removeAll() {
        nodes.empty()
        captures.empty()
        items.empty()
        values.empty()
    }

    mutating func add(score: Double, literals: Int, skips: Int, template: Int32, parent: Int32, capture: Int32) -> Int32 {
        nodes.append(Node(score: score, literals: literals, skips: skips, template: template, parent: parent, capture: capture))
        return Int32(nodes.count - 1)
    }

    mutating func add(_ capture: Captured) -> Int32 {
        captures.append(capture)
        return Int32(captures.count - 1)
    }

    /// The path entering `template` where `index` ends (itself when there is no template).
    mutating func marked(_ index: Int32, _ template: Int32) -> Int32 {
        guard template >= 0 else { return index }
        let node = nodes[Int(index)]
        return add(score: node.score, literals: node.literals, skips: node.skips, template: template, parent: index, capture: -1)
    }

    /// The accepted paths as `MatchPath`s, by accepting state: each one's captures read back
    /// along its parents, and the last template it entered.
    func paths(_ accepted: [Int: Int32], capture: (Captured) -> Capture) -> [(state: Int, path: MatchPath)] {
        var result: [(state: Int, path: MatchPath)] = []
        result.reserveCapacity(accepted.count)
        var found: [Int32] = []
        for (state, index) in accepted {
            let end = nodes[Int(index)]
            var template: Int?
            found.empty()
            var at = index
            while at >= 0 {
                let node = nodes[Int(at)]
                if template == nil, node.template >= 0 { template = Int(node.template) }
                if node.capture >= 0 { found.append(node.capture) }
                at = node.parent
            }
            let path = MatchPath(
                score: end.score, literals: end.literals, skips: end.skips, templateIndex: template,
                captures: found.reversed().map { capture(captures[Int($0)]) })
            result.append((state, path))
        }
        result.sort { $0.state < $1.state }
        return result
    }
}

extension Array {
    /// `removeAll(keepingCapacity: true)`, which goes through `replaceSubrange` (a generic call
    /// of a hundred instructions or more), made only when there is something to remove: the
    /// matcher empties a dozen lists per run, most of them empty already.
    @inline(__always) mutating func empty() { if !isEmpty { removeAll(keepingCapacity: true) } }

    /// Drops the elements from `count` on, keeping the capacity: one at a time, for the few a
    /// short list holds (cheaper than `removeSubrange` and `removeAll`, generic calls).
    @inline(__always) mutating func truncate(to count: Int) { while self.count > count { removeLast() } }
}

extension Array where Element == Int {
    /// Sorts in place, ascending, with no buffer and no comparison closure (what `sort()` costs
    /// the matcher per position): insertion sort for short stretches, quicksort with the
    /// median of three above. Not stable; the matcher's states are distinct.
    mutating func sortAscending() {
        guard count > 1 else { return }
        // Already in order (states are often listed in the order of their numbers): one pass.
        var sorted = true
        withUnsafeBufferPointer { a in
            for k in 1..<a.count where a[k - 1] > a[k] {
                sorted = false
                break
            }
        }
        if sorted { return }
        withUnsafeMutableBufferPointer { buffer in
            let a = buffer.baseAddress!
            func insertion(_ low: Int, _ high: Int) {
                guard high > low else { return }
                for i in (low + 1)...high {
                    let x = a[i]
                    var j = i - 1
                    while j >= low, a[j] > x {
                        a[j + 1] = a[j]
                        j -= 1
                    }
                    a[j + 1] = x
                }
            }
            func quick(_ low: Int, _ high: Int) {
                var low = low
                var high = high
                while high - low > 16 {
                    let middle = low + (high - low) / 2
                    if a[middle] < a[low] { buffer.swapAt(middle, low) }
                    if a[high] < a[low] { buffer.swapAt(high, low) }
                    if a[high] < a[middle] { buffer.swapAt(high, middle) }
                    let pivot = a[middle]
                    var i = low
                    var j = high
                    while i <= j {
                        while a[i] < pivot { i += 1 }
                        while a[j] > pivot { j -= 1 }
                        if i <= j {
                            buffer.swapAt(i, j)
                            i += 1
                            j -= 1
                        }
                    }
                    // The smaller side first, the larger in the loop: the stack stays logarithmic.
                    if j - low < high - i {
                        quick(low, j)
                        low = i
                    } else {
                        quick(i, high)
                        high = j
                    }
                }
                insertion(low, high)
            }
            quick(0, buffer.count - 1)
        }
    }
}

/// A hash table from non-negative integers to indices, with open addressing and a
/// multiplicative hash: what the matcher looks up per step (states, slots, words by id),
/// at a fraction of a `Dictionary`'s hashing. Look a key's slot up, then read or fill it.
/// Emptied at once, so one table serves run after run: a slot holds a key only if it was
/// filled in the table's current generation.
struct IndexTable {
    fileprivate struct Entry {
        var key: Int
        var value: Int32
        /// The generation the slot was filled in.
        var generation: UInt32
    }
    fileprivate static let empty = Entry(key: -1, value: 0, generation: 0)

    /// The slots (`FixedBuffer`). A table is its storage (a copy shares it); each matcher
    /// scratch has its own tables.
    private typealias Storage = FixedBuffer<Entry>

    private var storage: Storage
    private var mask: Int
    private var count = 0
    /// The current generation (from 1: a slot of generation 0 was never filled).
    private var generation: UInt32 = 1

    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        storage = Storage(size: size, initial: IndexTable.empty)
        mask = size - 1
    }

    @inline(__always) private func home(_ key: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// The slot of `key`: where it is, or where it would go.
    func slot(of key: Int) -> Int {
        let entries = storage.entries
        var i = home(key)
        while entries[i].generation == generation, entries[i].key != key { i = (i + 1) & mask }
        return i
    }

    /// The value in a slot found by `slot(of:)`; nil when the key is not there.
    func value(at slot: Int) -> Int32? {
        let entry = storage.entries[slot]
        return entry.generation == generation ? entry.value : nil
    }

    /// Replaces the value of a key that is there.
    mutating func set(_ value: Int32, at slot: Int) { storage.entries[slot].value = value }

    /// Puts a key that is not there into the slot `slot(of:)` gave for it (nothing inserted since).
    mutating func insert(_ key: Int, _ value: Int32, at slot: Int) {
        storage.entries[slot] = Entry(key: key, value: value, generation: generation)
        count += 1
        if count * 2 > storage.size { grow() }
    }

    /// Empties the table: a new generation (every slot is renewed only when the count wraps).
    mutating func removeAll() {
        count = 0
        if generation == UInt32.max {
            for i in 0..<storage.size { storage.entries[i].generation = 0 }
            generation = 1
        } else {
            generation += 1
        }
    }

    private mutating func grow() {
        let old = storage
        let current = generation
        storage = Storage(size: old.size * 2, initial: IndexTable.empty)
        mask = storage.size - 1
        generation = 1
        for k in 0..<old.size where old.entries[k].generation == current {
            let entry = old.entries[k]
            storage.entries[slot(of: entry.key)] = Entry(key: entry.key, value: entry.value, generation: 1)
        }
    }
}

/// Memory of its own for `size` plain values, each set to `initial` at first: a change is a
/// store, with no uniqueness check (the tables of a matcher's scratch).
final class FixedBuffer<Element> {
    let entries: UnsafeMutablePointer<Element>
    let size: Int

    init(size: Int, initial: Element) {
        self.size = size
        entries = .allocate(capacity: size)
        entries.initialize(repeating: initial, count: size)
    }

    deinit { entries.deallocate() }
}

/// The slot matches a run has worked out, by (position, slot): one entry per pair, read and
/// written in place (no hashing), each marked with the run it was written in, so that a new
/// run empties the table by counting one more run.
struct SlotTable {
    private var storage = FixedBuffer<UInt64>(size: 0, initial: 0)
    /// The current run (from 1: an entry of run 0 was never written).
    private var run: UInt32 = 1
    /// Slots per position in the current run.
    private var slots = 0

    /// Empties the table for a run over positions `0..<positions` of an automaton of `slots`
    /// slots.
    mutating func reset(positions: Int, slots: Int) {
        self.slots = slots
        if run == UInt32.max {
            storage.entries.update(repeating: 0, count: storage.size)
            run = 1
        } else {
            run += 1
        }
        let size = positions * slots
        if size > storage.size { storage = FixedBuffer(size: max(size, storage.size * 2), initial: 0) }
    }

    /// The value of (position, slot) in this run, nil when none was set.
    @inline(__always) func value(position: Int, slot: Int) -> Int32? {
        let entry = storage.entries[position * slots + slot]
        return UInt32(truncatingIfNeeded: entry >> 32) == run ? Int32(truncatingIfNeeded: entry) : nil
    }

    @inline(__always) func set(_ value: Int32, position: Int, slot: Int) {
        storage.entries[position * slots + slot] = UInt64(run) << 32 | UInt64(UInt32(bitPattern: value))
    }
}

/// A vocabulary a run's slots asked about, and where its units' flags start in
/// `SlotSources.flags`.
struct KnownUnits {
    let phrases: PhraseSet
    let first: Int
}

/// Which units each vocabulary a run's slots asked about has among its words, made once per
/// vocabulary and run (by the vocabulary's index in the oracle's `SlotBinding`), each unit
/// looked up when first asked: a run of units with one that is not is none of its phrases,
/// found without hashing the run (`PhraseSet.contains` would).
struct SlotSources {
    /// Per vocabulary index: the index in `known` (-1: not asked yet, -2: the context has none).
    var knownOf: [Int32] = []
    var known: [KnownUnits] = []
    /// Per vocabulary in `known` and unit, one after another: 1 a word of the vocabulary, 0
    /// not, -1 not looked up yet (one array for all of them, kept from run to run).
    private var flags: [Int8] = []

    mutating func removeAll() {
        knownOf.empty()
        known.empty()
        flags.empty()
    }

    /// Whether `keys[range]` is one of the phrases of `known[v]`.
    mutating func isPhrase(_ v: Int, _ keys: [String], _ range: Range<Int>) -> Bool {
        for unit in range where !isWord(v, keys, unit) { return false }
        return known[v].phrases.contains(keys[range])
    }

    /// Whether `keys[range]` is one of the phrases of `known[v]` said a little differently
    /// (`PhraseSet.nearlyContains`). With one slip, every word but one is a word of the
    /// vocabulary: a run with two that are not is ruled out before the phrases are scanned.
    mutating func isNearPhrase(_ v: Int, _ keys: [String], _ range: Range<Int>) -> Bool {
        let phrases = known[v].phrases
        if phrases.saidSplitUp(keys[range]) { return true }
        if range.count > 1 {
            var unknown = 0
            for unit in range where !isWord(v, keys, unit) {
                unknown += 1
                if unknown > 1 { return false }
            }
        }
        return phrases.saidWithOneSlip(keys[range])
    }

    /// Whether unit `unit` is a word of `known[v]` (looked up once per run).
    @inline(__always) private mutating func isWord(_ v: Int, _ keys: [String], _ unit: Int) -> Bool {
        let at = known[v].first + unit
        if flags[at] < 0 { flags[at] = known[v].phrases.hasWord(keys[unit]) ? 1 : 0 }
        return flags[at] == 1
    }

    /// The index in `known` of slot `id`'s vocabulary, -1 for none.
    mutating func vocabulary(_ id: Int, _ oracle: SlotOracle, units: Int) -> Int {
        let name = oracle.binding.vocabulary(id)
        guard name >= 0 else { return -1 }
        // (Appended one by one: `append(contentsOf:)` takes a generic path that costs more
        // than a few appends.)
        while knownOf.count < oracle.binding.vocabularyNames.count { knownOf.append(-1) }
        let found = knownOf[name]
        if found >= 0 { return Int(found) }
        if found == -2 { return -1 }
        let resolved: PhraseSet?
        if name < oracle.boundVocabularies.count {
            resolved = oracle.boundVocabularies[name]
        } else {
            resolved = oracle.vocabularies[oracle.binding.vocabularyNames[name]]
        }
        guard let phrases = resolved else {
            knownOf[name] = -2
            return -1
        }
        known.append(KnownUnits(phrases: phrases, first: flags.count))
        for _ in 0..<units { flags.append(-1) }
        knownOf[name] = Int32(known.count - 1)
        return known.count - 1
    }
}

/// What a matcher run works in, kept from run to run on each thread (`take()`, `give(_:)`):
/// its tables, arena and lists are emptied, not made again, for every run.
struct MatcherScratch {
    var arena = PathArena(reserving: 256)
    var agenda = IndexTable(capacity: 256)
    var slotCache = SlotTable()
    /// The words each unit is one slip from (`Automaton.nearWords`), one unit after another,
    /// and where each offset's start (`nearStarts`).
    var near: [Int32] = []
    var nearStarts: [Int32] = []
    /// Per offset, the bits (`Automaton.aheadBit`) of the words the units from there on may be
    /// read as (their words and the words they are one slip from).
    var readableAfter: [Automaton.AheadBits] = []
    /// Each offset's states with their best paths (`state << 32 | path index`).
    var states: [[Int]] = []
    /// How many of `states` the current run has (those after it are empty).
    private var used = 0
    /// The slot matches of every (slot, position) asked, one after another; `slotRanges` has
    /// each one's stretch of them.
    var slotMatches: [PathArena.SlotMatch] = []
    var slotRanges: [Range<Int>] = []
    /// The slots' lexicons and vocabularies (`SlotSources`).
    var sources = SlotSources()

    /// Empties everything for a run over `length` units.
    mutating func reset(length: Int) {
        arena.removeAll()
        agenda.removeAll()
        near.empty()
        nearStarts.empty()
        readableAfter.empty()
        // Only the offsets the last run had can hold states (the list keeps the longest run's).
        for k in 0..<min(used, states.count) { states[k].empty() }
        while states.count <= length { states.append([]) }
        used = length + 1
        slotMatches.empty()
        slotRanges.empty()
        sources.removeAll()
    }

    private final class Box {
        /// (One thread's, so no dynamic exclusivity check.)
        @exclusivity(unchecked) var scratch: MatcherScratch?
    }

    /// Each thread's box.
    private static let box = ThreadLocal { Box() }

    /// The thread's scratch (a new one when the thread has none, or when a run is under way on
    /// it already), to hand back with `give(_:)`.
    static func take() -> MatcherScratch {
        // Moved out, not copied (a copy would count a reference to every table twice).
        var scratch: MatcherScratch?
        swap(&scratch, &box.value.scratch)
        return scratch ?? MatcherScratch()
    }

    /// Keeps a scratch for the thread's next run (moved in: `scratch` is left nil).
    static func give(_ scratch: inout MatcherScratch?) { swap(&box.value.scratch, &scratch) }
}

/// Runs an automaton over units [from, to) and returns, for each accepting state reached
/// at `to`, the best path.
final class AutomatonMatcher {
    /// The automaton, behind the grammar's one reference to it (no copy of its tables).
    let shared: SharedAutomaton
    let oracle: SlotOracle
    let keys: [String]
    /// Each unit's word id in the automaton (nil: no template has the word).
    let ids: [Int32?]
    /// Whether paths may skip words (`MatchScores.skippedWord`).
    let bend: Bool
    /// Each unit's length in characters.
    let lengths: [Int]

    /// The automaton's step tables as raw buffers (the automaton, held above, keeps them).
    private let wordSteps: Automaton.StepView
    private let fillerSteps: Automaton.StepView
    private let slipSteps: Automaton.StepView
    private let slotSteps: Automaton.StepView
    private let endSteps: Automaton.StepView
    /// `Automaton.facts` as a raw buffer (each state's needs, reads, words and words ahead;
    /// kept alive by `shared`, or by `ownFacts` when the matcher does not prune).
    private let facts: UnsafeBufferPointer<Automaton.StateFacts>
    private let ownFacts: PlainStorage<Automaton.StateFacts>?
    /// Each unit's bit in `Automaton.wordMasks` (`Automaton.wordBit`; 0 for a word no template
    /// has).
    private let wordBits: [UInt32]
    /// `Automaton.slotTwins`.
    private let twins: [Int32]

    /// A matcher of `automaton` over the oracle's units. `prunes`: whether matches that cannot
    /// end (`Automaton.needs`), cannot read the next unit (`Automaton.reads`) or none of the
    /// units after it (`Automaton.aheadMasks`) are dropped, and twin slots' matches copied
    /// (`Automaton.slotTwins`): always, but for tests that compare with the plain ways.
    init(automaton shared: SharedAutomaton, oracle: SlotOracle, bend: Bool = false, prunes: Bool = true) {
        self.shared = shared
        // (Read through `shared` each time: a local copy of the automaton would count a
        // reference to each of its tables.)
        self.wordSteps = shared.automaton.wordSteps.view
        self.fillerSteps = shared.automaton.fillerSteps.view
        self.slipSteps = shared.automaton.slipSteps.view
        self.slotSteps = shared.automaton.slotSteps.view
        self.endSteps = shared.automaton.endSteps.view
        // Without `prunes` (for tests that compare), every state is taken to end with no unit
        // left, to have slots (which read anything) and to read anything ahead: no match is
        // dropped.
        if prunes {
            ownFacts = nil
            facts = shared.automaton.facts.buffer
        } else {
            let own = PlainStorage(
                shared.automaton.facts.buffer.map {
                    Automaton.StateFacts(wordMask: $0.wordMask, ahead: Automaton.acceptsWithoutWord, needs: 0, reads: Automaton.Reads.slots)
                })
            ownFacts = own
            facts = own.buffer
        }
        self.oracle = oracle
        self.keys = oracle.units.map(\.key)
        let keys = self.keys
        let ids = keys.map { shared.automaton.id(of: $0) }
        self.twins = prunes ? shared.automaton.slotTwins : [Int32](repeating: -1, count: shared.automaton.slotTwins.count)
        self.wordBits = ids.map { $0.map(Automaton.wordBit) ?? 0 }
        let lengths = keys.map(\.characterCount)
        self.ids = ids
        self.lengths = lengths
        self.valueStartFlags = oracle.valueStartWords == nil ? [] : Array(repeating: -1, count: keys.count)
        self.classFlags = oracle.wordClasses == nil ? [] : Array(repeating: -1, count: keys.count)
        self.bend = bend
        // A name is what the request is about, never a filler: a capitalized word after the
        // first (where capitals mark names) is not skipped ("Retornar *Eva* para base").
        self.skippable =
            bend ? oracle.units.indices.map { !oracle.units.capitalMarksName($0, capitalizedNouns: oracle.capitalizedNouns) } : []
    }

    /// Per unit, whether an enum phrase starts there, said exactly (`SlotOracle.valueStart`):
    /// 1 or 0 once asked, -1 before; empty when the oracle has no phrases to ask.
    @exclusivity(unchecked) private var valueStartFlags: [Int8]
    /// Per unit, whether a bending path may skip it.
    let skippable: [Bool]
    /// Per unit, its `WordClasses.flags` once asked (-1 before; empty when the oracle has no
    /// word classes): only free slots ask, and only of the units they read.
    @exclusivity(unchecked) private var classFlags: [Int16]

    /// Whether unit `unit` joins list items (`WordClasses.conjunction`).
    private func conjunction(_ unit: Int) -> Bool { classes(unit) & WordClasses.conjunction != 0 }
    /// Whether unit `unit` cannot be (or start) a name (`WordClasses.notName`).
    private func notName(_ unit: Int) -> Bool { classes(unit) & WordClasses.notName != 0 }

    private func classes(_ unit: Int) -> UInt8 {
        guard unit < classFlags.count, let wordClasses = oracle.wordClasses else { return 0 }
        if classFlags[unit] < 0 { classFlags[unit] = Int16(wordClasses.flags(of: keys[unit])) }
        return UInt8(classFlags[unit])
    }

    /// The grammar words unit `position` is one slip from (`Automaton.nearWords`), for a unit of
    /// four characters or more that no template has, from the thread's memo (`IDsMemo`).
    private func nearWords(_ position: Int, _ memo: IDsMemo) -> [Int32] {
        let word = keys[position]
        return memo.value(of: IDsMemo.Key(owner: shared.serial, qualifier: nil, word: word), bytes: word.utf8.count) {
            var made: [Int32] = []
            shared.automaton.nearWords(word, length: lengths[position], mask: EditDistance.letterMask(word), into: &made)
            return made
        }
    }

    /// Whether some step may read unit `position` as a word: it is a word of the automaton, or
    /// one slip from one. False: no match of a grammar without free slots reads across it
    /// (`IntentParser.mentionExtent` tries no run over it).
    func mayReadWord(_ position: Int) -> Bool {
        if ids[position] != nil { return true }
        return lengths[position] >= 4 && !nearWords(position, IDsMemo.local.value).isEmpty
    }

    /// The best path to each accepting state reached at `to`, by state.
    func run(start: Int, from: Int, to: Int) -> [(state: Int, path: MatchPath)] {
        var scratch: MatcherScratch? = MatcherScratch.take()
        defer { MatcherScratch.give(&scratch) }
        scratch!.reset(length: to - from)
        return run(start: start, from: from, to: to, in: &scratch!, paths: true).paths
    }

    /// Whether any accepting state is reached at `to` (`run` without making the paths).
    func accepts(start: Int, from: Int, to: Int) -> Bool {
        var scratch: MatcherScratch? = MatcherScratch.take()
        defer { MatcherScratch.give(&scratch) }
        scratch!.reset(length: to - from)
        return run(start: start, from: from, to: to, in: &scratch!, paths: false).accepted
    }

    private func run(start: Int, from: Int, to: Int, in scratch: inout MatcherScratch, paths: Bool) -> (
        accepted: Bool, paths: [(state: Int, path: MatchPath)]
    ) {
        let length = to - from
        // Paths live in an arena (`PathArena`): values, no reference counting in the loop. Each
        // offset lists its states with their best paths, as `state << 32 | path index` (sorted,
        // they are in the order of the states); the agenda maps (offset, state) to the state's
        // place in its offset's list. All of them are the thread's scratch, emptied
        // (`MatcherScratch`).
        var arena = PathArena()
        // (Tables share their storage: these are the scratch's own, no stand-ins.)
        var agenda = scratch.agenda
        var states: [[Int]] = []
        var slotCache = scratch.slotCache
        var near: [Int32] = []
        var nearStarts: [Int32] = []
        var readableAfter: [Automaton.AheadBits] = []
        var slotMatchList: [PathArena.SlotMatch] = []
        var slotRanges: [Range<Int>] = []
        var sources = SlotSources()
        // In from the scratch now, back to it at the end.
        func exchange() {
            swap(&sources, &scratch.sources)
            swap(&arena, &scratch.arena)
            swap(&agenda, &scratch.agenda)
            swap(&states, &scratch.states)
            swap(&slotCache, &scratch.slotCache)
            swap(&near, &scratch.near)
            swap(&nearStarts, &scratch.nearStarts)
            swap(&readableAfter, &scratch.readableAfter)
            swap(&slotMatchList, &scratch.slotMatches)
            swap(&slotRanges, &scratch.slotRanges)
        }
        exchange()
        defer { exchange() }
        // Each slot's matches by position, and after them, by slot twin (`Automaton.slotTwins`),
        // the first matches worked out for any slot of the twins.
        let slotCount = shared.automaton.slots.count
        let twins = self.twins
        slotCache.reset(positions: length + 1, slots: 2 * slotCount)
        // The grammar words each unit of four characters or more that no template has is one
        // slip from (`near`, the offset's at `nearStarts[offset]..<nearStarts[offset + 1]`), and
        // the bits (`Automaton.aheadBit`) of what the units from each offset on may be read as
        // (`readableAfter`): their words and the words they are one slip from.
        // (A word's near words are kept per thread, by automaton: the same words come back in
        // every run and reading, and line after line. Its letter mask is worked out only when
        // they are not known yet.)
        let memo = IDsMemo.local.value
        for offset in 0..<length {
            nearStarts.append(Int32(near.count))
            let position = from + offset
            if lengths[position] >= 4, ids[position] == nil {
                for id in nearWords(position, memo) { near.append(id) }
            }
        }
        nearStarts.append(Int32(near.count))
        for _ in 0...length { readableAfter.append(.none) }
        for offset in stride(from: length - 1, through: 0, by: -1) {
            var bits = ids[from + offset].map(Automaton.aheadBit) ?? .none
            for k in Int(nearStarts[offset])..<Int(nearStarts[offset + 1]) { bits |= Automaton.aheadBit(near[k]) }
            readableAfter[offset] = readableAfter[offset + 1] | bits
        }
        // Every slot's value reads a unit at least (a free slot's a word, an entity's, an enum
        // phrase's, a goal's), but for an app's slot given an empty mention.
        let shortestValue = oracle.app?.isEmpty == true ? 0 : 1
        func advance(_ at: Int, _ state: Int, _ score: Double, _ make: (inout PathArena) -> Int32) {
            // A match that cannot reach an accepting state in the units left is dropped.
            let fact = facts[state]
            guard Int(fact.needs) <= length - at else { return }
            // Nor is one that cannot read any of the words its templates have next.
            guard fact.mayRead(readableAfter[at]) else { return }
            // Nor is one listed that cannot read the next unit: no slot, no step of its word, no
            // slip for a word no template has, no skip for a bending path.
            if at < length {
                let reads = fact.reads
                let position = from + at
                if reads & Automaton.Reads.slots == 0 {
                    let may: Bool
                    if let id = ids[position] {
                        may =
                            fact.wordMask & wordBits[position] != 0
                            && ((reads & Automaton.Reads.words != 0 && !wordSteps.steps(of: state, reading: id).isEmpty)
                                || (reads & Automaton.Reads.fillers != 0 && !fillerSteps.steps(of: state, reading: id).isEmpty))
                    } else {
                        may = reads & Automaton.Reads.slips != 0 && lengths[position] >= 4
                    }
                    guard may || (bend && reads & Automaton.Reads.words != 0 && skippable[position]) else { return }
                }
            }
            let key = at << 32 | state
            let slot = agenda.slot(of: key)
            if let place = agenda.value(at: slot) {
                let entry = states[at][Int(place)]
                guard arena.nodes[entry & 0xFFFF_FFFF].score < score else { return }
                states[at][Int(place)] = state << 32 | Int(make(&arena))
            } else {
                agenda.insert(key, Int32(states[at].count), at: slot)
                states[at].append(state << 32 | Int(make(&arena)))
            }
        }
        let first = arena.add(score: 0, literals: 0, skips: 0, template: -1, parent: -1, capture: -1)
        agenda.insert(start, 0, at: agenda.slot(of: start))
        states[0].append(start << 32 | Int(first))
        var result: [Int: Int32] = [:]
        // The same slot at the same position is asked for by every template that has it
        // there: work its matches out once (by slot and position, into `slotMatchList`).
        // The parse's meter (`WorkMeter`), spent one step per state; counted here and settled
        // with the meter when the run ends.
        let meter = WorkMeter.current
        var steps = 0
        let allowance = meter.map { $0.limit - $0.spent } ?? Int.max
        defer { meter?.spend(steps) }
        for offset in 0...length {
            let position = from + offset
            // Whether the unit here may be read with a slip (`near`, made as the run starts): only
            // a unit of four characters or more that no template has.
            let slipped = position < to && lengths[position] >= 4 && ids[position] == nil
            // States in a fixed order, so that ties between equal scores always fall the same way
            // (no state is listed twice at an offset, so the path indices never decide).
            states[offset].sortAscending()
            for entry in states[offset] {
                // Over the parse's budget: stop; the parse then throws TooSlow.
                steps += 1
                if steps > allowance { return (!result.isEmpty, paths ? arena.paths(result) { capture($0, arena) } : []) }
                let state = entry >> 32
                let index = Int32(truncatingIfNeeded: entry)
                let path = arena.nodes[Int(index)]
                // A path that has just skipped a word (it captured nothing, and skipped more than
                // its parent had).
                let afterSkip = path.capture < 0 && path.skips > (path.parent < 0 ? 0 : arena.nodes[Int(path.parent)].skips)
                guard offset < length else {
                    for end in endSteps[state] where !afterSkip {
                        if let existing = result[end.state], arena.nodes[Int(existing)].score >= path.score { continue }
                        result[end.state] = arena.marked(index, end.template)
                    }
                    continue
                }
                // After a skipped word, only a template word (or another skip) may follow: words
                // are inserted between template words, never put in place of one.
                // (A unit whose bit the state's words lack is none of them: nothing to search.)
                let readable = facts[state].wordMask & wordBits[position] != 0
                let words = readable ? wordSteps.steps(of: state, reading: ids[position]!) : Automaton.StepTable.none
                if readable, let id = ids[position] {
                    for step in fillerSteps.steps(of: state, reading: id) {
                        let score = path.score + MatchScores.filler
                        advance(offset + 1, step.state, score) {
                            $0.add(
                                score: score, literals: path.literals, skips: path.skips, template: step.template, parent: index,
                                capture: -1)
                        }
                    }
                }
                for step in words {
                    let score = path.score + MatchScores.literal
                    advance(offset + 1, step.state, score) {
                        $0.add(
                            score: score, literals: path.literals + 1, skips: path.skips, template: step.template, parent: index,
                            capture: -1)
                    }
                }
                // Templates bend: a word none of them has here is skipped, at a cost. Only
                // where a template word is expected next, so free slots keep their words.
                if bend, path.literals > 0, path.skips < MatchScores.maximumSkips, skippable[position], !wordSteps[state].isEmpty,
                    words.isEmpty
                {
                    let score = path.score + MatchScores.skippedWord
                    advance(offset + 1, state, score) {
                        $0.add(score: score, literals: path.literals, skips: path.skips + 1, template: -1, parent: index, capture: -1)
                    }
                }
                // One slip ("mesage", "sned") only for words the grammar does not know.
                if slipped, !slipSteps[state].isEmpty {
                    // The state's slip steps in their order, those that read a near word: the
                    // steps are sorted by key and `near` ascends (each word once), so the steps of
                    // each near word in turn are those steps in that order, found without reading
                    // the others.
                    for k in Int(nearStarts[offset])..<Int(nearStarts[offset + 1]) {
                        for step in slipSteps.steps(of: state, reading: near[k]) {
                            let score = path.score + MatchScores.fuzzyLiteral
                            advance(offset + 1, step.state, score) {
                                $0.add(
                                    score: score, literals: path.literals + 1, skips: path.skips, template: step.template, parent: index,
                                    capture: -1)
                            }
                        }
                    }
                }
                guard !afterSkip else { continue }
                for step in slotSteps[state] {
                    // A slot whose matches lead where no unit after them can be read is not
                    // worked out (its values end `shortestValue` units on at the soonest).
                    guard facts[step.state].mayRead(readableAfter[offset + shortestValue]) else { continue }
                    let list: Int
                    if let known = slotCache.value(position: offset, slot: Int(step.key)) {
                        list = Int(known)
                    } else if case let twin = Int(twins[Int(step.key)]), twin >= 0,
                        let made = slotCache.value(position: offset, slot: slotCount + twin)
                    {
                        // A twin's matches, the same values captured for this slot.
                        list = slotRanges.count
                        let first = slotMatchList.count
                        for k in slotRanges[Int(made)] {
                            var match = slotMatchList[k]
                            var captured = arena.captures[Int(match.capture)]
                            captured.slot = Int32(step.key)
                            match.capture = arena.add(captured)
                            slotMatchList.append(match)
                        }
                        slotRanges.append(first..<slotMatchList.count)
                        slotCache.set(Int32(list), position: offset, slot: Int(step.key))
                    } else {
                        list = slotRanges.count
                        let first = slotMatchList.count
                        slotMatches(
                            Int(step.key), at: position, limit: to, into: &arena, appending: &slotMatchList, sources: &sources)
                        slotRanges.append(first..<slotMatchList.count)
                        slotCache.set(Int32(list), position: offset, slot: Int(step.key))
                        let twin = Int(twins[Int(step.key)])
                        if twin >= 0 { slotCache.set(Int32(list), position: offset, slot: slotCount + twin) }
                    }
                    for k in slotRanges[list] {
                        let match = slotMatchList[k]
                        let score = path.score + match.score + match.bonus
                        advance(match.end - from, step.state, score) {
                            $0.add(
                                score: score, literals: path.literals + match.literals, skips: path.skips, template: step.template,
                                parent: index, capture: match.capture)
                        }
                    }
                }
            }
        }
        return (!result.isEmpty, paths ? arena.paths(result) { capture($0, arena) } : [])
    }

    /// The ways a slot can match at `position`, appended to `result`: where each ends, its
    /// score (and the capture's bonus), its capture (put in `arena`) and the units it matched.
    private func slotMatches(
        _ id: Int, at position: Int, limit: Int, into arena: inout PathArena, appending result: inout [PathArena.SlotMatch],
        sources: inout SlotSources
    ) {
        let plan = shared.automaton.slotPlans[id]
        let bonus = plan.bonus
        func match(_ end: Int, _ score: Double, _ capture: PathArena.Captured, _ literals: Int) {
            result.append(PathArena.SlotMatch(end: end, score: score, bonus: bonus, capture: arena.add(capture), literals: literals))
        }
        func captured(_ range: Range<Int>, _ kind: PathArena.Captured.Kind, first: Int = 0, count: Int = 0) -> PathArena.Captured {
            PathArena.Captured(
                slot: Int32(id), start: Int32(range.lowerBound), end: Int32(range.upperBound), kind: kind, first: Int32(first),
                count: Int32(count))
        }
        switch plan.kind {
        case .app:
            guard let app = oracle.app, app.lowerBound == position, app.upperBound <= limit else { return }
            match(app.upperBound, MatchScores.literal, captured(app, .app), app.count)
        case .entity:
            // (No entity here, most often: found before the slot's types are read.)
            guard let entities = oracle.entities[position], case .entity(let types) = shared.automaton.slots[id].kind else { return }
            for (k, (end, entity)) in entities.enumerated()
            where end <= limit && types.contains(entity.type.rawValue) {
                match(end, MatchScores.entity, captured(position..<end, .entity, first: k), end - position)
            }
        case .goal:
            for (k, (end, entity)) in (oracle.entities[position] ?? []).enumerated()
            where end <= limit && [.duration, .distance, .energy].contains(entity.type) {
                match(end, MatchScores.entity, captured(position..<end, .goal, first: k), end - position)
            }
        case .enumeration:
            let lexicon = oracle.binding.lexicon(id)
            guard lexicon >= 0 else { return }
            for (end, value, exact) in oracle.binding.lexicons[lexicon].matches(keys, lengths: lengths, from: position)
            where end <= limit {
                let score = (exact ? MatchScores.enumPhrase : MatchScores.fuzzyLiteral) * Double(end - position)
                arena.values.append(value)
                match(end, score, captured(position..<end, .enumeration, first: arena.values.count - 1), end - position)
            }
        case .free:
            let (maxLength, list, perToken, names) = (plan.maxLength, plan.list, plan.perToken, plan.names)
            // The vocabulary, with which units are its words, once per run.
            let v = sources.vocabulary(id, oracle, units: keys.count)
            let longest = v >= 0 ? sources.known[v].phrases.longest : 0
            func isPhrase(_ range: Range<Int>) -> Bool { v >= 0 && sources.isPhrase(v, keys, range) }
            // A name never starts with a function word ("my", "the"), unless a known phrase does
            // ("my mom"), or a title with its article ("la doctora Collins", "al doctor Braun"):
            // the title is part of the name as said, the article is not.
            var opener = 0
            var article = 0
            if names, notName(position) {
                let reach = min(longest, limit - position)
                let knownPhrase =
                    reach >= 1 && (1...reach).contains { length in isPhrase(position..<(position + length)) }
                if !knownPhrase {
                    guard let titles = oracle.vocabularies[SlotOracle.titlePhrases], let length = titles.longestMatch(keys, at: position)
                    else { return }
                    opener = length
                    while article < length, notName(position + article) { article += 1 }
                }
            }
            // A title opening the name is followed by at least one word of it.
            let first = position + 1 + opener
            let last = min(limit, position + maxLength)
            guard first <= last else { return }
            let guarded = perToken != MatchScores.textToken && perToken != MatchScores.wildcardToken
            // One item's score and known words added to `score` and `known`; false when the
            // item cannot be a value of the slot.
            func evaluate(_ item: Range<Int>, _ score: inout Double, _ known: inout Int) -> Bool {
                if v >= 0, item.count <= longest, isPhrase(item) {
                    score += MatchScores.knownNameToken * Double(item.count)
                    known += item.count
                    return true
                }
                if perToken == nil, v >= 0, sources.isNearPhrase(v, keys, item) {
                    score += MatchScores.nearKnownNameToken * Double(item.count)
                    known += item.count
                    return true
                }
                guard let perToken, !(names && notName(item.lowerBound)) else { return false }
                // An unknown name holds no word that says a value of the request ("voice only",
                // "back", "emergency"): those belong to their own parameters.
                if names, item.contains(where: { saysValue(at: $0) }) { return false }
                for (n, unit) in item.enumerated() { score += tokenScore(n, unit, perToken) }
                return true
            }
            // What the `n`th unit of an unknown value, `unit`, is worth.
            func tokenScore(_ n: Int, _ unit: Int, _ perToken: Double) -> Double {
                let capitalized = !oracle.capitalizedNouns && unit > 0 && oracle.units[unit].capitalized
                // Unknown names are short: a third unknown lowercase word costs more.
                if names { return capitalized ? MatchScores.capitalizedNameToken : n >= 2 ? MatchScores.longNameToken : perToken }
                // A capitalized word is a likelier place than an unknown person ("fotos do Rio").
                return capitalized && perToken == MatchScores.placeToken ? MatchScores.capitalizedPlaceToken : perToken
            }
            // A value that is not a list: `evaluate` of one item, its unknown words' scores summed
            // as the end moves on (each unit added once, in the same order: the same sums), and
            // whether one of them says a value of the request.
            let valueStart = position + article
            var summed = valueStart
            var unknownScore = 0.0
            var saysSomeValue = false
            func evaluateValue(_ range: Range<Int>) -> (score: Double, known: Int)? {
                if v >= 0, range.count <= longest, isPhrase(range) {
                    return (MatchScores.knownNameToken * Double(range.count), range.count)
                }
                if perToken == nil, v >= 0, sources.isNearPhrase(v, keys, range) {
                    return (MatchScores.nearKnownNameToken * Double(range.count), range.count)
                }
                guard let perToken, !(names && notName(valueStart)) else { return nil }
                while summed < range.upperBound {
                    if names, saysValue(at: summed) { saysSomeValue = true }
                    unknownScore += tokenScore(summed - valueStart, summed, perToken)
                    summed += 1
                }
                return names && saysSomeValue ? nil : (unknownScore, 0)
            }
            // A list's items at each end (any other value is one item), and the items split
            // into known names, in the arena's two lists (no array per item, per end or per slot).
            var items: [Range<Int>] = []
            var split: [Range<Int>] = []
            if list {
                swap(&items, &arena.listItems)
                swap(&split, &arena.listSplit)
            }
            defer {
                if list {
                    swap(&items, &arena.listItems)
                    swap(&split, &arena.listSplit)
                }
            }
            for end in first...last {
                if guarded, oracle.mentions.contains(where: { $0.lowerBound < end && position < $0.upperBound }) { break }
                // Nor does such a value run across a sentence, or across a comma unless it is a
                // list ("to the hospital, and hurry": the place ends at the comma).
                if guarded, end - 1 > position, oracle.units[end - 1].sentenceBefore || (!list && oracle.units[end - 1].commaBefore) {
                    break
                }
                let range = valueStart..<end
                guard list else {
                    if let (score, known) = evaluateValue(range) { match(end, score, captured(range, .words), known) }
                    continue
                }
                var score = 0.0
                var known = 0
                items.truncate(to: 0)
                guard splitList(range, into: &items) else { continue }
                // Only an item of several words may split into known names.
                if v >= 0, items.contains(where: { $0.count > 1 }) {
                    split.truncate(to: 0)
                    for item in items where !segment(item, longest, isPhrase, into: &split) { split.append(item) }
                    swap(&items, &split)
                }
                guard items.allSatisfy({ evaluate($0, &score, &known) }) else { continue }
                for item in items { arena.items.append(item) }
                match(end, score, captured(range, .list, first: arena.items.count - items.count, count: items.count), known)
            }
        }
    }

    /// A capture of an accepted path as a value (`PathArena.Captured` read back).
    private func capture(_ c: PathArena.Captured, _ arena: PathArena) -> Capture {
        let parameter = shared.automaton.slots[Int(c.slot)].parameter
        let range = Int(c.start)..<Int(c.end)
        let value: CapturedValue
        switch c.kind {
        case .words: value = .words
        case .list: value = .list(Array(arena.items[Int(c.first)..<Int(c.first + c.count)]))
        case .entity: value = .entity(oracle.entities[range.lowerBound]![Int(c.first)].entity)
        case .goal: value = .goal(oracle.entities[range.lowerBound]![Int(c.first)].entity)
        case .enumeration: value = .enumeration(arena.values[Int(c.first)])
        case .app: value = .app
        }
        return Capture(parameter: parameter, range: range, value: value)
    }

    /// Whether an enum phrase of the grammar (a call's capability, a destination, a message's
    /// attribute…) starts at a unit, said exactly.
    private func saysValue(at unit: Int) -> Bool {
        guard unit < valueStartFlags.count, let words = oracle.valueStartWords else { return false }
        if valueStartFlags[unit] < 0 { valueStartFlags[unit] = SlotOracle.valueStart(keys, at: unit, startWords: words) ? 1 : 0 }
        return valueStartFlags[unit] == 1
    }

    /// An unknown item that splits entirely into known names ("bobo luis" said without a
    /// comma), longest names first, its names appended to `parts`; false (and `parts` as it
    /// was) when it does not.
    private func segment(
        _ item: Range<Int>, _ longest: Int, _ isPhrase: (Range<Int>) -> Bool, into parts: inout [Range<Int>]
    ) -> Bool {
        guard item.count > 1, !(item.count <= longest && isPhrase(item)) else { return false }
        let before = parts.count
        var start = item.lowerBound
        while start < item.upperBound {
            var found: Int?
            for length in stride(from: min(longest, item.upperBound - start), through: 1, by: -1)
            where isPhrase(start..<(start + length)) {
                found = length
                break
            }
            guard let length = found else {
                parts.truncate(to: before)
                return false
            }
            parts.append(start..<(start + length))
            start += length
        }
        if parts.count - before > 1 { return true }
        parts.truncate(to: before)
        return false
    }

    /// Splits a range into list items at commas and conjunctions, appended to `items`; false
    /// when an item is empty.
    private func splitList(_ range: Range<Int>, into items: inout [Range<Int>]) -> Bool {
        var start = range.lowerBound
        for unit in range {
            if conjunction(unit) {
                guard unit > start else { return false }
                items.append(start..<unit)
                start = unit + 1
            } else if oracle.units[unit].commaBefore, unit > start {
                items.append(start..<unit)
                start = unit
            }
        }
        guard start < range.upperBound else { return false }
        items.append(start..<range.upperBound)
        return true
    }
}

enum EditDistance {
    /// Whether two strings of the same length differ by one swap of adjacent characters.
    static func isTransposition(_ a: String, _ b: String) -> Bool {
        let x = Array(a)
        let y = Array(b)
        guard x.count == y.count, x != y else { return false }
        let diffs = x.indices.filter { x[$0] != y[$0] }
        return diffs.count == 2 && diffs[1] == diffs[0] + 1 && x[diffs[0]] == y[diffs[1]] && x[diffs[1]] == y[diffs[0]]
    }

    /// Whether two strings differ by at most one insertion, deletion, substitution or
    /// transposition of adjacent characters.
    static func withinOne(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        if endsRuleOut(a, b) { return false }
        // Lengths far apart in bytes: only multi-byte characters can bring them within one.
        // Count the shorter's characters, then the longer's only until it has two more.
        let la = a.utf8.count
        let lb = b.utf8.count
        if la > lb + 1 || lb > la + 1 {
            let (short, long) = la < lb ? (a, b) : (b, a)
            let most = short.count + 1
            var n = 0
            for _ in long {
                n += 1
                if n > most { return false }
            }
        }
        var a = a
        var b = b
        // ASCII (nearly every key): compare bytes, no allocation. Not with a CR, which makes one
        // character with the LF after it.
        let ascii = a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                guard x.allSatisfy({ $0 < 0x80 && $0 != 0x0D }), y.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return nil }
                return withinOne(x, y)
            }
        }
        if let ascii { return ascii }
        if let latin = withinOneByScalars(a, b) { return latin }
        let x = Array(a)
        let y = Array(b)
        return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in withinOne(x, y) } }
    }

    /// The set of a word's scalars, each as one of 63 bits (its value modulo 63), when every
    /// scalar is below U+0300 and none is a CR (then each scalar is a character of its own);
    /// bit 63 alone for any other word. One slip (a character put in, left out, changed or two
    /// swapped) leaves at most two bits different between two masks without bit 63
    /// (`maskRulesOut`).
    static func letterMask(_ word: String) -> UInt64 {
        var mask: UInt64 = 0
        for scalar in word.unicodeScalars {
            if scalar.value >= 0x300 || scalar.value == 0x0D { return 1 << 63 }
            mask |= 1 << UInt64(scalar.value % 63)
        }
        return mask
    }

    /// Whether two words' `letterMask`s alone show them more than one slip apart.
    @inline(__always) static func maskRulesOut(_ a: UInt64, _ b: UInt64) -> Bool {
        (a | b) >> 63 == 0 && (a ^ b).nonzeroBitCount > 2
    }

    /// `withinOne` read by scalars, for two words of scalars below U+0300 other than a carriage
    /// return (Latin letters with their accents, as German, French, Spanish, Italian and
    /// Portuguese words are): each such scalar is a character of its own, and equal characters
    /// are equal scalars, so the scalars are compared, in a buffer on the stack. Nil for any
    /// other word.
    static func withinOneByScalars(_ a: String, _ b: String) -> Bool? {
        var na = 0
        var nb = 0
        for scalar in a.unicodeScalars {
            if scalar.value >= 0x300 || scalar.value == 0x0D { return nil }
            na += 1
        }
        for scalar in b.unicodeScalars {
            if scalar.value >= 0x300 || scalar.value == 0x0D { return nil }
            nb += 1
        }
        if na > nb + 1 || nb > na + 1 { return false }
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: na + nb) { buffer in
            var i = 0
            for scalar in a.unicodeScalars {
                buffer[i] = scalar.value
                i += 1
            }
            for scalar in b.unicodeScalars {
                buffer[i] = scalar.value
                i += 1
            }
            return withinOne(UnsafeBufferPointer(rebasing: buffer[0..<na]), UnsafeBufferPointer(rebasing: buffer[na..<(na + nb)]))
        }
    }

    /// Whether two words' first and last bytes alone show them more than one edit apart: one
    /// edit leaves the first or the last character of words of three characters or more as it
    /// was. Only ASCII ends are read (a character is then its one byte), never a carriage
    /// return or line feed (which make one character of two), and only words of three bytes or
    /// more, which with such ends are words of two characters or more (a character that
    /// begins or ends with an ASCII byte is that byte, or begins with it and goes on with
    /// marks, or ends with it after a prepended mark); two words of two characters one edit
    /// apart with ASCII ends are one byte each. Reads no character, allocates nothing.
    @inline(__always) static func endsRuleOut(_ a: String, _ b: String) -> Bool { endsRuleOut(ends(a), ends(b)) }

    /// Whether `ends(_:)` of a word can rule nothing out (`endsRuleOut` is false for it
    /// whatever the other word): none (fewer than three bytes), a byte of a non-ASCII
    /// character at either end, or a CR first or an LF last.
    @inline(__always) static func endsOpen(_ x: (first: UInt8, last: UInt8)?) -> Bool {
        guard let x else { return true }
        return (x.first | x.last) >= 0x80 || x.first == 0x0D || x.last == 0x0A
    }

    /// `endsRuleOut` on the words' `ends(_:)`, read beforehand.
    @inline(__always) static func endsRuleOut(_ x: (first: UInt8, last: UInt8)?, _ y: (first: UInt8, last: UInt8)?) -> Bool {
        guard let x, let y, x.first != y.first, x.last != y.last else { return false }
        return (x.first | y.first | x.last | y.last) < 0x80 && x.first != 0x0D && y.first != 0x0D && x.last != 0x0A && y.last != 0x0A
    }

    /// A word's first and last bytes, when it has three or more (read from its storage).
    @inline(__always) static func ends(_ word: String) -> (first: UInt8, last: UInt8)? {
        word.utf8.withContiguousStorageIfAvailable { bytes in bytes.count >= 3 ? (bytes[0], bytes[bytes.count - 1]) : nil } ?? nil
    }

    /// `withinOne` on any two sequences of comparable elements.
    static func withinOne<E: Equatable>(_ x: UnsafeBufferPointer<E>, _ y: UnsafeBufferPointer<E>) -> Bool {
        if abs(x.count - y.count) > 1 { return false }
        var i = 0
        while i < min(x.count, y.count), x[i] == y[i] { i += 1 }
        if i == x.count && i == y.count { return true }
        if x.count == y.count {
            if x[(i + 1)...].elementsEqual(y[(i + 1)...]) { return true }
            return i + 1 < x.count && x[i] == y[i + 1] && x[i + 1] == y[i] && x[(i + 2)...].elementsEqual(y[(i + 2)...])
        }
        return x.count > y.count ? x[(i + 1)...].elementsEqual(y[i...]) : x[i...].elementsEqual(y[(i + 1)...])
    }

}

extension PhraseLexicon: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(inserted.count)
        for (keys, value) in inserted {
            image.write(keys)
            image.write(value)
        }
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init()
        for _ in 0..<(try image.count(least: 16)) { insert(try image.read([String].self), value: try image.read(String.self)) }
    }
}

extension PhraseSet: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(phrases.sorted { $0.lexicographicallyPrecedes($1) })
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init()
        for phrase in try image.read([[String]].self) { insert(phrase) }
    }
}
