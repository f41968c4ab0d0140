import Foundation
import ParlanceContext
import Testing

@testable import ParlanceParser
@testable import ParlanceText

/// The shortcuts the parser takes for speed (issue 15) give what the plain definitions give:
/// each is checked against that definition on many generated inputs, the awkward ones
/// (carriage returns, combining marks, prepended letters, other white space) included.
@Suite struct FastPathTests {
    /// A small seeded generator: the same inputs on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// Pieces that make words and texts hard to count: ASCII, CR LF, marks, a prepended
    /// letter, non-ASCII spaces, letters of two and three bytes, an emoji and its modifier.
    static let pieces = [
        "a", "b", "Z", " ", "\t", "\n", "\r", "\r\n", "e", "\u{301}", "ü", "ß", "¿", "\u{0600}", "\u{00A0}", "\u{3000}", "\u{2003}",
        "\u{200D}", "👍", "\u{1F3FD}", "x", ".", "-"
    ]

    static func text(_ generator: inout Generator, pieces count: Int) -> String {
        (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    @Test func characterCountIsCount() {
        var generator = Generator(state: 15)
        for _ in 0..<5_000 {
            let text = Self.text(&generator, pieces: Int.random(in: 0...12, using: &generator))
            #expect(text.characterCount == text.count, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test func startingUppercaseIsTheFirstCharactersCase() {
        var generator = Generator(state: 29)
        // Capitals of one, two and three bytes, and capitals with marks after them.
        let capitals = ["A", "Z", "É", "Ω", "Ж", "Ａ", "A\u{301}", "Z\u{308}\u{301}", "@", "[", "`", "{"]
        var seen = (upper: 0, other: 0)
        for _ in 0..<5_000 {
            var text = Self.text(&generator, pieces: Int.random(in: 0...5, using: &generator))
            if Bool.random(using: &generator) { text = capitals.randomElement(using: &generator)! + text }
            let plain = text.first?.isUppercase ?? false
            #expect(MatchUnit.startsUppercase(text) == plain, "\(text.unicodeScalars.map(\.value))")
            if plain { seen.upper += 1 } else { seen.other += 1 }
        }
        #expect(seen.upper > 500 && seen.other > 500, "\(seen)")
    }

    @Test func aStringOfScalarsIsTheScalarViewsString() {
        var generator = Generator(state: 22)
        for _ in 0..<3_000 {
            let scalars = Array(Self.text(&generator, pieces: Int.random(in: 0...12, using: &generator)).unicodeScalars)
            let from = Int.random(in: 0...scalars.count, using: &generator)
            let to = Int.random(in: from...scalars.count, using: &generator)
            let made = String(scalars: scalars[from..<to])
            let plain = String(String.UnicodeScalarView(scalars[from..<to]))
            #expect(Array(made.utf8) == Array(plain.utf8), "\(scalars[from..<to].map(\.value))")
            #expect(made == plain)
        }
    }

    @Test func classScoresAreTheBiasPlusEachFeaturesWeights() {
        var generator = Generator(state: 23)
        let report = FallbackModel.TrainingReport(
            examples: 0, heldOut: 0, heldOutAccuracy: 0, heldOutRejection: 0, epochs: 0, seed: 0)
        for round in 0..<200 {
            let classes = (0..<Int.random(in: 1...6, using: &generator)).map { "c\($0)" }
            let bias = classes.map { _ in Double.random(in: -1...1, using: &generator) }
            var weights: [String: [[Double]]] = [:]
            for f in 0..<Int.random(in: 0...30, using: &generator) {
                weights["w:f\(f)"] = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                    [Double(Int.random(in: 0..<classes.count, using: &generator)), Double(Float.random(in: -2...2, using: &generator))]
                }
            }
            let model = FallbackModel(language: "en", classes: classes, threshold: 0.5, bias: bias, weights: weights, training: report)
            let features = (0..<Int.random(in: 0...12, using: &generator)).map { _ in "w:f\(Int.random(in: 0...40, using: &generator))" }
            var expected = bias
            for feature in features {
                for pair in weights[feature] ?? [] { expected[Int(pair[0])] += Double(Float(pair[1])) }
            }
            #expect(model.scores(features) == expected, "round \(round)")
        }
    }

    @Test func oneSlipByScalarsIsOneSlipByCharacters() {
        var generator = Generator(state: 24)
        // Letters below U+0300 (Latin with accents, ß), and what makes characters of several
        // scalars (a combining accent, CR LF) or is no Latin letter.
        let letters = ["a", "b", "u", "ü", "ß", "s", "é", "e", "\u{301}", "\r", "\n", "ñ", "ø", "ł", "\u{0600}", "👍"]
        func word() -> String {
            (0..<Int.random(in: 0...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
        }
        func plain(_ a: String, _ b: String) -> Bool {
            let x = Array(a)
            let y = Array(b)
            return x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in EditDistance.withinOne(x, y) } }
        }
        for round in 0..<20_000 {
            let a = word()
            // A transposition now and then (two letters swapped).
            if round % 7 == 0, a.unicodeScalars.count >= 2 {
                var swapped = Array(a.unicodeScalars)
                let k = Int.random(in: 0..<(swapped.count - 1), using: &generator)
                swapped.swapAt(k, k + 1)
                let other = String(String.UnicodeScalarView(swapped))
                if EditDistance.isTransposition(a, other) {
                    #expect(!EditDistance.maskRulesOut(EditDistance.letterMask(a), EditDistance.letterMask(other)))
                }
            }
            // Often the other word is the first with one edit, so that both answers come up.
            var b = Array(a.unicodeScalars)
            switch Int.random(in: 0...3, using: &generator) {
            case 0 where !b.isEmpty: b.remove(at: Int.random(in: 0..<b.count, using: &generator))
            case 1: b.insert(word().unicodeScalars.first ?? "x", at: Int.random(in: 0...b.count, using: &generator))
            case 2 where !b.isEmpty: b[Int.random(in: 0..<b.count, using: &generator)] = word().unicodeScalars.first ?? "x"
            default: b = Array(word().unicodeScalars)
            }
            let other = String(String.UnicodeScalarView(b))
            let near = plain(a, other)
            #expect(EditDistance.withinOne(a, other) == near, "\(a.unicodeScalars.map(\.value)) \(b.map(\.value))")
            // The letters' masks never rule out words one slip apart.
            if near || EditDistance.isTransposition(a, other) {
                #expect(!EditDistance.maskRulesOut(EditDistance.letterMask(a), EditDistance.letterMask(other)))
            }
        }
    }

    @Test func nearWordsAreTheirPlainDefinition() {
        var generator = Generator(state: 41)
        // Letters that make ends open (an accent at either end, CR LF) as well as plain ones.
        let letters = ["a", "b", "o", "s", "t", "e", "é", "ö", "\u{301}", "\r\n", "n", "r"]
        func word() -> String {
            (0..<Int.random(in: 2...8, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
        }
        var seen = (near: 0, none: 0)
        for _ in 0..<30 {
            var automaton = Automaton()
            let start = automaton.newState()
            let end = automaton.newState()
            var vocabulary = Set<String>()
            for _ in 0..<Int.random(in: 1...150, using: &generator) { vocabulary.insert(word()) }
            for known in vocabulary.sorted() { automaton.connect(start, .word(known), end) }
            automaton.close(start: start, accepting: [end])
            let words = automaton.words
            for _ in 0..<200 {
                // Often a word of the automaton with one edit, so that near words come up.
                var scalars = Array((Bool.random(using: &generator) ? words.randomElement(using: &generator)! : word()).unicodeScalars)
                switch Int.random(in: 0...3, using: &generator) {
                case 0 where scalars.count > 1: scalars.remove(at: Int.random(in: 0..<scalars.count, using: &generator))
                case 1: scalars.insert(word().unicodeScalars.first!, at: Int.random(in: 0...scalars.count, using: &generator))
                case 2 where scalars.count > 1: scalars.swapAt(0, 1)
                default: scalars[Int.random(in: 0..<scalars.count, using: &generator)] = word().unicodeScalars.first!
                }
                let unit = String(String.UnicodeScalarView(scalars))
                let length = unit.count
                guard length >= 4 else { continue }
                var near: [Int32] = []
                automaton.nearWords(unit, length: length, mask: EditDistance.letterMask(unit), into: &near)
                // Plainly: every word of four characters or more one slip from the unit (a swap for
                // a word of four), by id.
                let plain = words.indices.filter { id in
                    let known = words[id]
                    return known.count >= 4 && abs(known.count - length) <= 1 && EditDistance.withinOne(unit, known)
                        && (known.count >= 5 || EditDistance.isTransposition(unit, known))
                }.map(Int32.init)
                #expect(near == plain, "\(unit.unicodeScalars.map(\.value))")
                if near.isEmpty { seen.none += 1 } else { seen.near += 1 }
            }
        }
        #expect(seen.near > 300 && seen.none > 300, "\(seen)")
    }

    /// The words a unit is one slip from are kept per thread and automaton (`IDsMemo`): two
    /// automatons asked about the same word each get their own words, the first time and the
    /// next, and a word one slip from none of them gets none.
    @Test func nearWordsAreRememberedPerAutomaton() {
        func automaton(_ words: [String]) -> (SharedAutomaton, Int) {
            var automaton = Automaton()
            let start = automaton.newState()
            let end = automaton.newState()
            for word in words { automaton.connect(start, .word(word), end) }
            automaton.close(start: start, accepting: [end])
            return (SharedAutomaton(automaton), start)
        }
        func read(_ said: String, by shared: SharedAutomaton, from start: Int) -> [String] {
            let token = Token(text: said, normalized: said, key: said, kind: .word, span: Span(0, said.count))
            let oracle = SlotOracle(
                units: [MatchUnit(key: said, token: token, commaBefore: false)], entities: [:], vocabularies: [:],
                binding: SlotBinding(), app: nil)
            return AutomatonMatcher(automaton: shared, oracle: oracle).run(start: start, from: 0, to: 1).map { _, path in
                "\(path.score) \(path.literals)"
            }
        }
        let (messages, messagesStart) = automaton(["message"])
        let (massages, massagesStart) = automaton(["massages"])
        for _ in 0..<3 {
            // "mesage" is one slip from "message" only; "massage" from both.
            #expect(read("mesage", by: messages, from: messagesStart) == ["\(MatchScores.fuzzyLiteral) 1"])
            #expect(read("mesage", by: massages, from: massagesStart).isEmpty)
            #expect(read("massage", by: messages, from: messagesStart) == ["\(MatchScores.fuzzyLiteral) 1"])
            #expect(read("massage", by: massages, from: massagesStart) == ["\(MatchScores.fuzzyLiteral) 1"])
            #expect(read("melody", by: messages, from: messagesStart).isEmpty)
        }
        #expect(messages.serial != massages.serial)
    }

    /// An automaton of two to `most` states, each edge one of `edges`, an epsilon or an accept
    /// edge, closed from its first state with about a quarter of its states accepting.
    static func randomAutomaton(_ generator: inout Generator, states most: Int, edges: [Automaton.Edge]) -> (Automaton, [Int]) {
        var automaton = Automaton()
        let states = (0..<Int.random(in: 2...most, using: &generator)).map { _ in automaton.newState() }
        for _ in 0..<Int.random(in: 1...(3 * states.count), using: &generator) {
            let from = states.randomElement(using: &generator)!
            let to = states.randomElement(using: &generator)!
            let pick = Int.random(in: 0..<(edges.count + 2), using: &generator)
            let edge: Automaton.Edge =
                pick == 0 ? .epsilon : pick == 1 ? .accept(Int.random(in: 0...3, using: &generator)) : edges[pick - 2]
            automaton.connect(from, edge, to)
        }
        let accepting = Set(states.filter { _ in Int.random(in: 0...3, using: &generator) == 0 })
        automaton.close(start: states[0], accepting: accepting)
        return (automaton, states)
    }

    @Test func needsAreTheFewestUnitsToAnEnd() {
        var generator = Generator(state: 57)
        var seen = Set<Int>()
        let free = Automaton.Slot(parameter: "x", kind: .free(maxLength: 3, list: false, vocabulary: nil, perToken: -0.1, names: false))
        let app = Automaton.Slot(parameter: "app", kind: .app)
        for _ in 0..<40 {
            let (automaton, states) = Self.randomAutomaton(
                &generator, states: 40, edges: [.filler("please"), .slot(free), .slot(app), .word("a"), .word("b"), .word("c")])
            // Plainly: the least fixed point of "nothing left to read where an end is, else one
            // unit (none for the app's slot) more than the step's target", over every step.
            var plain = [Int](repeating: 255, count: states.count)
            var changed = true
            while changed {
                changed = false
                for state in states.indices {
                    var best = automaton.endSteps[state].isEmpty ? 255 : 0
                    for step in automaton.wordSteps[state] { best = min(best, plain[step.state] + 1) }
                    for step in automaton.fillerSteps[state] { best = min(best, plain[step.state] + 1) }
                    for step in automaton.slotSteps[state] {
                        best = min(best, plain[step.state] + (automaton.slots[Int(step.key)].parameter == "app" ? 0 : 1))
                    }
                    best = min(best, 255)
                    if best < plain[state] {
                        plain[state] = best
                        changed = true
                    }
                }
            }
            #expect(automaton.needs.map(Int.init) == plain)
            seen.formUnion(plain)
            // An image of the automaton keeps them.
            let read = try? ImageCache.decode(Automaton.self, from: Data(ImageCache.encode(automaton)))
            #expect(read?.needs == automaton.needs)
        }
        // Ends, states one and two units away, and states that reach no end were all met.
        #expect([0, 1, 2, 255].allSatisfy(seen.contains), "\(seen.sorted())")
    }

    /// A state's words ahead are, plainly, the least fixed point of "every bit where an end
    /// is, else the bits of its word and filler steps' words and the words ahead of its slots'
    /// targets"; an image keeps them.
    @Test func wordsAheadAreWhatTheStatesMayReadNext() {
        var generator = Generator(state: 91)
        let free = Automaton.Slot(parameter: "x", kind: .free(maxLength: 3, list: false, vocabulary: nil, perToken: -0.1, names: false))
        let words = ["send", "message", "to", "a", "call", "text", "b"]
        var seen = (all: 0, some: 0, none: 0)
        for _ in 0..<40 {
            let (automaton, states) = Self.randomAutomaton(
                &generator, states: 40, edges: [.filler("please"), .slot(free), .slot(free)] + words.map { .word($0) })
            var plain = [Automaton.AheadBits](repeating: .none, count: states.count)
            var changed = true
            while changed {
                changed = false
                for state in states.indices {
                    var bits: Automaton.AheadBits = automaton.endSteps[state].isEmpty ? .none : .all
                    for step in automaton.wordSteps[state] { bits |= Automaton.aheadBit(step.key) }
                    for step in automaton.fillerSteps[state] { bits |= Automaton.aheadBit(step.key) }
                    for step in automaton.slotSteps[state] { bits |= plain[step.state] }
                    if bits != plain[state] {
                        plain[state] = bits
                        changed = true
                    }
                }
            }
            #expect(automaton.aheadMasks == plain)
            for bits in plain {
                if bits == Automaton.acceptsWithoutWord { seen.all += 1 } else if bits == .none { seen.none += 1 } else { seen.some += 1 }
            }
            let read = try? ImageCache.decode(Automaton.self, from: Data(ImageCache.encode(automaton)))
            #expect(read?.aheadMasks == automaton.aheadMasks)
        }
        // States that may end without a word, states with words ahead, and states with none.
        #expect(seen.all > 50 && seen.some > 50 && seen.none > 50, "\(seen)")
    }

    /// A word's bit in the sketch of words ahead is one of 128, every one of them used (the ids
    /// of a grammar's words fall on both halves), and a state's facts are one record with no
    /// padding: an image holds the record's bytes as they are, so every one of them is a field
    /// written.
    @Test func wordsAheadSketchHas128BitsAndTheRecordNoPadding() {
        var low: UInt64 = 0
        var high: UInt64 = 0
        for id in Int32(0)..<4_000 {
            let bit = Automaton.aheadBit(id)
            #expect(bit.low.nonzeroBitCount + bit.high.nonzeroBitCount == 1)
            low |= bit.low
            high |= bit.high
        }
        #expect(low == ~0 && high == ~0)
        #expect(MemoryLayout<Automaton.StateFacts>.size == 24)
        #expect(MemoryLayout<Automaton.StateFacts>.stride == MemoryLayout<Automaton.StateFacts>.size)
        let a = Automaton.AheadBits(low: 1 << 3, high: 0)
        let b = Automaton.AheadBits(low: 0, high: 1 << 3)
        #expect(!a.meets(b) && (a | b).meets(b) && (a | b).meets(a))
        let facts = Automaton.StateFacts(wordMask: 5, ahead: b, needs: 1, reads: Automaton.Reads.words)
        #expect(facts.mayRead(b) && !facts.mayRead(a) && !facts.mayRead(.none))
        let ends = Automaton.StateFacts(wordMask: 0, ahead: Automaton.acceptsWithoutWord, needs: 0, reads: 0)
        #expect(ends.mayRead(.none))
    }

    /// Slots of the same kind that capture alike are twins (the first of them named), enum
    /// slots and slots alone in their kind none.
    @Test func twinSlotsAreThoseOfTheSameKind() {
        var automaton = Automaton()
        let kinds: [(String, Automaton.Slot.Kind)] = [
            ("recipients", .free(maxLength: 8, list: true, vocabulary: "contacts", perToken: -0.4, names: true)),
            ("content", .free(maxLength: 80, list: false, vocabulary: nil, perToken: -0.02, names: false)),
            ("contacts", .free(maxLength: 8, list: true, vocabulary: "contacts", perToken: -0.4, names: true)),
            ("_", .free(maxLength: 8, list: true, vocabulary: "contacts", perToken: -0.4, names: true)),
            ("amount", .entity(["currencyAmount"])), ("price", .entity(["currencyAmount"])), ("when", .entity(["date"])),
            ("billType", .enumeration), ("callType", .enumeration),
            ("note", .free(maxLength: 80, list: false, vocabulary: nil, perToken: -0.02, names: false))
        ]
        var state = automaton.newState()
        let start = state
        for (parameter, kind) in kinds {
            let next = automaton.newState()
            automaton.connect(state, .slot(Automaton.Slot(parameter: parameter, kind: kind)), next)
            state = next
        }
        automaton.close(start: start, accepting: [state])
        let names = automaton.slots.map(\.parameter)
        let twins = automaton.slotTwins.map { $0 < 0 ? nil : names[Int($0)] }
        #expect(
            twins == [
                "recipients", "content", "recipients", nil, "amount", "amount", nil, nil, nil, "content"
            ], "\(zip(names, twins).map { "\($0) \($1 ?? "-")" })")
    }

    /// A state's word mask has the bit of every word its word and filler steps read (a clear
    /// bit rules a word out), and its slip steps are its word steps of four letters or more,
    /// sorted by word with each word's steps in their order; an image keeps both.
    @Test func wordMasksAndSlipStepsHoldWhatTheStatesRead() {
        var generator = Generator(state: 83)
        let words = ["send", "message", "to", "a", "call", "please", "now", "text", "b"]
        var seen = (bits: 0, slips: 0)
        for _ in 0..<40 {
            let (automaton, states) = Self.randomAutomaton(
                &generator, states: 40, edges: [.filler("please"), .filler("now")] + words.map { .word($0) })
            let read = try? ImageCache.decode(Automaton.self, from: Data(ImageCache.encode(automaton)))
            #expect(read?.wordMasks == automaton.wordMasks)
            for state in states.indices {
                var bits: UInt32 = 0
                for step in automaton.wordSteps[state] { bits |= Automaton.wordBit(step.key) }
                for step in automaton.fillerSteps[state] { bits |= Automaton.wordBit(step.key) }
                #expect(automaton.wordMasks[state] == bits)
                seen.bits += bits.nonzeroBitCount
                let long = automaton.wordSteps[state].filter { automaton.words[Int($0.key)].count >= 4 }
                let slips = Array(automaton.slipSteps[state])
                #expect(slips.map(\.key) == long.map(\.key).sorted())
                for key in Set(long.map(\.key)) {
                    #expect(slips.filter { $0.key == key }.map(\.state) == long.filter { $0.key == key }.map(\.state))
                    #expect(slips.filter { $0.key == key }.map(\.template) == long.filter { $0.key == key }.map(\.template))
                }
                #expect((read.map { Array($0.slipSteps[state]) } ?? []).map(\.state) == slips.map(\.state))
                seen.slips += slips.count
            }
        }
        #expect(seen.bits > 300 && seen.slips > 300, "\(seen)")
    }

    /// Matches dropped because they cannot end in the units left (`needs`), cannot read the
    /// next unit (`reads`, `wordMasks`) or can read none of the words said after them
    /// (`aheadMasks`, slips included), slots not worked out because their steps lead only to
    /// such matches, and a slot's matches copied from its twin's (`slotTwins`): the same
    /// results as keeping them all and working out every slot.
    @Test func droppingMatchesThatCannotEndOrReadChangesNoResult() {
        var generator = Generator(state: 71)
        let vocabulary = ["send", "message", "to", "please", "now", "call"]
        var compared = (results: 0, runs: 0)
        let free = Automaton.Slot(
            parameter: "content", kind: .free(maxLength: 4, list: false, vocabulary: nil, perToken: -0.1, names: false))
        // A twin of it: another parameter, the same values.
        let twin = Automaton.Slot(parameter: "note", kind: free.kind)
        // And an app's slot, over a mention of one unit or an empty one (a value of no unit).
        let app = Automaton.Slot(parameter: "app", kind: .app)
        for _ in 0..<60 {
            let (automaton, states) = Self.randomAutomaton(
                &generator, states: 30,
                edges: [.filler("please"), .filler("now"), .slot(free), .slot(twin), .slot(app)] + vocabulary.map { .word($0) })
            for _ in 0..<20 {
                // Words of the grammar, one slip off one ("mesage"), and words it has not.
                let said = vocabulary + ["mesage", "sned", "hello", "x", "Bobo"]
                let words = (0..<Int.random(in: 1...7, using: &generator)).map { _ in said.randomElement(using: &generator)! }
                var offset = 0
                let units = words.map { word -> MatchUnit in
                    defer { offset += word.count + 1 }
                    let key = word.lowercased()
                    let token = Token(text: word, normalized: key, key: key, kind: .word, span: Span(offset, offset + word.count))
                    return MatchUnit(key: key, token: token, commaBefore: false)
                }
                let at = Int.random(in: 0..<units.count, using: &generator)
                let mention = [nil, at..<at, at..<(at + 1)].randomElement(using: &generator)!
                let oracle = SlotOracle(
                    units: units, entities: [:], vocabularies: [:], binding: SlotBinding(), app: mention)
                for bend in [false, true] {
                    func results(_ prunes: Bool) -> [String] {
                        AutomatonMatcher(automaton: SharedAutomaton(automaton), oracle: oracle, bend: bend, prunes: prunes)
                            .run(start: states[0], from: 0, to: units.count)
                            .map { state, path in
                                "\(state) \(path.score) \(path.literals) \(path.skips) \(path.templateIndex ?? -1) "
                                    + path.captures.map { "\($0.parameter)@\($0.range)" }.joined(separator: ",")
                            }
                            .sorted()
                    }
                    let pruned = results(true)
                    #expect(pruned == results(false), "\(words) bend \(bend)")
                    compared.results += pruned.count
                    compared.runs += 1
                }
            }
        }
        #expect(compared.results > 300, "\(compared)")
    }

    /// `count` phrases made by `phrase`, and the set of them.
    static func phraseSet(of count: Int, _ phrase: () -> [String]) -> ([[String]], PhraseSet) {
        let phrases = (0..<count).map { _ in phrase() }
        var set = PhraseSet()
        for phrase in phrases { set.insert(phrase) }
        return (phrases, set)
    }

    @Test func nearPhrasesAreTheirPlainDefinition() {
        var generator = Generator(state: 33)
        let letters = ["a", "b", "o", "ö", "s", "ß", "e", "é", "\u{301}", "n", "\r\n", "👍"]
        func word() -> String {
            (0..<Int.random(in: 1...6, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
        }
        // What `nearlyContains` says, written plainly: run together, or the same number of words
        // with the same first character and one word of four characters or more one slip off.
        func plain(_ phrases: [[String]], _ said: [String]) -> Bool {
            let longest = phrases.map(\.count).max() ?? 0
            guard said.count <= longest + 3 else { return false }
            let run = said.joined()
            if run.count >= 6, phrases.contains(where: { $0.joined() == run }) { return true }
            return phrases.contains { phrase in
                guard phrase.count == said.count, phrase.first?.first == said.first?.first else { return false }
                let differ = phrase.indices.filter { phrase[$0] != said[$0] }
                guard differ.count == 1, let n = differ.first else { return false }
                return said[n].count >= 4 && EditDistance.withinOne(said[n], phrase[n])
            }
        }
        var seen = (near: 0, not: 0)
        for _ in 0..<200 {
            let (phrases, set) = Self.phraseSet(of: Int.random(in: 1...30, using: &generator)) {
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }
            }
            for _ in 0..<40 {
                // Often a phrase of the set with one word changed a little, so that both answers come up.
                var said = phrases.randomElement(using: &generator)!
                let k = Int.random(in: 0..<said.count, using: &generator)
                var scalars = Array(said[k].unicodeScalars)
                switch Int.random(in: 0...3, using: &generator) {
                case 0 where scalars.count > 1: scalars.remove(at: Int.random(in: 0..<scalars.count, using: &generator))
                case 1: scalars.insert(word().unicodeScalars.first!, at: Int.random(in: 0...scalars.count, using: &generator))
                case 2: scalars[Int.random(in: 0..<scalars.count, using: &generator)] = word().unicodeScalars.first!
                default: said = (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }
                }
                if said.indices.contains(k), scalars.count > 0 { said[k] = String(String.UnicodeScalarView(scalars)) }
                let sawIt = set.nearlyContains(said[...])
                #expect(sawIt == plain(phrases, said), "\(said) in \(phrases)")
                if sawIt { seen.near += 1 } else { seen.not += 1 }
            }
            // Of keys in one normalization form (as `TextNormalizer.key` makes them), the set's
            // words are those of its phrases.
            var normalized = PhraseSet()
            let nfc = phrases.map { $0.map(\.precomposedStringWithCanonicalMapping) }
            for phrase in nfc { normalized.insert(phrase) }
            for key in nfc.joined() + (0..<20).map({ _ in word().precomposedStringWithCanonicalMapping }) {
                #expect(normalized.hasWord(key) == nfc.contains { $0.contains(key) }, "\(key)")
            }
        }
        // Both answers came up often.
        #expect(seen.near > 500 && seen.not > 500, "\(seen)")
    }

    /// A matcher's question about a run of units (`SlotSources.isNearPhrase`, which rules out
    /// a run with two words the vocabulary lacks before it scans the phrases) has the answer of
    /// `PhraseSet.nearlyContains` about the run.
    @Test func nearPhrasesOfUnitsAreThoseOfTheSet() {
        var generator = Generator(state: 35)
        let letters = ["a", "b", "o", "s", "e", "n", "r", "é"]
        func word() -> String {
            (0..<Int.random(in: 1...6, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
        }
        let slot = Automaton.Slot(parameter: "p", kind: .free(maxLength: 4, list: false, vocabulary: "names", perToken: nil, names: true))
        var seen = (near: 0, not: 0)
        for _ in 0..<300 {
            let (phrases, set) = Self.phraseSet(of: Int.random(in: 1...20, using: &generator)) {
                (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }
            }
            // Units: words of the phrases, some a little changed, and other words.
            let keys = (0..<Int.random(in: 1...8, using: &generator)).map { _ -> String in
                var key = phrases.randomElement(using: &generator)!.randomElement(using: &generator)!
                switch Int.random(in: 0...3, using: &generator) {
                case 0: key += letters.randomElement(using: &generator)!
                case 1 where key.count > 1: key.removeLast()
                case 2: key = word()
                default: break
                }
                return key
            }
            let units = keys.enumerated().map { n, key in
                MatchUnit(
                    key: key, token: Token(text: key, normalized: key, key: key, kind: .word, span: Span(n, n + 1)), commaBefore: false)
            }
            let oracle = SlotOracle(
                units: units, entities: [:], vocabularies: ["names": set], binding: SlotBinding([slot], enumerations: [:]), app: nil)
            var sources = SlotSources()
            let v = sources.vocabulary(0, oracle, units: keys.count)
            #expect(v == 0)
            for start in keys.indices {
                for end in (start + 1)...keys.count {
                    let near = sources.isNearPhrase(v, keys, start..<end)
                    #expect(near == set.nearlyContains(keys[start..<end]), "\(keys[start..<end]) in \(phrases)")
                    if near { seen.near += 1 } else { seen.not += 1 }
                }
            }
        }
        #expect(seen.near > 100 && seen.not > 1_000, "\(seen)")
    }

    /// A run of words that `AppNameKeys.mayBeNear(run:)` rules out (not joined) is one `near`
    /// finds no app for once joined; runs with a byte outside ASCII or a line break are left
    /// to `near`.
    /// The apps `near` finds are those of its plain definition: a name of eight characters or
    /// more one slip from the word, or, for one word, a name and one to three more characters.
    @Test func nearAppsAreTheirPlainDefinition() {
        var generator = Generator(state: 61)
        let keys = IntentParser.AppNameKeys(ParserContext.demo.apps)
        let names = keys.keys.flatMap { $0 }
        let letters = ["a", "c", "e", "k", "m", "n", "o", "h", "t", "y", "ü", "é", "e\u{301}"]
        var seen = (near: 0, none: 0)
        for _ in 0..<3_000 {
            var said = Array(names.randomElement(using: &generator)!)
            let letter = Character(letters.randomElement(using: &generator)!)
            switch Int.random(in: 0...4, using: &generator) {
            case 0: said.remove(at: Int.random(in: 0..<said.count, using: &generator))
            case 1: said.insert(letter, at: Int.random(in: 0...said.count, using: &generator))
            case 2: said[Int.random(in: 0..<said.count, using: &generator)] = letter
            case 3: said += (0..<Int.random(in: 1...4, using: &generator)).map { _ in Character(letters.randomElement(using: &generator)!) }
            default:
                said = (0..<Int.random(in: 5...12, using: &generator)).map { _ in Character(letters.randomElement(using: &generator)!) }
            }
            let word = String(said)
            for single in [false, true] {
                var plain: [Int] = []
                for (app, appNames) in keys.keys.enumerated()
                where appNames.contains(where: { name in
                    let n = name.count
                    return (n >= IntentParser.AppNameKeys.shortestSlipped && abs(n - word.count) <= 1 && EditDistance.withinOne(word, name))
                        || (single && n >= IntentParser.AppNameKeys.shortestInflected && word.count > n && word.count <= n + 3
                            && word.hasPrefix(name))
                }) {
                    plain.append(app)
                }
                let found = keys.near(word, count: word.count, single: single)
                #expect(found == plain, "\(word) single \(single)")
                if found.isEmpty { seen.none += 1 } else { seen.near += 1 }
            }
        }
        #expect(seen.near > 500 && seen.none > 500, "\(seen)")
    }

    @Test func aRunRuledOutUnjoinedHasNoNearApp() {
        var generator = Generator(state: 47)
        let keys = IntentParser.AppNameKeys(ParserContext.demo.apps)
        let names = keys.keys.flatMap { $0 }.filter { $0.count >= IntentParser.AppNameKeys.shortestSlipped }
        let letters = ["a", "c", "e", "k", "m", "n", "o", "h", "t", "y", "ü", "\r\n"]
        var seen = (ruledOut: 0, near: 0, left: 0)
        for _ in 0..<5_000 {
            // A name cut in two or three, often with one letter changed, or words of letters.
            var said: [Unicode.Scalar] = Array(names.randomElement(using: &generator)!.unicodeScalars)
            let letter: Unicode.Scalar = letters.randomElement(using: &generator)!.unicodeScalars.first!
            switch Int.random(in: 0...3, using: &generator) {
            case 0: said.remove(at: Int.random(in: 0..<said.count, using: &generator))
            case 1: said.insert(letter, at: Int.random(in: 0...said.count, using: &generator))
            case 2:
                let count = Int.random(in: 5...12, using: &generator)
                var word = ""
                for _ in 0..<count { word += letters.randomElement(using: &generator)! }
                said = Array(word.unicodeScalars)
            default: break
            }
            let cut = Int.random(in: 1..<max(2, said.count), using: &generator)
            var parts = [
                String(String.UnicodeScalarView(said[..<min(cut, said.count)])),
                String(String.UnicodeScalarView(said[min(cut, said.count)...]))
            ]
            if Bool.random(using: &generator), parts[1].count > 2 {
                let tail = parts[1]
                let k = tail.index(tail.startIndex, offsetBy: Int.random(in: 1..<tail.count, using: &generator))
                parts = [parts[0], String(tail[..<k]), String(tail[k...])]
            }
            let joined = parts.joined()
            let found = keys.near(joined, count: joined.count, single: false)
            switch keys.mayBeNear(run: parts[...]) {
            case .some(false):
                #expect(found.isEmpty, "\(parts) ruled out, near \(found)")
                seen.ruledOut += 1
            case .some(true): if !found.isEmpty { seen.near += 1 }
            case .none: seen.left += 1
            }
        }
        // Every answer came up.
        #expect(seen.ruledOut > 200 && seen.near > 200 && seen.left > 200, "\(seen)")
    }

    /// Pieces ICU leaves unclassified are classified as Unicode's properties say, ASCII ones
    /// by a table: the same answer for every piece of generated ASCII and other scalars.
    @Test func unclassifiedPiecesAreClassifiedByTheirProperties() {
        func plain(_ piece: String) -> TokenKind? {
            for scalar in piece.unicodeScalars {
                let properties = scalar.properties
                if properties.isWhitespace || properties.generalCategory == .format || properties.generalCategory == .control { continue }
                switch properties.generalCategory {
                case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
                    .otherPunctuation:
                    return .punctuation
                default: return .symbol
                }
            }
            return nil
        }
        var generator = Generator(state: 61)
        let others: [Unicode.Scalar] = ["\u{00A0}", "\u{200B}", "\u{2014}", "€", "«", "\u{3000}", "\u{0085}", "¿"]
        let scalars = (0..<128).map { Unicode.Scalar(UInt8($0)) } + others
        for scalar in scalars { #expect(Tokenizer.classify(String(scalar)) == plain(String(scalar)), "\(scalar.value)") }
        for _ in 0..<2_000 {
            let piece = String(
                String.UnicodeScalarView(
                    (0..<Int.random(in: 1...4, using: &generator)).map { _ in scalars.randomElement(using: &generator)! }))
            #expect(Tokenizer.classify(piece) == plain(piece), "\(piece.unicodeScalars.map(\.value))")
        }
    }

    @Test func statesSortAsSortedDoes() {
        var generator = Generator(state: 21)
        for round in 0..<3_000 {
            let count = round < 100 ? round : Int.random(in: 0...400, using: &generator)
            // Distinct states (as the matcher's are), some runs of them already in order, some
            // reversed, and small and large values.
            var values = Array(Set((0..<count).map { _ in Int.random(in: 0...(round % 2 == 0 ? 50 : 1 << 40), using: &generator) }))
            if round % 5 == 1 { values.sort() }
            if round % 5 == 2 { values.sort(by: >) }
            var sorted = values
            sorted.sortAscending()
            #expect(sorted == values.sorted(), "\(values)")
        }
    }

    @Test func spacedWordsAreTheWordsBetweenWhiteSpace() {
        var generator = Generator(state: 16)
        for _ in 0..<5_000 {
            let text = Self.text(&generator, pieces: Int.random(in: 0...12, using: &generator))
            #expect(
                IntentParser.spacedWords(text) == text.split(whereSeparator: \.isWhitespace).count, "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test func aJoinedRunHasTheSketchOfItsJoin() {
        var generator = Generator(state: 17)
        var bits = Bits256()
        var inserted: [String] = []
        for _ in 0..<2_000 {
            let words = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                Self.text(&generator, pieces: Int.random(in: 0...3, using: &generator))
            }
            #expect(Bits256.sketch(joining: words[...]) == Bits256.sketch(words.joined()))
            let word = words.joined()
            bits.insert(Bits256.sketch(word))
            inserted.append(word)
        }
        // What was put in is there; a set with nothing in it rules everything out.
        #expect(inserted.allSatisfy { bits.contains(Bits256.sketch($0)) })
        #expect(!inserted.contains { Bits256().contains(Bits256.sketch($0)) })
    }

    /// A run's print (`WordPrints`) is its join's, whatever the words (empty ones, line breaks,
    /// marks, bytes of any length): a set of keys never rules out one of its keys, however it
    /// is split into words; and a set with nothing in it rules everything out.
    @Test func aRunsPrintIsThatOfItsJoin() {
        var generator = Generator(state: 19)
        var prints = WordPrints()
        var keys: [String] = []
        var splits: [[String]] = []
        for _ in 0..<2_000 {
            let words = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                Self.text(&generator, pieces: Int.random(in: 0...3, using: &generator))
            }
            let key = words.joined()
            #expect(WordPrints.print(joining: words[...]) == WordPrints.print(joining: [key][...]))
            #expect(WordPrints.print(key) == WordPrints.print(joining: [key][...]))
            #expect((0..<4_096).contains(WordPrints.print(joining: words[...])))
            prints.insert(key)
            keys.append(key)
            splits.append(words)
        }
        #expect(splits.allSatisfy { prints.contains(joining: $0[...]) })
        // A set made from the words at once is the set they were inserted into one by one.
        let made = WordPrints(keys)
        for _ in 0..<2_000 {
            let other = Self.text(&generator, pieces: Int.random(in: 0...3, using: &generator))
            #expect(made.contains(other) == prints.contains(other), "\(other)")
        }
        #expect(!keys.contains { WordPrints().contains(joining: [$0][...]) })
        // Prints of different runs differ most often (a print that let every run through would
        // pass the first test and rule nothing out).
        #expect(Set(keys.map { WordPrints.print(joining: [$0][...]) }).count > 500)
    }

    /// An ends sketch rules out a word exactly when every word of the list of its length or
    /// one either side is ruled out by their ends (`EditDistance.endsRuleOut`): never a word
    /// one slip from a word of the list, and more than a sketch by hashed bits would.
    @Test func anEndsSketchRulesOutWhatTheEndsRuleOut() {
        var generator = Generator(state: 29)
        let letters = ["a", "b", "c", "d", "é", "\r\n", "\r", "\n", "x"]
        func word() -> String {
            (0..<Int.random(in: 0...9, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
        }
        var seen = (near: 0, not: 0)
        for _ in 0..<200 {
            let list = (0..<Int.random(in: 0...12, using: &generator)).map { _ in word() }
            var sketch = EndsSketch()
            for word in list { sketch.insert(length: word.count, ends: EditDistance.ends(word)) }
            for _ in 0..<40 {
                let said = word()
                let ends = EditDistance.ends(said)
                let plain =
                    EditDistance.endsOpen(ends)
                    || list.contains { abs($0.count - said.count) <= 1 && !EditDistance.endsRuleOut(ends, EditDistance.ends($0)) }
                #expect(sketch.mayBeNear(length: said.count, ends: ends) == plain, "\(said) against \(list)")
                if plain { seen.near += 1 } else { seen.not += 1 }
                for word in list where EditDistance.withinOne(said, word) {
                    #expect(sketch.mayBeNear(length: said.count, ends: ends), "\(said) is one slip from \(word)")
                }
            }
        }
        #expect(seen.near > 500 && seen.not > 500, "\(seen)")
        // Past the tables' lengths, nothing is ruled out.
        var long = EndsSketch()
        long.insert(length: 3, ends: (UInt8(ascii: "a"), UInt8(ascii: "b")))
        #expect(long.mayBeNear(length: EndsSketch.longest, ends: (UInt8(ascii: "x"), UInt8(ascii: "y"))))
        #expect(!long.mayBeNear(length: 3, ends: (UInt8(ascii: "x"), UInt8(ascii: "y"))))
    }

    /// The classifier's features as first defined: each word, its trigrams cut by characters,
    /// the bigrams with the edges, sorted and unique (the kinds' prefixes order them).
    static func plainFeatures(_ words: [String]) -> [String] {
        var features: Set<String> = []
        for word in words {
            features.insert("w:" + word)
            let characters = Array("<" + word + ">")
            for k in stride(from: 0, through: characters.count - 3, by: 1) { features.insert("c:" + String(characters[k..<(k + 3)])) }
        }
        let bounded = ["^"] + words + ["$"]
        for k in 0..<(bounded.count - 1) { features.insert("b:" + bounded[k] + " " + bounded[k + 1]) }
        return features.sorted()
    }

    /// Up to six generated words, as keys the text layer makes (normalized: "e\u{301}" is "é"),
    /// and their units.
    static func featureWords(_ generator: inout Generator) -> (words: [String], units: [MatchUnit]) {
        let letters = ["a", "b", "n", "o", "ü", "é", "e\u{301}", "ß", "1", "'", "q"]
        // Now and then an empty word (a unit whose key normalization emptied: the fuzzer found one).
        let words = (0..<Int.random(in: 0...6, using: &generator)).map { _ in
            Int.random(in: 0...9, using: &generator) == 0
                ? ""
                : TextNormalizer.key(
                    (0..<Int.random(in: 1...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined())
        }
        var offset = 0
        let units = words.map { word -> MatchUnit in
            let length = word.unicodeScalars.count
            defer { offset += length + 1 }
            let token = Token(text: word, normalized: word, key: word, kind: .word, span: Span(offset, offset + length))
            return MatchUnit(key: word, token: token, commaBefore: false)
        }
        return (words, units)
    }

    @Test func classifierFeaturesAreTheirPlainDefinition() {
        var generator = Generator(state: 18)
        for _ in 0..<1_000 {
            let (words, units) = Self.featureWords(&generator)
            #expect(FallbackFeatures.extract(units: units, entities: [], mentions: []) == Self.plainFeatures(words), "\(words)")
        }
    }

    /// The rows found without strings (`FallbackFeatures.rows`) are the rows of the features
    /// `extract` makes, in their order, when the table's rows ascend by their names' bytes;
    /// `ascendsByBytes` tells such tables apart.
    @Test func featureRowsAreTheRowsOfTheFeatures() {
        var generator = Generator(state: 52)
        let stemmer = Stemmer.shared("de")
        var looked = 0
        for iteration in 0..<300 {
            let (words, units) = Self.featureWords(&generator)
            let features = FallbackFeatures.extract(units: units, entities: [], mentions: [], stemmer: stemmer)
            // A table of about half of these features and some others, in the names' order.
            let names = Set(features.filter { _ in Bool.random(using: &generator) } + ["w:x", "c:<ab", "b:^ $"]).sorted()
            let table = FeatureTable(names)
            #expect(table.ascendsByBytes())
            // (Each table its own model number for the thread's memo of words' rows; a real
            // model's serial is positive. Asked twice: the second time from the memo.)
            let model = -1 - iteration
            let rows = FallbackFeatures.rows(units: units, entities: [], mentions: [], stemmer: stemmer, table: table, model: model)
            #expect(rows == features.compactMap { table[$0] }, "\(words)")
            let again = FallbackFeatures.rows(units: units, entities: [], mentions: [], stemmer: stemmer, table: table, model: model)
            #expect(again == rows, "\(words)")
            looked += rows.count
            // Out of order, or a name twice: not ascending.
            if names.count > 1 {
                #expect(!FeatureTable(names.reversed()).ascendsByBytes())
                #expect(!FeatureTable(names + [names[0]]).ascendsByBytes())
            }
        }
        #expect(looked > 1_000)
    }

    @Test func aFeatureTableFromBytesHasTheRowsOfOneFromNames() {
        let names = ["w:call", "c:<ca", "", "w:über", "b:^ call", "w:call", "s:ruf", "c:ße>"]
        let fromNames = FeatureTable(names)
        var bytes: [UInt8] = []
        var ends: [Int32] = []
        for name in names {
            bytes += Array(name.utf8)
            ends.append(Int32(bytes.count))
        }
        let fromBytes = FeatureTable(bytes: bytes, ends: ends)
        #expect(fromBytes.count == names.count)
        for name in names + ["w:cal", "c:ße", "x"] {
            #expect(fromBytes[name] == fromNames[name], "\(name)")
        }
        // A name given twice keeps its first row, also among many names whose probe sequences
        // cross (each of 3,000 names given three times, the copies far apart).
        #expect(fromBytes["w:call"] == 0)
        #expect(fromBytes["x"] == nil)
        let many = (0..<3_000).map { "w:\($0)" }
        let repeated = FeatureTable(many + many.reversed() + many)
        for (row, name) in many.enumerated() { #expect(repeated[name] == Int32(row)) }
    }

    /// A slot table holds what a dictionary by (position, slot) holds for one run, whatever
    /// the runs before (their sizes and slot counts) left in it.
    @Test func aSlotTableHoldsWhatADictionaryHoldsForOneRun() {
        var generator = Generator(state: 23)
        var table = SlotTable()
        for _ in 0..<60 {
            let positions = Int.random(in: 1...40, using: &generator)
            let slots = Int.random(in: 1...30, using: &generator)
            table.reset(positions: positions, slots: slots)
            var expected: [[Int]: Int32] = [:]
            for _ in 0..<Int.random(in: 0...200, using: &generator) {
                let key = [Int.random(in: 0..<positions, using: &generator), Int.random(in: 0..<slots, using: &generator)]
                let value = Int32.random(in: 0..<1_000, using: &generator)
                table.set(value, position: key[0], slot: key[1])
                expected[key] = value
            }
            for position in 0..<positions {
                for slot in 0..<slots { #expect(table.value(position: position, slot: slot) == expected[[position, slot]]) }
            }
        }
    }

    /// Unavailable apps are found by their keys as Swift compares strings (canonically), with
    /// keys of any script among them: a name with an accent, said composed or not; an ASCII name
    /// beside it; and a key that is not ASCII but equals an ASCII word (U+037E is ";").
    @Test func unavailableAppsAreFoundWhateverTheScriptsOfTheKeys() throws {
        func units(_ words: [String]) -> [MatchUnit] {
            var offset = 0
            return words.map { word in
                defer { offset += word.utf8.count + 1 }
                let key = TextNormalizer.key(word)
                let token = Token(text: word, normalized: key, key: key, kind: .word, span: Span(offset, offset + word.utf8.count))
                return MatchUnit(key: key, token: token, commaBefore: false)
            }
        }
        let context = try ParserContext.decode(Data(#"{"apps": []}"#.utf8), file: "none.json")
        func found(_ words: [String], _ names: [String]) -> String? {
            let finder = UnavailableAppFinder(
                context: context, directory: ServiceDirectory(services: names.map { ServiceDirectory.Service(name: $0) }))
            return finder.find(in: units(words), avoiding: [], articles: [], extent: { $0 })?.name
        }
        let names = ["Bizúm", "Uber", "Zap\u{37E}Go"]
        for directory in [names, Array(names.prefix(2)), ["Uber"]] {
            #expect(found(["pay", "with", "Bizúm"], directory) == (directory.contains("Bizúm") ? "Bizúm" : nil))
            #expect(found(["pay", "with", "Bizu\u{301}m"], directory) == (directory.contains("Bizúm") ? "Bizúm" : nil))
            #expect(found(["ride", "über", "Uber"], directory) == "Uber")
            #expect(found(["über", "alles"], directory) == nil)
            #expect(found(["open", "zap;go"], directory) == (directory.count == 3 ? "Zap\u{37E}Go" : nil))
        }
    }

    /// A name made a verb is found by comparing bytes when the word and the name are ASCII, as
    /// by comparing characters: for ASCII words with no line break (the one ASCII character of
    /// two bytes, CR LF, is no letter, and a verb is letters), a word's bytes start with a
    /// name's exactly when the word starts with the name; names with other letters are still
    /// compared by characters.
    @Test func aNameMadeAVerbIsFoundByItsBytesAsByItsCharacters() throws {
        var generator = Generator(state: 41)
        let letters = ["a", "b", "p", "y", "l", "\r\n", "\r", "é", "e\u{301}"]
        for _ in 0..<3_000 {
            let word = (0..<Int.random(in: 0...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
            let prefix = Bool.random(using: &generator) ? String(word.prefix(Int.random(in: 0...4, using: &generator))) : "pay"
            if word.bytesAllSatisfy({ $0 < 0x80 && $0 != 0x0D }), prefix.bytesAllSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
                #expect(UnavailableAppFinder.bytes(of: word, startWith: prefix) == word.hasPrefix(prefix), "\(word) \(prefix)")
            }
            #expect(UnavailableAppFinder.bytes(of: word, startWith: "") && !UnavailableAppFinder.bytes(of: "", startWith: "a"))
        }
        func units(_ words: [String]) -> [MatchUnit] {
            words.enumerated().map { n, word in
                let key = TextNormalizer.key(word)
                let token = Token(text: word, normalized: key, key: key, kind: .word, span: Span(n * 20, n * 20 + word.utf8.count))
                return MatchUnit(key: key, token: token, commaBefore: false)
            }
        }
        let context = try ParserContext.decode(Data(#"{"apps": []}"#.utf8), file: "none.json")
        let finder = UnavailableAppFinder(
            context: context,
            directory: ServiceDirectory(services: ["PayPal", "Bizúm", "Signal"].map { ServiceDirectory.Service(name: $0) }))
        func found(_ words: [String]) -> String? { finder.find(in: units(words), avoiding: [], articles: [], extent: { $0 })?.name }
        #expect(found(["paypalst", "Rob"]) == "PayPal")
        #expect(found(["bizúmea", "a", "Rob"]) == "Bizúm")
        #expect(found(["bizu\u{301}mea", "a", "Rob"]) == "Bizúm")
        #expect(found(["paypalistisch", "Rob"]) == nil)
        #expect(found(["pay", "Rob"]) == nil)
    }

    /// An enum lexicon's matches are their plain definition: the phrases said exactly from the
    /// unit; else the first long one-word phrase one slip off; else each phrase of several words
    /// with the unit's first character and one word (of four characters or more) one slip off.
    @Test func enumMatchesAreTheirPlainDefinition() {
        var generator = Generator(state: 89)
        let letters = ["a", "b", "o", "ö", "s", "e", "é", "n", "t"]
        func word() -> String {
            (0..<Int.random(in: 1...7, using: &generator)).map { _ in letters.randomElement(using: &generator)! }.joined()
        }
        var seen = (exact: 0, long: 0, several: 0, none: 0)
        for _ in 0..<150 {
            var lexicon = PhraseLexicon()
            var phrases: [(keys: [String], value: String)] = []
            for n in 0..<Int.random(in: 1...25, using: &generator) {
                let keys = (0..<Int.random(in: 1...3, using: &generator)).map { _ in word() }
                lexicon.insert(keys, value: "v\(n)")
                if !phrases.contains(where: { $0.keys == keys }) { phrases.append((keys, "v\(n)")) }
            }
            let longest = phrases.map(\.keys.count).max() ?? 0
            for _ in 0..<30 {
                // A phrase with words around it, often with one word a little changed.
                var said =
                    (0..<Int.random(in: 0...1, using: &generator)).map { _ in word() } + phrases.randomElement(using: &generator)!.keys
                if Bool.random(using: &generator) {
                    let k = Int.random(in: 0..<said.count, using: &generator)
                    var scalars = Array(said[k].unicodeScalars)
                    if scalars.count > 1, Bool.random(using: &generator) {
                        scalars.remove(at: Int.random(in: 0..<scalars.count, using: &generator))
                    } else {
                        scalars.insert(word().unicodeScalars.first!, at: Int.random(in: 0...scalars.count, using: &generator))
                    }
                    said[k] = String(String.UnicodeScalarView(scalars))
                }
                said += (0..<Int.random(in: 0...1, using: &generator)).map { _ in word() }
                let lengths = said.map(\.count)
                for start in said.indices {
                    var plain: [(Int, String, Bool)] = []
                    for length in 1...max(1, longest) where start + length <= said.count {
                        if let entry = phrases.first(where: { $0.keys == Array(said[start..<(start + length)]) }) {
                            plain.append((start + length, entry.value, true))
                        }
                    }
                    if plain.isEmpty, lengths[start] >= 5,
                        let near = phrases.first(where: {
                            $0.keys.count == 1 && $0.keys[0].count >= 5 && abs($0.keys[0].count - lengths[start]) <= 1
                                && EditDistance.withinOne(said[start], $0.keys[0])
                        })
                    {
                        plain.append((start + 1, near.value, false))
                    }
                    if plain.isEmpty {
                        for phrase in phrases
                        where phrase.keys.count > 1 && phrase.keys[0].first == said[start].first && start + phrase.keys.count <= said.count
                        {
                            let differ = phrase.keys.indices.filter { said[start + $0] != phrase.keys[$0] }
                            guard differ.count == 1, let n = differ.first else { continue }
                            if phrase.keys[n].count >= 4, abs(lengths[start + n] - phrase.keys[n].count) <= 1,
                                EditDistance.withinOne(said[start + n], phrase.keys[n])
                            {
                                plain.append((start + phrase.keys.count, phrase.value, false))
                            }
                        }
                    }
                    let found = lexicon.matches(said, lengths: lengths, from: start)
                    #expect(found.map { "\($0.0) \($0.1) \($0.2)" } == plain.map { "\($0.0) \($0.1) \($0.2)" }, "\(said) from \(start)")
                    if found.isEmpty {
                        seen.none += 1
                    } else if found[0].2 {
                        seen.exact += 1
                    } else if found[0].0 == start + 1 {
                        seen.long += 1
                    } else {
                        seen.several += 1
                    }
                }
            }
        }
        #expect(seen.exact > 200 && seen.long > 50 && seen.several > 50 && seen.none > 200, "\(seen)")
    }

    /// A phrase set is a value: a copy keeps its phrases when the set it was copied from grows.
    @Test func aCopyOfAPhraseSetKeepsItsPhrases() {
        var grown = PhraseSet()
        grown.insert(["tomato", "soup"])
        let copy = grown
        grown.insert(["bean", "stew", "pot"])
        #expect(grown.contains(["bean", "stew", "pot"][...]) && grown.longest == 3 && grown.hasWord("bean"))
        #expect(!copy.contains(["bean", "stew", "pot"][...]) && copy.longest == 2 && !copy.hasWord("bean"))
        #expect(copy.contains(["tomato", "soup"][...]) && copy.nearlyContains(["tomato", "soups"][...]))
        #expect(!copy.nearlyContains(["bean", "stews", "pot"][...]) && grown.nearlyContains(["bean", "stews", "pot"][...]))
    }

    @Test func anIndexTableHoldsWhatADictionaryHolds() {
        var generator = Generator(state: 19)
        var table = IndexTable(capacity: 4)
        var previous: [Int: Int32] = [:]
        for round in 0..<50 {
            table.removeAll()
            var expected: [Int: Int32] = [:]
            for _ in 0..<Int.random(in: 0...300, using: &generator) {
                let key = Int.random(in: 0..<(round.isMultiple(of: 2) ? 64 : 1 << 40), using: &generator)
                let value = Int32.random(in: 0..<1_000, using: &generator)
                let slot = table.slot(of: key)
                if table.value(at: slot) == nil { table.insert(key, value, at: slot) } else { table.set(value, at: slot) }
                expected[key] = value
            }
            for (key, value) in expected { #expect(table.value(at: table.slot(of: key)) == value) }
            // The keys of the round before are gone.
            for key in previous.keys where expected[key] == nil { #expect(table.value(at: table.slot(of: key)) == nil) }
            previous = expected
        }
    }
}
