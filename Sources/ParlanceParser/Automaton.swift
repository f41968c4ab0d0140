import ParlanceContext
import ParlanceText

/// Templates compiled to a nondeterministic automaton over token keys. Matching walks all
/// templates at once, keeping for each state only the best-scoring path so far, so the
/// cost is linear in the number of tokens times the number of states: no backtracking.
struct Automaton: Sendable {
    enum Edge: Sendable {
        case word(String)
        /// A word of the `suffix` rule ("please", "now"): matched, but worth less than a
        /// word of free text, so a message at the end keeps its last words.
        case filler(String)
        case slot(Slot)
        case epsilon
        /// Passing this edge records which template matched.
        case accept(Int)
    }

    /// What a `{slot}` matches.
    struct Slot: Sendable, Hashable {
        enum Kind: Sendable, Hashable {
            /// Words as said, from one token up to `maxLength`: known phrases of `vocabulary`
            /// score well; unknown words score `perToken` each (nil: unknown words never
            /// match). `names`: person names (pronouns never start one; capitals help).
            case free(maxLength: Int, list: Bool, vocabulary: String?, perToken: Double?, names: Bool)
            /// An entity of these types starting here.
            case entity(Set<String>)
            /// A phrase of the parameter's enum lexicon.
            case enumeration
            /// A duration or distance, giving goalValue and workoutGoalUnitType.
            case goal
            /// The app name of the mention being removed.
            case app
        }

        var parameter: String
        var kind: Kind
    }

    /// A slot as the matcher reads it for every match it works out: plain values, no
    /// strings (copying a `Slot` costs a retain and a release per string or set in it).
    struct SlotPlan: Sendable {
        enum Kind: UInt8 { case free, entity, enumeration, goal, app }
        let kind: Kind
        /// What capturing the slot adds to a path's score (nothing for "_", the slots that
        /// capture no parameter).
        let bonus: Double
        let maxLength: Int
        let list: Bool
        let perToken: Double?
        let names: Bool

        init(_ slot: Slot) {
            bonus = slot.parameter == "_" ? 0 : MatchScores.capture
            switch slot.kind {
            case .free(let maxLength, let list, _, let perToken, let names):
                (kind, self.maxLength, self.list, self.perToken, self.names) = (.free, maxLength, list, perToken, names)
            case .entity: (kind, maxLength, list, perToken, names) = (.entity, 0, false, nil, false)
            case .enumeration: (kind, maxLength, list, perToken, names) = (.enumeration, 0, false, nil, false)
            case .goal: (kind, maxLength, list, perToken, names) = (.goal, 0, false, nil, false)
            case .app: (kind, maxLength, list, perToken, names) = (.app, 0, false, nil, false)
            }
        }
    }

    /// One step of a state's closure: what it reads (a word id, a slot id; for an end, the
    /// accepting state itself), the state it leads to, and the template whose accept edge was
    /// passed on the way (-1: none). Twelve bytes: a grammar has about a million of them.
    struct Step: Sendable {
        let key: Int32
        let target: Int32
        let template: Int32

        var state: Int { Int(target) }
        var templateIndex: Int? { template < 0 ? nil : Int(template) }
    }

    /// The steps of every state, one flat array: state `s` has `steps[starts[s]..<starts[s + 1]]`.
    /// Built by `close`, then fixed (`shrink`); read from an image, the arrays stay in the
    /// image's mapped bytes (no copy).
    struct StepTable: Sendable {
        private var building: [Step] = []
        private var startsBuilding: [Int32] = [0]
        private var stored = PlainStorage<Step>([])
        private var storedStarts = PlainStorage<Int32>([0])

        var steps: UnsafeBufferPointer<Step> { stored.buffer }
        var starts: UnsafeBufferPointer<Int32> { storedStarts.buffer }

        init() {}

        init(steps: PlainStorage<Step>, starts: PlainStorage<Int32>) {
            stored = steps
            storedStarts = starts
        }

        /// Appends the next state's steps.
        mutating func close(_ list: [Step]) {
            building.append(contentsOf: list)
            startsBuilding.append(Int32(building.count))
        }

        subscript(state: Int) -> Slice<UnsafeBufferPointer<Step>> { view[state] }

        /// No steps.
        static var none: Slice<UnsafeBufferPointer<Step>> { UnsafeBufferPointer<Step>(start: nil, count: 0)[...] }

        /// The steps of `state` that read `key`, in the order the closure met them (the
        /// state's steps are sorted by key, stably).
        func steps(of state: Int, reading key: Int32) -> Slice<UnsafeBufferPointer<Step>> { view.steps(of: state, reading: key) }

        /// The table as two raw buffers, for a matcher's hot loop (no reference counting;
        /// valid while the table lives).
        var view: StepView { StepView(steps: steps, starts: starts) }

        /// Fixes the table: the steps built move to storage of their own size.
        mutating func shrink() {
            stored = PlainStorage(building)
            storedStarts = PlainStorage(startsBuilding)
            building = []
            startsBuilding = []
        }
    }

    /// A step table's raw buffers (`StepTable.view`).
    struct StepView {
        let steps: UnsafeBufferPointer<Step>
        let starts: UnsafeBufferPointer<Int32>

        subscript(state: Int) -> Slice<UnsafeBufferPointer<Step>> { steps[Int(starts[state])..<Int(starts[state + 1])] }

        /// The steps of `state` that read `key`, in the order the closure met them (the
        /// state's steps are sorted by key, stably).
        @inline(__always) func steps(of state: Int, reading key: Int32) -> Slice<UnsafeBufferPointer<Step>> {
            var low = Int(starts[state])
            var high = Int(starts[state + 1])
            if low == high { return steps[low..<low] }
            let end = high
            while low < high {
                let middle = (low + high) / 2
                if steps[middle].key < key { low = middle + 1 } else { high = middle }
            }
            var last = low
            while last < end, steps[last].key == key { last += 1 }
            return steps[low..<last]
        }
    }

    private enum Kind: UInt8 { case word, filler, slot, epsilon, accept }
    /// An edge as stored while the automaton is built: words and slots by id.
    private struct Stored {
        var kind: Kind
        var value: Int32
        var target: Int32
    }

    /// The edges out of each state; emptied by `close`, which keeps only the closures.
    private var edges: [[Stored]] = []
    private var count = 0
    /// Word and filler keys by id, and their ids (the grammar's vocabulary).
    private(set) var words: [String] = []
    /// Each word's length in characters, by id (set by `close`): the one-slip test reads it
    /// instead of counting a string's characters.
    private(set) var wordLengths: [Int32] = []
    /// The ids while the automaton is built (`intern`); emptied by `close`.
    private var wordIDs: [String: Int32] = [:]
    /// The ids of a closed automaton: `words` as a `FeatureTable` (row = id), looked up by the
    /// words' bytes, with no `Hasher`.
    private var wordTable = FeatureTable([])
    /// The distinct slots, by id.
    private(set) var slots: [Slot] = []
    /// `slots` as the matcher reads them (made when the automaton is closed or read).
    private(set) var slotPlans: [SlotPlan] = []
    private var slotIDs: [Slot: Int32] = [:]

    /// Per state, what it reaches through epsilon and accept edges (see `close`). Only the
    /// states a match can stand in — the start and the targets of consuming edges — have
    /// steps; the others are passed through, never stood in.
    private(set) var wordSteps = StepTable()
    private(set) var fillerSteps = StepTable()
    /// Word steps of 4+ letters, for one-slip matching of unknown words: sorted by key, stably
    /// (the steps of one word in closure order), so that the matcher finds a near word's steps
    /// without reading the others.
    private(set) var slipSteps = StepTable()
    /// The words slip steps may read (four characters or more), indexed for `nearWords`: a
    /// unit's near words are found once per position, not once per state.
    private(set) var slipWords = SlipIndex()
    private(set) var slotSteps = StepTable()
    /// The accepting states reached without consuming (key: the state).
    private(set) var endSteps = StepTable()
    /// A sketch of words in 128 bits: bit `aheadBit(id)` of each word (`aheadMasks`), four
    /// times the bits of `wordMasks`' sketch. A state's words ahead are many (through its
    /// slots, the next words of every template that goes on from them): in 32 bits they shared
    /// a bit with most requests' words, and the matcher kept matches that could never end
    /// (German, instructions an utterance: 0.721 M with 32 bits, 0.697 M with 64, 0.683 M with
    /// 128; the record grows by twelve bytes a state, a German start by 1.7 M instructions).
    struct AheadBits: Equatable, Sendable {
        var low: UInt64
        var high: UInt64

        static let none = AheadBits(low: 0, high: 0)
        static let all = AheadBits(low: ~0, high: ~0)

        @inline(__always) static func | (a: AheadBits, b: AheadBits) -> AheadBits {
            AheadBits(low: a.low | b.low, high: a.high | b.high)
        }

        @inline(__always) static func |= (a: inout AheadBits, b: AheadBits) {
            a.low |= b.low
            a.high |= b.high
        }

        /// Whether the two sketches have a bit in common.
        @inline(__always) func meets(_ other: AheadBits) -> Bool { (low & other.low) | (high & other.high) != 0 }
    }

    /// What the matcher reads of a state at every step, in one record of 24 bytes, with no
    /// padding (an image holds its bytes as they are): `ahead`, `wordMask`, `needs` and `reads`
    /// below, one load where four arrays took four, each with its bounds check.
    struct StateFacts: ImagePlain, Equatable {
        var ahead: AheadBits
        var wordMask: UInt32
        var needs: UInt8
        var reads: UInt8
        /// (The record's last two bytes, written as zeros.)
        var spare: UInt16 = 0

        init(wordMask: UInt32, ahead: AheadBits, needs: UInt8, reads: UInt8) {
            self.ahead = ahead
            self.wordMask = wordMask
            self.needs = needs
            self.reads = reads
        }

        /// Whether a match standing in the state may read on, when the units after it may be
        /// read as the words of `readable` (bits `aheadBit`): one of its words ahead is among
        /// them, or it may end without reading a word.
        @inline(__always) func mayRead(_ readable: AheadBits) -> Bool {
            ahead.meets(readable) || ahead == Automaton.acceptsWithoutWord
        }
    }

    /// Every state's facts (set by `close`); read from an image, they stay in its mapped bytes.
    private(set) var facts = PlainStorage<StateFacts>([])

    /// Per state, the fewest units a match standing in it must still read to reach an
    /// accepting state (255: none reachable, or that many or more). A match with fewer units
    /// left cannot end, and the matcher drops it.
    var needs: [UInt8] { facts.buffer.map(\.needs) }
    /// Per state, what its steps read (`Reads`): the matcher drops a match that cannot read
    /// the next unit, before it is listed.
    var reads: [UInt8] { facts.buffer.map(\.reads) }

    /// Per state, a sketch of the words its word and filler steps read: bit `wordBit(id)` of
    /// each. A unit whose bit is clear is read by none of them, found without searching the
    /// state's steps (most matches the matcher tries next cannot read on).
    var wordMasks: [UInt32] { facts.buffer.map(\.wordMask) }

    /// Per state, a sketch of the words a match standing in it may read as its next word: the
    /// bits (`aheadBit`, 128 of them) of its own words and fillers and of those the states its
    /// slots lead to may read next; every bit (`Automaton.acceptsWithoutWord`) when it may reach
    /// an accepting state without reading a word. A match none of whose bits a unit after it
    /// has cannot be accepted: the matcher drops it, and does not work out the values of a slot
    /// whose steps all lead to such states.
    var aheadMasks: [AheadBits] { facts.buffer.map(\.ahead) }

    /// The `aheadMasks` of a state that may be accepted without reading another word.
    static let acceptsWithoutWord = AheadBits.all

    /// Per state, the words it may read next (`aheadMasks`): its own words (`ownWords`, from
    /// `wordSketches` by `aheadBit`), then, back along the slot steps, those of the states they
    /// lead to, until nothing changes.
    static func aheadMasks(states: Int, ownWords: [AheadBits], slots: StepView, ends: StepView) -> [AheadBits] {
        guard states > 0, ownWords.count == states, slots.starts.count == states + 1, ends.starts.count == states + 1 else {
            return [AheadBits](repeating: acceptsWithoutWord, count: states)
        }
        var masks = ownWords
        for state in 0..<states where !ends[state].isEmpty { masks[state] = acceptsWithoutWord }
        // The slot steps reversed: for each target, the states whose slots lead to it.
        let (counts, sources) = reversed(states: states, [slots]) { _, state, _ in Int32(state) }
        var pending = (0..<states).map { Int32($0) }
        while let target = pending.popLast() {
            let mask = masks[Int(target)]
            for k in Int(counts[Int(target)])..<Int(counts[Int(target) + 1]) {
                let source = Int(sources[k])
                guard masks[source] | mask != masks[source] else { continue }
                masks[source] |= mask
                pending.append(Int32(source))
            }
        }
        return masks
    }

    /// A word's bit in `aheadMasks` (its id's hash, one of 128).
    @inline(__always) static func aheadBit(_ id: Int32) -> AheadBits {
        let n = (UInt64(UInt32(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15) >> 57
        return n < 64 ? AheadBits(low: 1 << n, high: 0) : AheadBits(low: 0, high: 1 << (n - 64))
    }

    /// A word's bit in `wordMasks` (its id's hash, one of 32).
    @inline(__always) static func wordBit(_ id: Int32) -> UInt32 {
        1 << UInt32((UInt64(UInt32(bitPattern: id)) &* 0x9E37_79B9_7F4A_7C15) >> 59)
    }

    /// Per state, the sketch of the words its steps in `words` and `fillers` read: `bit` of
    /// each word, joined by `join` from `none` (`wordMasks` in 32 bits, by `wordBit`; the own
    /// words of `aheadMasks` in 128, by `aheadBit`).
    static func wordSketches<Bits>(
        states: Int, words: StepView, fillers: StepView, none: Bits, _ bit: (Int32) -> Bits, _ join: (inout Bits, Bits) -> Void
    ) -> [Bits] {
        var sketches = [Bits](repeating: none, count: states)
        for table in [words, fillers] where table.starts.count == states + 1 {
            for state in 0..<states {
                for step in table[state] { join(&sketches[state], bit(step.key)) }
            }
        }
        return sketches
    }

    /// The bits of `reads`.
    enum Reads {
        static let words: UInt8 = 1
        static let fillers: UInt8 = 2
        static let slips: UInt8 = 4
        static let slots: UInt8 = 8
    }

    /// The id of a word some edge matches; nil for a word no template has.
    func id(of key: String) -> Int32? { wordTable[key] }

    /// Computes the closures of the states a match can stand in, from `start`, keeping as
    /// ends only the `accepting` states; call once, after the last edge is added.
    mutating func close(start: Int, accepting: Set<Int>) {
        // The edges in one flat array, state `s`'s at `flat[offsets[s]..<offsets[s + 1]]`, in
        // the order they were added: the walks below read them without an array per state.
        var offsets = [Int](repeating: 0, count: count + 1)
        for state in 0..<count { offsets[state + 1] = offsets[state] + edges[state].count }
        var flat: [Stored] = []
        flat.reserveCapacity(offsets[count])
        for state in edges { flat.append(contentsOf: state) }
        edges = []
        var isAccepting = [Bool](repeating: false, count: count)
        for state in accepting where state < count { isAccepting[state] = true }
        var entered = [Bool](repeating: false, count: count)
        entered[start] = true
        for edge in flat where edge.kind == .word || edge.kind == .filler || edge.kind == .slot {
            entered[Int(edge.target)] = true
        }
        // Which states the current closure has visited: the state it was last visited for, so
        // one array serves every closure (no set per state).
        var visitedFor = [Int](repeating: -1, count: count)
        var stack: [(Int, Int32)] = []
        var words: [Step] = []
        var fillers: [Step] = []
        var slips: [Step] = []
        var slots: [Step] = []
        var ends: [Step] = []
        var order: [UInt64] = []
        // Words of 4+ letters, by id (counting a string's characters is not free).
        wordLengths = self.words.map { Int32($0.count) }
        wordIDs = [:]
        let long = wordLengths.map { $0 >= 4 }
        flat.withUnsafeBufferPointer { flat in
            for state in 0..<count {
                defer {
                    // Sorted by key, stably: the steps of one word stay in the order met.
                    wordSteps.close(Automaton.sortedByKey(words, order: &order))
                    fillerSteps.close(Automaton.sortedByKey(fillers, order: &order))
                    slipSteps.close(Automaton.sortedByKey(slips, order: &order))
                    slotSteps.close(slots)
                    endSteps.close(ends)
                    words.removeAll(keepingCapacity: true)
                    fillers.removeAll(keepingCapacity: true)
                    slips.removeAll(keepingCapacity: true)
                    slots.removeAll(keepingCapacity: true)
                    ends.removeAll(keepingCapacity: true)
                }
                guard entered[state] else { continue }
                stack.append((state, -1))
                while let (current, template) = stack.popLast() {
                    guard visitedFor[current] != state else { continue }
                    visitedFor[current] = state
                    if isAccepting[current] { ends.append(Step(key: Int32(current), target: Int32(current), template: template)) }
                    for k in offsets[current]..<offsets[current + 1] {
                        let edge = flat[k]
                        let step = Step(key: edge.value, target: edge.target, template: template)
                        switch edge.kind {
                        case .epsilon: stack.append((Int(edge.target), template))
                        case .accept: stack.append((Int(edge.target), edge.value))
                        case .word:
                            words.append(step)
                            if long[Int(edge.value)] { slips.append(step) }
                        case .filler: fillers.append(step)
                        case .slot: slots.append(step)
                        }
                    }
                }
            }
        }
        slotIDs = [:]
        for table in [\Automaton.wordSteps, \.fillerSteps, \.slipSteps, \.slotSteps, \.endSteps] { self[keyPath: table].shrink() }
        deriveLookups()
        let reads = Self.reads(
            states: count, words: wordSteps.view, fillers: fillerSteps.view, slips: slipSteps.view, slots: slotSteps.view)
        let wordMasks = Self.wordSketches(states: count, words: wordSteps.view, fillers: fillerSteps.view, none: 0, Self.wordBit) {
            $0 |= $1
        }
        let ownWords = Self.wordSketches(states: count, words: wordSteps.view, fillers: fillerSteps.view, none: .none, Self.aheadBit) {
            $0 |= $1
        }
        let aheadMasks = Self.aheadMasks(states: count, ownWords: ownWords, slots: slotSteps.view, ends: endSteps.view)
        let needs = Self.needs(
            states: count, words: wordSteps.view, fillers: fillerSteps.view, slots: slotSteps.view, ends: endSteps.view,
            slotReadsNothing: slotPlans.map { $0.kind == .app })
        facts = PlainStorage(
            (0..<count).map { StateFacts(wordMask: wordMasks[$0], ahead: aheadMasks[$0], needs: needs[$0], reads: reads[$0]) })
    }

    /// The steps of `tables` reversed, for walks back from a state to those that lead to it: the
    /// steps into state `t` are `sources[starts[t]..<starts[t + 1]]`, each made by `source`
    /// from its table's index, its state and the step (tables, then states, in order).
    static func reversed<Source>(
        states: Int, _ tables: [StepView], _ source: (Int, Int, Step) -> Source
    ) -> (starts: [Int32], sources: [Source]) {
        var starts = [Int32](repeating: 0, count: states + 1)
        for table in tables {
            for step in table.steps { starts[Int(step.target) + 1] += 1 }
        }
        for k in 0..<states { starts[k + 1] += starts[k] }
        var next = starts
        var sources: [Source?] = Array(repeating: nil, count: Int(starts[states]))
        for (n, table) in tables.enumerated() {
            for state in 0..<states {
                for step in table[state] {
                    sources[Int(next[Int(step.target)])] = source(n, state, step)
                    next[Int(step.target)] += 1
                }
            }
        }
        return (starts, sources.map { $0! })
    }

    /// Per state, the fewest units from it to an accepting state (`needs`): a breadth-first
    /// walk back from the states that accept, over the steps that read a unit (a word, a
    /// filler) and the slots (a unit, but none for an app's slot, which may be given empty).
    static func needs(
        states: Int, words: StepView, fillers: StepView, slots: StepView, ends: StepView, slotReadsNothing: [Bool]
    ) -> [UInt8] {
        // The steps reversed: for each target, its sources with what the step costs.
        let (counts, sources) = reversed(states: states, [words, fillers, slots]) { n, state, step in
            (state: Int32(state), cost: UInt8(n == 2 && slotReadsNothing[Int(step.key)] ? 0 : 1))
        }
        // Costs of 0 and 1: a walk with a double-ended queue (0 in front, 1 at the back).
        var need = [UInt8](repeating: 255, count: states)
        var front: [Int32] = []
        var back: [Int32] = []
        var head = 0
        for state in 0..<states where !ends[state].isEmpty {
            need[state] = 0
            back.append(Int32(state))
        }
        while true {
            let current: Int
            if let state = front.popLast() {
                current = Int(state)
            } else if head < back.count {
                current = Int(back[head])
                head += 1
            } else {
                break
            }
            for k in Int(counts[current])..<Int(counts[current + 1]) {
                let (source, cost) = sources[k]
                let reached = need[current] &+ cost
                guard reached < need[Int(source)], reached < 255 else { continue }
                need[Int(source)] = reached
                if cost == 0 { front.append(source) } else { back.append(source) }
            }
        }
        return need
    }

    /// Per slot with twins, the first of them (-1 for a slot without): slots of the same kind
    /// whose captures add the same to a score match the same values at any position, and only
    /// the parameter their captures fill differs ("recipients" and "contacts", both names of
    /// the contacts' vocabulary). An enum slot is its parameter's lexicon's: twin to none.
    private(set) var slotTwins: [Int32] = []

    static func twins(_ slots: [Slot]) -> [Int32] {
        struct Twin: Hashable {
            let kind: Slot.Kind
            let captures: Bool
        }
        var groups: [Twin: [Int]] = [:]
        for (id, slot) in slots.enumerated() {
            if case .enumeration = slot.kind { continue }
            groups[Twin(kind: slot.kind, captures: SlotPlan(slot).bonus != 0), default: []].append(id)
        }
        var twins = [Int32](repeating: -1, count: slots.count)
        for members in groups.values where members.count > 1 {
            for id in members { twins[id] = Int32(members[0]) }
        }
        return twins
    }

    /// What a closed automaton looks words and slots up in, derived from its words, their
    /// lengths and its slots (when it is closed, and when it is read from an image).
    private mutating func deriveLookups() {
        wordTable = FeatureTable(words)
        slotPlans = slots.map(SlotPlan.init)
        slotTwins = Self.twins(slots)
        slipWords = SlipIndex(words: words, lengths: wordLengths)
    }

    /// Per state, which of its step tables have steps (`reads`).
    static func reads(states: Int, words: StepView, fillers: StepView, slips: StepView, slots: StepView) -> [UInt8] {
        guard states > 0 else { return [] }
        var reads = [UInt8](repeating: 0, count: states)
        for (table, bit) in [(words, Reads.words), (fillers, Reads.fillers), (slips, Reads.slips), (slots, Reads.slots)] {
            let starts = table.starts
            guard starts.count == states + 1 else { continue }
            for state in 0..<states where starts[state] != starts[state + 1] { reads[state] |= bit }
        }
        return reads
    }

    /// The ids of the words a slip step may read that `unit` (of `length` characters, with
    /// `mask`, its `EditDistance.letterMask`) is one slip from: a word of four letters with
    /// two of them swapped, or of five or more with one letter put in, left out, changed or two
    /// swapped. Appended to `near`, in the order of their ids.
    func nearWords(_ unit: String, length: Int, mask: UInt64, into near: inout [Int32]) {
        let first = near.count
        let ends = EditDistance.ends(unit)
        slipWords.forEachCandidate(length: length, ends: ends) { word in
            guard !EditDistance.maskRulesOut(mask, word.mask) else { return }
            let key = words[Int(word.id)]
            if EditDistance.withinOne(unit, key), Int(wordLengths[Int(word.id)]) >= 5 || EditDistance.isTransposition(unit, key) {
                near.append(word.id)
            }
        }
        if near.count - first > 1 { near[first...].sort() }
    }

    /// `steps` sorted by key, stably (the steps of one key stay in the order met): key and
    /// position packed in one integer, so one plain sort of integers does it.
    private static func sortedByKey(_ steps: [Step], order: inout [UInt64]) -> [Step] {
        guard steps.count > 1 else { return steps }
        var sorted = true
        for n in 1..<steps.count where steps[n - 1].key > steps[n].key {
            sorted = false
            break
        }
        if sorted { return steps }
        order.removeAll(keepingCapacity: true)
        for (n, step) in steps.enumerated() { order.append(UInt64(UInt32(bitPattern: step.key)) << 32 | UInt64(n)) }
        order.sort()
        return order.map { steps[Int($0 & 0xFFFF_FFFF)] }
    }

    mutating func newState() -> Int {
        edges.append([])
        count += 1
        return count - 1
    }

    mutating func connect(_ from: Int, _ edge: Edge, _ to: Int) {
        let stored: Stored
        switch edge {
        case .word(let key): stored = Stored(kind: .word, value: intern(key), target: Int32(to))
        case .filler(let key): stored = Stored(kind: .filler, value: intern(key), target: Int32(to))
        case .slot(let slot):
            let id: Int32
            if let known = slotIDs[slot] {
                id = known
            } else {
                id = Int32(slots.count)
                slots.append(slot)
                slotIDs[slot] = id
            }
            stored = Stored(kind: .slot, value: id, target: Int32(to))
        case .epsilon: stored = Stored(kind: .epsilon, value: 0, target: Int32(to))
        case .accept(let template): stored = Stored(kind: .accept, value: Int32(template), target: Int32(to))
        }
        edges[from].append(stored)
    }

    private mutating func intern(_ key: String) -> Int32 {
        if let id = wordIDs[key] { return id }
        let id = Int32(words.count)
        words.append(key)
        wordIDs[key] = id
        return id
    }

    var stateCount: Int { count }
}

extension Automaton.Step: ImagePlain {}

extension Automaton.StepTable: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.writeAligned(steps)
        image.writeAligned(starts)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        let steps = try image.readAligned(Automaton.Step.self)
        let starts = try image.readAligned(Int32.self)
        guard let first = starts.buffer.first, first == 0, starts.buffer.last.map({ Int($0) == steps.buffer.count }) ?? false else {
            throw ImageError("a step table's offsets do not hold")
        }
        self.init(steps: steps, starts: starts)
    }
}

extension Automaton.Slot: ImageCodable {
    package func write(to image: inout ImageWriter) {
        image.write(parameter)
        switch kind {
        case .free(let maxLength, let list, let vocabulary, let perToken, let names):
            image.write(UInt8(0))
            image.write(maxLength)
            image.write(list)
            image.write(vocabulary)
            image.write(perToken)
            image.write(names)
        case .entity(let types):
            image.write(UInt8(1))
            image.write(types)
        case .enumeration: image.write(UInt8(2))
        case .goal: image.write(UInt8(3))
        case .app: image.write(UInt8(4))
        }
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        parameter = try image.read(String.self)
        switch try image.read(UInt8.self) {
        case 0:
            kind = .free(
                maxLength: try image.read(Int.self), list: try image.read(Bool.self), vocabulary: try image.read(String?.self),
                perToken: try image.read(Double?.self), names: try image.read(Bool.self))
        case 1: kind = .entity(try image.read(Set<String>.self))
        case 2: kind = .enumeration
        case 3: kind = .goal
        case 4: kind = .app
        default: throw ImageError("unknown slot kind")
        }
    }
}

extension Automaton: ImageCodable {
    /// A closed automaton: its words, slots and step tables (the edges are gone once closed).
    package func write(to image: inout ImageWriter) {
        image.write(count)
        image.write(words)
        image.writePlain(wordLengths)
        image.write(slots)
        for table in [wordSteps, fillerSteps, slipSteps, slotSteps, endSteps] { image.write(table) }
        image.writeAligned(facts.buffer)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        self.init()
        count = try image.read(Int.self)
        words = try image.read([String].self)
        wordLengths = try image.readPlain()
        slots = try image.read([Slot].self)
        wordSteps = try image.read(StepTable.self)
        fillerSteps = try image.read(StepTable.self)
        slipSteps = try image.read(StepTable.self)
        slotSteps = try image.read(StepTable.self)
        endSteps = try image.read(StepTable.self)
        facts = try image.readAligned(StateFacts.self)
        guard wordLengths.count == words.count else { throw ImageError("an automaton's words and lengths differ") }
        guard facts.buffer.count == count else { throw ImageError("an automaton's state facts do not fit its states") }
        deriveLookups()
        // The tables' shapes must fit the automaton. The steps themselves are not walked here:
        // the image's checksum, checked over every byte, is what stands for them (an image is
        // written by this same build, and one that differs by a bit is built again).
        guard [wordSteps, fillerSteps, slipSteps, slotSteps, endSteps].allSatisfy({ $0.starts.count == count + 1 }) else {
            throw ImageError("a step table's states do not fit the automaton")
        }
    }
}

/// A closed automaton behind one reference: a grammar's tables and the matchers that read them
/// share it, and copying them copies one reference, not the automaton's dozens of tables.
final class SharedAutomaton: Sendable {
    let automaton: Automaton
    /// The automaton's number in the thread's memo of slips (`IDsMemo`, `MemoOwner`).
    let serial = MemoOwner.next()
    init(_ automaton: Automaton) { self.automaton = automaton }
}

/// Compiles template patterns into an automaton, inlining rules.
struct AutomatonBuilder {
    var automaton = Automaton()
    let rules: [String: TemplatePattern]
    /// Turns a template word into the token keys it matches ("d'hier" → ["de", "hier"]).
    let keys: (String) -> [String]
    /// Resolves `{name}` for the template being compiled; nil when unknown.
    var slot: (String) -> Automaton.Slot? = { _ in nil }
    var source = ""
    /// Words added now are fillers (the `suffix` rule).
    var fillers = false

    init(rules: [String: TemplatePattern], keys: @escaping (String) -> [String]) {
        self.rules = rules
        self.keys = keys
    }

    /// Adds `pattern` between two states. Inside a rule, an alternative whose slot the
    /// template's intent does not have is left out (rules are shared between intents);
    /// in the template itself an unknown slot is an error.
    mutating func add(_ pattern: TemplatePattern, from: Int, to: Int, depth: Int = 0, inRule: Bool = false) throws {
        guard depth < 32 else {
            throw TemplateSyntaxError(file: source, line: 0, message: "rules nest too deeply (a rule refers to itself?)")
        }
        switch pattern {
        case .word(let word):
            // "@app": the app's name used as a noun ("where is my MonkeyRide").
            if word == "@app" {
                automaton.connect(from, .word(word), to)
                return
            }
            let edge: (String) -> Automaton.Edge = { [fillers] key in fillers ? .filler(key) : .word(key) }
            // "'s": a suffix the tokenizer splits off words; alone, ICU would drop its apostrophe.
            let keys = word.hasPrefix("'") && word.count > 1 ? [TextNormalizer.key(word)] : keys(word)
            guard !keys.isEmpty else {
                automaton.connect(from, .epsilon, to)
                return
            }
            // A word the tokenizer splits (Italian "dallo" → "da" + "lo") also matches whole,
            // as the elided form of the text gives it ("dall'hotel" → "dallo").
            if keys.count > 1, !word.contains(where: { $0 == " " || $0 == "-" || $0 == "'" }) {
                automaton.connect(from, edge(TextNormalizer.key(word)), to)
            }
            var current = from
            for (n, key) in keys.enumerated() {
                let next = n == keys.count - 1 ? to : automaton.newState()
                automaton.connect(current, edge(key), next)
                current = next
            }
        case .sequence(let items):
            guard !items.isEmpty else {
                automaton.connect(from, .epsilon, to)
                return
            }
            var current = from
            for (n, item) in items.enumerated() {
                let next = n == items.count - 1 ? to : automaton.newState()
                try add(item, from: current, to: next, depth: depth + 1, inRule: inRule)
                current = next
            }
        case .alternatives(let options):
            for option in options {
                let a = automaton.newState()
                automaton.connect(from, .epsilon, a)
                try add(option, from: a, to: to, depth: depth + 1, inRule: inRule)
            }
        case .optional(let inner):
            automaton.connect(from, .epsilon, to)
            try add(inner, from: from, to: to, depth: depth + 1, inRule: inRule)
        case .rule(let name):
            guard let rule = rules[name] else { throw TemplateSyntaxError(file: source, line: 0, message: "unknown rule <\(name)>") }
            try add(rule, from: from, to: to, depth: depth + 1, inRule: true)
        case .slot(let name):
            guard let slot = slot(name) else {
                if inRule { return }  // a dead branch for this intent
                throw TemplateSyntaxError(file: source, line: 0, message: "unknown slot {\(name)}")
            }
            automaton.connect(from, .slot(slot), to)
        }
    }
}

/// The words slip steps may read (four characters or more), by length in characters and, in
/// each length, by their first byte and by their last byte (`EditDistance.ends`): words one
/// slip apart share their first or their last byte, unless either word's ends are open
/// (`EditDistance.endsOpen`), so a unit is compared only with the words of the three lengths
/// it can be one slip from that share one of its ends, and with those whose ends are open.
struct SlipIndex: Sendable {
    struct Word: Sendable {
        let id: Int32
        let mask: UInt64
        let first: UInt8
        let last: UInt8
    }

    /// Per length, its words ordered by first byte (then id), and where each first byte's
    /// words start (`257` offsets per length); the same by last byte.
    private var byFirst: [Word] = []
    private var firstStarts: [Int32] = []
    private var byLast: [Word] = []
    private var lastStarts: [Int32] = []
    /// Per length, its words whose ends are open, by id.
    private var open: [[Word]] = []
    private var lengths = 0

    init() {}

    init(words: [String], lengths wordLengths: [Int32]) {
        let longest = Int(wordLengths.max() ?? 0)
        lengths = longest + 1
        open = Array(repeating: [], count: lengths)
        var all: [(length: Int, word: Word)] = []
        for (id, length) in wordLengths.enumerated() where length >= 4 {
            let ends = EditDistance.ends(words[id])
            let word = Word(id: Int32(id), mask: EditDistance.letterMask(words[id]), first: ends?.first ?? 0, last: ends?.last ?? 0)
            all.append((Int(length), word))
            if EditDistance.endsOpen(ends) { open[Int(length)].append(word) }
        }
        // A counting sort by (length, byte): `all` is in the order of the ids, so each bucket is too.
        func table(_ byte: (Word) -> UInt8) -> ([Word], [Int32]) {
            var starts = [Int32](repeating: 0, count: lengths * 257 + 1)
            for entry in all { starts[entry.length * 257 + Int(byte(entry.word)) + 1] += 1 }
            for k in 1..<starts.count { starts[k] += starts[k - 1] }
            var next = starts
            var ordered = [Word](repeating: Word(id: 0, mask: 0, first: 0, last: 0), count: all.count)
            for entry in all {
                let bucket = entry.length * 257 + Int(byte(entry.word))
                ordered[Int(next[bucket])] = entry.word
                next[bucket] += 1
            }
            return (ordered, starts)
        }
        (byFirst, firstStarts) = table(\.first)
        (byLast, lastStarts) = table(\.last)
    }

    /// Calls `body` once for each word of `length` characters or one either side that `ends`
    /// (a unit's `EditDistance.ends`) does not rule out.
    @inline(__always) func forEachCandidate(length: Int, ends: (first: UInt8, last: UInt8)?, _ body: (Word) -> Void) {
        // (No word here is shorter than four characters: a unit of two or less is near none.)
        guard length >= 3 else { return }
        for known in max(length - 1, 4)...(length + 1) where known < lengths {
            let base = known * 257
            guard let ends, !EditDistance.endsOpen(ends) else {
                // Nothing is ruled out: every word of the length.
                for k in Int(firstStarts[base])..<Int(firstStarts[base + 257]) { body(byFirst[k]) }
                continue
            }
            let f = Int(ends.first)
            let l = Int(ends.last)
            for k in Int(firstStarts[base + f])..<Int(firstStarts[base + f + 1]) { body(byFirst[k]) }
            for k in Int(lastStarts[base + l])..<Int(lastStarts[base + l + 1]) where Int(byLast[k].first) != f { body(byLast[k]) }
            for word in open[known] where Int(word.first) != f && Int(word.last) != l { body(word) }
        }
    }
}
