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

    private(set) var edges: [[(Edge, Int)]] = []
    /// Per state, what it reaches through epsilon and accept edges (see `close()`).
    private(set) var closures: [Closure] = []
    /// Every word any edge matches: a unit with another key may be a slip of one of them.
    private(set) var vocabulary: Set<String> = []

    /// The consuming edges and accepting states reachable from a state without consuming,
    /// each with the template whose accept edge was passed on the way, if any.
    struct Closure: Sendable {
        var words: [String: [(target: Int, template: Int?)]] = [:]
        var fillers: [String: [(target: Int, template: Int?)]] = [:]
        /// Word edges of 4+ letters, for one-slip matching of unknown words.
        var slipWords: [(key: String, target: Int, template: Int?)] = []
        var slots: [(slot: Slot, target: Int, template: Int?)] = []
        var ends: [(state: Int, template: Int?)] = []
    }

    /// Computes the closures; call once, after the last edge is added.
    mutating func close() {
        vocabulary = []
        // Which states the current closure has visited: the state it was last visited for, so
        // one array serves every closure (no set per state).
        var visitedFor = [Int](repeating: -1, count: edges.count)
        var stack: [(Int, Int?)] = []
        closures = (0..<edges.count).map { state in
            var closure = Closure()
            stack.append((state, nil))
            while let (current, template) = stack.popLast() {
                guard visitedFor[current] != state else { continue }
                visitedFor[current] = state
                closure.ends.append((current, template))
                for (edge, target) in edges[current] {
                    switch edge {
                    case .epsilon: stack.append((target, template))
                    case .accept(let t): stack.append((target, t))
                    case .word(let key):
                        closure.words[key, default: []].append((target, template))
                        if key.count >= 4 { closure.slipWords.append((key, target, template)) }
                    case .filler(let key):
                        closure.fillers[key, default: []].append((target, template))
                    case .slot(let slot): closure.slots.append((slot, target, template))
                    }
                }
            }
            return closure
        }
        for state in edges {
            for (edge, _) in state {
                if case .word(let key) = edge { vocabulary.insert(key) }
                if case .filler(let key) = edge { vocabulary.insert(key) }
            }
        }
    }

    mutating func newState() -> Int {
        edges.append([])
        return edges.count - 1
    }

    mutating func connect(_ from: Int, _ edge: Edge, _ to: Int) { edges[from].append((edge, to)) }

    var stateCount: Int { edges.count }
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
        guard depth < 32 else { throw TemplateSyntaxError(file: source, line: 0, message: "rules nest too deeply (a rule refers to itself?)") }
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
