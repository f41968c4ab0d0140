import ParlanceContext
import ParlanceText

/// One unit of the stream that templates match: a word, number or symbol token, or ":".
/// Other punctuation is left out of matching (it stays in the spans of free text).
struct MatchUnit: Sendable {
    var key: String
    var token: Token
    /// A comma stands between the previous unit and this one.
    var commaBefore: Bool
    /// A sentence ends between the previous unit and this one (". ", "? ", "! ", "; ").
    var sentenceBefore = false

    /// A token's key as the stages after the text layer compare it (the matcher's slips, app
    /// and name lookups, the models' features): a key past `WordLength.longest` keeps its
    /// first scalars and an ellipsis, which no entry has, so it still matches nothing and
    /// stays apart from the short words.
    static func boundedKey(_ key: String) -> String {
        WordLength.cut(key).map { $0 + "…" } ?? key
    }
}

extension [MatchUnit] {
    /// Whether unit `i` starts with a capital that marks a name: inside a sentence (not its
    /// first word), in a language that does not capitalize every noun (`capitalizedNouns`).
    func capitalMarksName(_ i: Int, capitalizedNouns: Bool) -> Bool {
        !capitalizedNouns && i > 0 && !self[i].sentenceBefore && (self[i].token.text.first?.isUppercase ?? false)
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

/// A path through the automaton: score so far, and what it captured (a persistent list).
final class MatchPath: @unchecked Sendable {
    let score: Double
    let literals: Int
    let capture: Capture?
    let template: Int?
    let parent: MatchPath?
    /// Words the path skipped (see `MatchScores.skippedWord`).
    let skips: Int

    init(score: Double, literals: Int, capture: Capture? = nil, template: Int? = nil, skips: Int? = nil, parent: MatchPath?) {
        self.score = score
        self.literals = literals
        self.capture = capture
        self.template = template
        self.skips = skips ?? parent?.skips ?? 0
        self.parent = parent
    }

    var captures: [Capture] {
        var result: [Capture] = []
        var node: MatchPath? = self
        while let n = node {
            if let c = n.capture { result.append(c) }
            node = n.parent
        }
        return result.reversed()
    }

    var templateIndex: Int? {
        var node: MatchPath? = self
        while let n = node {
            if let t = n.template { return t }
            node = n.parent
        }
        return nil
    }
}

/// Everything slot matching needs to know about the utterance and the context.
struct SlotOracle {
    var units: [MatchUnit]
    /// Entities by the unit they start at: (end unit, entity).
    var entities: [Int: [(end: Int, entity: Entity)]]
    /// Vocabulary phrases by vocabulary type.
    var vocabularies: [String: PhraseSet]
    /// Enum lexicon by parameter name.
    var enumerations: [String: PhraseLexicon]
    /// Keys that join list items ("and", "y", "et").
    var conjunctions: Set<String>
    /// Words that cannot be (or start) a name: pronouns, articles ("tell me a joke").
    var notNames: Set<String>
    /// Capitals carry no signal (German capitalizes every noun).
    var capitalizedNouns = false
    /// The app mention a mention pattern must cover, as a unit range.
    var app: Range<Int>?
    /// Per unit, whether one of `enumerations`' phrases starts there, said exactly (made once
    /// per match: see `SlotOracle.valueStarts(_:_:)`).
    var valueStarts: [Bool] = []
    /// App mentions left in place, or (empty ranges) the places mentions were taken from: no
    /// name, place or other value slot covers or spans them (only a message's text and skipped
    /// words may: "tell Rob I'm on Natter now").
    var mentions: [Range<Int>] = []

    /// The key in `vocabularies` of the language's titles with their article ("la doctora",
    /// "al doctor"): a person's name may open with one (`NameKnowledge.titlePhrases`).
    static let titlePhrases = "title phrases"

    /// Per unit, whether one of the lexicons' phrases starts there, said exactly.
    static func valueStarts(_ units: [MatchUnit], _ enumerations: [String: PhraseLexicon]) -> [Bool] {
        let keys = units.map(\.key)
        return keys.indices.map { i in enumerations.values.contains { $0.startsExactly(keys, at: i) } }
    }
}

/// Key sequences of vocabulary phrases.
struct PhraseSet: Sendable {
    private var phrases: Set<[String]> = []
    /// Phrases with their words run together ("bananarific"), for names said split up.
    private var joined: Set<String> = []
    /// Phrases by word count, for near matches (kept only for small vocabularies).
    private var byLength: [Int: [[String]]] = [:]
    private(set) var longest = 0
    /// Every word of every phrase.
    private(set) var words: Set<String> = []
    /// Vocabularies larger than this get no near matching (it scans the phrases).
    static let nearMatchLimit = 2_000

    mutating func insert(_ keys: [String]) {
        guard !keys.isEmpty else { return }
        guard phrases.insert(keys).inserted else { return }
        longest = max(longest, keys.count)
        words.formUnion(keys)
        joined.insert(keys.joined())
        if phrases.count <= Self.nearMatchLimit { byLength[keys.count, default: []].append(keys) } else { byLength = [:] }
    }

    func contains(_ keys: ArraySlice<String>) -> Bool { phrases.contains(Array(keys)) }

    /// The length of the longest phrase said from `start` on, nil when none is.
    func longestMatch(_ keys: [String], at start: Int) -> Int? {
        guard start < keys.count else { return nil }
        return stride(from: min(longest, keys.count - start), through: 1, by: -1).first { contains(keys[start..<(start + $0)]) }
    }

    /// A known phrase said a little differently: split or run together ("banana rific",
    /// "Dschungel Sprint"), or with one slip in words of four letters or more ("Cocunut
    /// Crunch"). For closed slots, which otherwise take known phrases only.
    func nearlyContains(_ keys: ArraySlice<String>) -> Bool {
        guard keys.count <= longest + 3 else { return false }
        let run = keys.joined()
        if run.count >= 6, joined.contains(run) { return true }
        guard let candidates = byLength[keys.count] else { return false }
        let said = Array(keys)
        for phrase in candidates where phrase.first?.first == said.first?.first {
            var slips = 0
            var ok = true
            for (a, b) in zip(said, phrase) where a != b {
                slips += 1
                if slips > 1 || a.count < 4 || !EditDistance.withinOne(a, b) {
                    ok = false
                    break
                }
            }
            if ok, slips == 1 { return true }
        }
        return false
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
    private var longWords: [(word: String, length: Int, value: String)] = []
    /// The first word of every phrase.
    private var firstWords: Set<String> = []
    private var severalWords: [Character: [(phrase: [String], lengths: [Int], value: String)]] = [:]

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
            firstWords.insert(keys[0])
            let lengths = keys.map(\.count)
            if keys.count == 1, lengths[0] >= 5 { longWords.append((keys[0], lengths[0], value)) }
            if keys.count > 1, let first = keys[0].first { severalWords[first, default: []].append((keys, lengths, value)) }
        }
        longest = max(longest, keys.count)
    }

    /// Whether one of the phrases starts at `start`, said exactly.
    func startsExactly(_ keys: [String], at start: Int) -> Bool {
        guard longest > 0, start < keys.count, firstWords.contains(keys[start]) else { return false }
        return (1...longest).contains { n in start + n <= keys.count && entries[Array(keys[start..<(start + n)])] != nil }
    }

    /// Every value a phrase names (one for most phrases; none for an unknown phrase).
    func values(of keys: ArraySlice<String>) -> [String] {
        let phrase = Array(keys)
        return shared[phrase] ?? entries[phrase].map { [$0] } ?? []
    }

    /// The longest phrase said exactly from `start` on: its end and value; nil when none is.
    func longestExact(_ keys: [String], from start: Int) -> (end: Int, value: String)? {
        for length in stride(from: min(longest, keys.count - start), through: 1, by: -1) {
            if let value = entries[Array(keys[start..<(start + length)])] { return (start + length, value) }
        }
        return nil
    }

    /// Matches starting at `start`: (end, value, exact). A single long word may have one slip.
    func matches(_ keys: [String], from start: Int) -> [(Int, String, Bool)] {
        var result: [(Int, String, Bool)] = []
        for length in 1...max(1, longest) where start + length <= keys.count {
            if let value = entries[Array(keys[start..<(start + length)])] { result.append((start + length, value, true)) }
        }
        let length = result.isEmpty && start < keys.count ? keys[start].count : 0
        if length >= 5 {
            for (word, known, value) in longWords where abs(known - length) <= 1 && EditDistance.withinOne(keys[start], word) {
                result.append((start + 1, value, false))
                break
            }
        }
        // A phrase of several words with one of them a little different ("tomato soups",
        // "sopas de tomate" for "Tomato Soup", "sopa de tomate"): the plural, or a slip.
        if result.isEmpty, start < keys.count, let first = keys[start].first, let candidates = severalWords[first] {
            for (phrase, lengths, value) in candidates where start + phrase.count <= keys.count {
                var slips = 0
                for (n, (said, known)) in zip(keys[start..<(start + phrase.count)], phrase).enumerated() where said != known {
                    slips += 1
                    if slips > 1 || lengths[n] < 4 || !EditDistance.withinOne(said, known) {
                        slips = 2
                        break
                    }
                }
                if slips == 1 { result.append((start + phrase.count, value, false)) }
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

/// Runs an automaton over units [from, to) and returns, for each accepting state reached
/// at `to`, the best path.
struct AutomatonMatcher {
    let automaton: Automaton
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

    init(automaton: Automaton, oracle: SlotOracle, bend: Bool = false) {
        self.automaton = automaton
        self.wordSteps = automaton.wordSteps.view
        self.fillerSteps = automaton.fillerSteps.view
        self.slipSteps = automaton.slipSteps.view
        self.slotSteps = automaton.slotSteps.view
        self.endSteps = automaton.endSteps.view
        self.oracle = oracle
        self.keys = oracle.units.map(\.key)
        self.ids = keys.map { automaton.id(of: $0) }
        self.lengths = keys.map(\.count)
        self.bend = bend
        // A name is what the request is about, never a filler: a capitalized word after the
        // first (where capitals mark names) is not skipped ("Retornar *Eva* para base").
        self.skippable =
            bend ? oracle.units.indices.map { !oracle.units.capitalMarksName($0, capitalizedNouns: oracle.capitalizedNouns) } : []
    }

    /// Per unit, whether a bending path may skip it.
    let skippable: [Bool]

    func run(start: Int, from: Int, to: Int) -> [Int: MatchPath] {
        let length = to - from
        var agenda = [[Int: MatchPath]](repeating: [:], count: length + 1)
        agenda[0][start] = MatchPath(score: 0, literals: 0, parent: nil)
        var result: [Int: MatchPath] = [:]
        // The same slot at the same position is asked for by every template that has it
        // there: work its matches out once.
        struct SlotAt: Hashable {
            var slot: Int32
            var position: Int
        }
        var slotCache: [SlotAt: [(Int, Double, Capture, Int)]] = [:]
        let meter = WorkMeter.current
        func marked(_ path: MatchPath, _ template: Int?) -> MatchPath {
            guard let template else { return path }
            return MatchPath(score: path.score, literals: path.literals, template: template, parent: path)
        }
        // One-slip tests of the current position's unit against grammar words, by word id.
        var slips: [Int32: Bool] = [:]
        for offset in 0...length {
            let position = from + offset
            slips.removeAll(keepingCapacity: true)
            // States in a fixed order, so that ties between equal scores always fall the same
            // way (dictionary order differs from one dictionary instance to the next).
            for state in agenda[offset].keys.sorted() {
                // Over the parse's budget: stop; the parse then throws TooSlow.
                if let meter, !meter.spend() { return result }
                let path = agenda[offset][state]!
                guard offset < length else {
                    for end in endSteps[state] where !(path.capture == nil && path.skips > (path.parent?.skips ?? 0)) {
                        if let existing = result[end.state], existing.score >= path.score { continue }
                        result[end.state] = marked(path, end.templateIndex)
                    }
                    continue
                }
                let unit = keys[position]
                // After a skipped word, only a template word (or another skip) may follow: words
                // are inserted between template words, never put in place of one.
                let afterSkip = path.capture == nil && path.skips > (path.parent?.skips ?? 0)
                let words = ids[position].map { wordSteps.steps(of: state, reading: $0) } ?? Automaton.StepTable.none
                if let id = ids[position] {
                    for step in fillerSteps.steps(of: state, reading: id) {
                        advance(
                            &agenda, offset + 1, step.state,
                            MatchPath(
                                score: path.score + MatchScores.filler, literals: path.literals, parent: marked(path, step.templateIndex)))
                    }
                }
                for step in words {
                    advance(
                        &agenda, offset + 1, step.state,
                        MatchPath(
                            score: path.score + MatchScores.literal, literals: path.literals + 1, parent: marked(path, step.templateIndex)))
                }
                // Templates bend: a word none of them has here is skipped, at a cost. Only
                // where a template word is expected next, so free slots keep their words.
                if bend, path.literals > 0, path.skips < MatchScores.maximumSkips, skippable[position], !wordSteps[state].isEmpty,
                    words.isEmpty
                {
                    advance(
                        &agenda, offset + 1, state,
                        MatchPath(score: path.score + MatchScores.skippedWord, literals: path.literals, skips: path.skips + 1, parent: path)
                    )
                }
                // One slip ("mesage", "sned") only for words the grammar does not know.
                if lengths[position] >= 4, ids[position] == nil {
                    for step in slipSteps[state] {
                        // Whether the unit is the word with one slip: worked out once per word and
                        // position, whichever states ask (lengths two apart never are).
                        let near: Bool
                        if let known = slips[step.key] {
                            near = known
                        } else {
                            let length = Int(automaton.wordLengths[Int(step.key)])
                            let key = automaton.words[Int(step.key)]
                            near =
                                abs(length - lengths[position]) <= 1 && EditDistance.withinOne(unit, key)
                                && (length >= 5 || EditDistance.isTransposition(unit, key))
                            slips[step.key] = near
                        }
                        guard near else { continue }
                        advance(
                            &agenda, offset + 1, step.state,
                            MatchPath(
                                score: path.score + MatchScores.fuzzyLiteral, literals: path.literals + 1,
                                parent: marked(path, step.templateIndex)))
                    }
                }
                for step in slotSteps[state] where !afterSkip {
                    let key = SlotAt(slot: step.key, position: position)
                    let matches = slotCache[key] ?? slotMatches(automaton.slots[Int(step.key)], at: position, limit: to)
                    slotCache[key] = matches
                    for (end, score, capture, literals) in matches {
                        let bonus = capture.parameter == "_" ? 0 : MatchScores.capture
                        advance(
                            &agenda, end - from, step.state,
                            MatchPath(
                                score: path.score + score + bonus, literals: path.literals + literals, capture: capture,
                                parent: marked(path, step.templateIndex)))
                    }
                }
            }
        }
        return result
    }

    private func advance(_ agenda: inout [[Int: MatchPath]], _ at: Int, _ state: Int, _ path: MatchPath) {
        if let existing = agenda[at][state], existing.score >= path.score { return }
        agenda[at][state] = path
    }

    /// The ways a slot can match at `position`: (end, score, capture, matched units).
    private func slotMatches(_ slot: Automaton.Slot, at position: Int, limit: Int) -> [(Int, Double, Capture, Int)] {
        switch slot.kind {
        case .app:
            guard let app = oracle.app, app.lowerBound == position, app.upperBound <= limit else { return [] }
            return [(app.upperBound, MatchScores.literal, Capture(parameter: slot.parameter, range: app, value: .app), app.count)]
        case .entity(let types):
            return (oracle.entities[position] ?? []).compactMap { end, entity in
                guard end <= limit, types.contains(entity.type.rawValue) else { return nil }
                return (
                    end, MatchScores.entity, Capture(parameter: slot.parameter, range: position..<end, value: .entity(entity)),
                    end - position
                )
            }
        case .goal:
            return (oracle.entities[position] ?? []).compactMap { end, entity in
                guard end <= limit, [.duration, .distance, .energy].contains(entity.type) else { return nil }
                return (
                    end, MatchScores.entity, Capture(parameter: slot.parameter, range: position..<end, value: .goal(entity)), end - position
                )
            }
        case .enumeration:
            guard let lexicon = oracle.enumerations[slot.parameter] else { return [] }
            return lexicon.matches(keys, from: position).compactMap { end, value, exact in
                guard end <= limit else { return nil }
                let score = (exact ? MatchScores.enumPhrase : MatchScores.fuzzyLiteral) * Double(end - position)
                return (end, score, Capture(parameter: slot.parameter, range: position..<end, value: .enumeration(value)), end - position)
            }
        case .free(let maxLength, let list, let vocabulary, let perToken, let names):
            var result: [(Int, Double, Capture, Int)] = []
            let phrases = vocabulary.flatMap { oracle.vocabularies[$0] }
            // A name never starts with a function word ("my", "the"), unless a known phrase does
            // ("my mom"), or a title with its article ("la doctora Collins", "al doctor Braun"):
            // the title is part of the name as said, the article is not.
            var opener = 0
            var article = 0
            if names, oracle.notNames.contains(keys[position]) {
                let reach = min(phrases?.longest ?? 0, limit - position)
                let knownPhrase =
                    reach >= 1 && (1...reach).contains { length in phrases?.contains(keys[position..<(position + length)]) == true }
                if !knownPhrase {
                    guard let titles = oracle.vocabularies[SlotOracle.titlePhrases], let length = titles.longestMatch(keys, at: position)
                    else { return [] }
                    opener = length
                    while article < length, oracle.notNames.contains(keys[position + article]) { article += 1 }
                }
            }
            // A title opening the name is followed by at least one word of it.
            let first = position + 1 + opener
            let last = min(limit, position + maxLength)
            guard first <= last else { return [] }
            let guarded = perToken != MatchScores.textToken && perToken != MatchScores.wildcardToken
            for end in first...last {
                if guarded, oracle.mentions.contains(where: { $0.lowerBound < end && position < $0.upperBound }) { break }
                // Nor does such a value run across a sentence, or across a comma unless it is a
                // list ("to the hospital, and hurry": the place ends at the comma).
                if guarded, end - 1 > position, oracle.units[end - 1].sentenceBefore || (!list && oracle.units[end - 1].commaBefore) {
                    break
                }
                guard var items = list ? splitList((position + article)..<end) : [(position + article)..<end] else { continue }
                if list, let phrases { items = items.flatMap { segment($0, phrases) ?? [$0] } }
                var score = 0.0
                var known = 0
                var possible = true
                for item in items {
                    if let phrases, item.count <= phrases.longest, phrases.contains(keys[item]) {
                        score += MatchScores.knownNameToken * Double(item.count)
                        known += item.count
                        continue
                    }
                    if perToken == nil, let phrases, phrases.nearlyContains(keys[item]) {
                        score += MatchScores.nearKnownNameToken * Double(item.count)
                        known += item.count
                        continue
                    }
                    guard let perToken, !(names && oracle.notNames.contains(keys[item.lowerBound])) else {
                        possible = false
                        break
                    }
                    // An unknown name holds no word that says a value of the request ("voice only",
                    // "back", "emergency"): those belong to their own parameters.
                    if names, item.contains(where: { saysValue(at: $0) }) {
                        possible = false
                        break
                    }
                    for (n, unit) in item.enumerated() {
                        let capitalized =
                            !oracle.capitalizedNouns && unit > 0 && (oracle.units[unit].token.text.first?.isUppercase ?? false)
                        if names {
                            // Unknown names are short: a third unknown lowercase word costs more.
                            score += capitalized ? MatchScores.capitalizedNameToken : n >= 2 ? MatchScores.longNameToken : perToken
                        } else {
                            // A capitalized word is a likelier place than an unknown person ("fotos do Rio").
                            score += capitalized && perToken == MatchScores.placeToken ? MatchScores.capitalizedPlaceToken : perToken
                        }
                    }
                }
                guard possible else { continue }
                let value: CapturedValue = list ? .list(items) : .words
                result.append((end, score, Capture(parameter: slot.parameter, range: (position + article)..<end, value: value), known))
            }
            return result
        }
    }

    /// Whether an enum phrase of the grammar (a call's capability, a destination, a message's
    /// attribute…) starts at a unit, said exactly.
    private func saysValue(at unit: Int) -> Bool { unit < oracle.valueStarts.count && oracle.valueStarts[unit] }

    /// An unknown item that splits entirely into known names ("bobo luis" said without a
    /// comma), longest names first; nil when it does not.
    private func segment(_ item: Range<Int>, _ phrases: PhraseSet) -> [Range<Int>]? {
        guard item.count > 1, !(item.count <= phrases.longest && phrases.contains(keys[item])) else { return nil }
        var parts: [Range<Int>] = []
        var start = item.lowerBound
        while start < item.upperBound {
            var found: Int?
            for length in stride(from: min(phrases.longest, item.upperBound - start), through: 1, by: -1)
            where phrases.contains(keys[start..<(start + length)]) {
                found = length
                break
            }
            guard let length = found else { return nil }
            parts.append(start..<(start + length))
            start += length
        }
        return parts.count > 1 ? parts : nil
    }

    /// Splits a range into list items at commas and conjunctions; nil when an item is empty.
    private func splitList(_ range: Range<Int>) -> [Range<Int>]? {
        var items: [Range<Int>] = []
        var start = range.lowerBound
        for unit in range {
            if oracle.conjunctions.contains(keys[unit]) {
                guard unit > start else { return nil }
                items.append(start..<unit)
                start = unit + 1
            } else if oracle.units[unit].commaBefore, unit > start {
                items.append(start..<unit)
                start = unit
            }
        }
        guard start < range.upperBound else { return nil }
        items.append(start..<range.upperBound)
        return items
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
        // ASCII (nearly every key): compare bytes, no allocation.
        let ascii = a.withUTF8 { x in
            b.withUTF8 { y -> Bool? in
                guard x.allSatisfy({ $0 < 0x80 }), y.allSatisfy({ $0 < 0x80 }) else { return nil }
                return withinOne(x, y)
            }
        }
        if let ascii { return ascii }
        let x = Array(a)
        let y = Array(b)
        return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in withinOne(x, y) } }
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
