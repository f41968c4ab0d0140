/// The part of ICU's transform rule syntax that sound-alike rules use, run without ICU.
///
/// ICU runs every rule-based transform behind one process-wide mutex, so keying names on
/// several threads at once waits in line; these rules are small and run here instead, on the
/// caller's thread, with ICU's meaning (checked against ICU word for word by
/// `SoundAlikeTests`). Rules outside the subset make `init` return nil and ICU runs them.
///
/// The subset: passes separated by `::Null;`; rules `before { key } after > output;` where each
/// part is literal characters, sets (`[aeiou]`, `[^aeiou]`, `[0-5]`) and a set followed by `+`;
/// `^` before the rule anchors it at the start of the text, `$` after it at the end. Within a
/// pass the cursor moves left to right; at each position the first rule that matches replaces
/// its key by its output and the cursor moves past the output (which is not read again in
/// that pass); the context before the cursor is the text as already rewritten, the context
/// after it the text still to come. With no rule matching, the cursor moves one character on.
struct TransformRules: Sendable {
    /// One position of a pattern: a character, a set of characters, or a set repeated (`+`).
    enum Element: Sendable {
        case scalar(Unicode.Scalar)
        case set(ScalarSet, negated: Bool)
        case oneOrMore(ScalarSet, negated: Bool)
    }

    /// A small set of scalars (the rules use a handful of letters and digits): ASCII as bits.
    struct ScalarSet: Sendable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var others: Set<Unicode.Scalar> = []

        init(members: Set<Unicode.Scalar>) {
            for member in members {
                switch member.value {
                case 0..<64: low |= 1 << UInt64(member.value)
                case 64..<128: high |= 1 << UInt64(member.value - 64)
                default: others.insert(member)
                }
            }
        }

        @inline(__always)
        func contains(_ scalar: Unicode.Scalar, negated: Bool) -> Bool {
            let value = scalar.value
            let member: Bool
            if value < 64 {
                member = low & (1 << UInt64(value)) != 0
            } else if value < 128 {
                member = high & (1 << UInt64(value - 64)) != 0
            } else {
                member = !others.isEmpty && others.contains(scalar)
            }
            return member != negated
        }
    }

    struct Rule: Sendable {
        /// The context before the key, in reading order (matched backwards from the cursor).
        var before: [Element]
        var atStart: Bool
        var key: [Element]
        var after: [Element]
        var atEnd: Bool
        var output: [Unicode.Scalar]
        /// `key` then `after`, read forwards.
        var forwards: [Element] { key + after }

        /// Whether the rule can start at this character.
        func canStart(with scalar: Unicode.Scalar) -> Bool {
            switch key[0] {
            case .scalar(let first): first == scalar
            case .set(let set, let negated), .oneOrMore(let set, let negated): set.contains(scalar, negated: negated)
            }
        }
    }

    /// A pass's rules with, for each ASCII character, the rules that can start there, in order.
    struct Pass: Sendable {
        var rules: [Rule]
        var forwards: [[Element]]
        var byFirst: [[Int]]
        /// Rules that can start at a character outside ASCII.
        var beyondASCII: [Int]

        init(_ rules: [Rule]) {
            self.rules = rules
            forwards = rules.map(\.forwards)
            byFirst = (0..<128).map { value in rules.indices.filter { rules[$0].canStart(with: Unicode.Scalar(UInt8(value))) } }
            beyondASCII = rules.indices.filter { index in
                switch rules[index].key[0] {
                case .scalar(let first): !first.isASCII
                case .set(let set, let negated), .oneOrMore(let set, let negated): negated || !set.others.isEmpty
                }
            }
        }
    }

    let passes: [Pass]

    /// Parses `rules`, or returns nil when they use syntax outside the subset.
    init?(_ rules: String) {
        var passes: [[Rule]] = [[]]
        for statement in rules.split(whereSeparator: { $0 == ";" || $0 == "\n" }) {
            let text = Self.trimmed(statement)
            if text.isEmpty { continue }
            if text.hasPrefix("::") {
                guard Self.trimmed(text.dropFirst(2)) == "Null" else { return nil }
                passes.append([])
                continue
            }
            guard let rule = Self.rule(text) else { return nil }
            passes[passes.count - 1].append(rule)
        }
        self.passes = passes.filter { !$0.isEmpty }.map(Pass.init)
    }

    static func trimmed(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    /// One `left > right` rule.
    static func rule(_ text: String) -> Rule? {
        let sides = text.split(separator: ">", omittingEmptySubsequences: false)
        guard sides.count == 2, !sides[0].contains("<") else { return nil }
        var output: [Unicode.Scalar] = []
        for scalar in sides[1].unicodeScalars where scalar != " " && scalar != "\t" {
            guard isLiteral(scalar) else { return nil }
            output.append(scalar)
        }
        var parts: [[Element]] = [[]]
        var braces: [Int] = []  // which part each brace closes: "{" after part 0, "}" after the key
        var atStart = false
        var atEnd = false
        var scalars = Array(sides[0].unicodeScalars)[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            switch scalar {
            case " ", "\t": continue
            case "^":
                guard parts.count == 1, parts[0].isEmpty, !atStart else { return nil }
                atStart = true
            case "$":
                guard scalars.allSatisfy({ $0 == " " || $0 == "\t" }) else { return nil }
                atEnd = true
            case "{":
                guard !braces.contains(0) else { return nil }
                braces.append(0)
                parts.append([])
            case "}":
                guard !braces.contains(1) else { return nil }
                braces.append(1)
                parts.append([])
            case "[":
                guard let close = scalars.firstIndex(of: "]") else { return nil }
                var body = Array(scalars[..<close])
                scalars = scalars[(close + 1)...]
                let negated = body.first == "^"
                if negated { body.removeFirst() }
                var members: Set<Unicode.Scalar> = []
                var i = 0
                while i < body.count {
                    guard isLiteral(body[i]) else { return nil }
                    if i + 2 < body.count, body[i + 1] == "-" {
                        guard isLiteral(body[i + 2]), body[i].value <= body[i + 2].value else { return nil }
                        for value in body[i].value...body[i + 2].value { members.insert(Unicode.Scalar(value)!) }
                        i += 3
                    } else {
                        members.insert(body[i])
                        i += 1
                    }
                }
                guard !members.isEmpty else { return nil }
                let set = ScalarSet(members: members)
                if scalars.first == "+" {
                    scalars = scalars.dropFirst()
                    parts[parts.count - 1].append(.oneOrMore(set, negated: negated))
                } else {
                    parts[parts.count - 1].append(.set(set, negated: negated))
                }
            default:
                guard isLiteral(scalar) else { return nil }
                parts[parts.count - 1].append(.scalar(scalar))
            }
        }
        // Parts: [key], [before, key], [key, after] or [before, key, after].
        var before: [Element] = []
        var key: [Element]
        var after: [Element] = []
        switch braces {
        case []: key = parts[0]
        case [0]: (before, key) = (parts[0], parts[1])
        case [1]: (key, after) = (parts[0], parts[1])
        case [0, 1]: (before, key, after) = (parts[0], parts[1], parts[2])
        default: return nil
        }
        guard !key.isEmpty else { return nil }
        // A repeated set is only read forwards, in the key or after it.
        guard !before.contains(where: { if case .oneOrMore = $0 { true } else { false } }) else { return nil }
        return Rule(before: before, atStart: atStart, key: key, after: after, atEnd: atEnd, output: output)
    }

    /// Letters and digits stand for themselves; anything else is syntax this subset does not read.
    static func isLiteral(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
    }

    /// The rules applied, pass after pass.
    func apply(_ text: String) -> String {
        var current = Array(text.unicodeScalars)
        var next: [Unicode.Scalar] = []
        next.reserveCapacity(current.count + 4)
        for pass in passes {
            next.removeAll(keepingCapacity: true)
            var cursor = 0
            scan: while cursor < current.count {
                let scalar = current[cursor]
                let candidates = scalar.isASCII ? pass.byFirst[Int(scalar.value)] : pass.beyondASCII
                for index in candidates {
                    let rule = pass.rules[index]
                    if let end = Self.match(rule, forwards: pass.forwards[index], in: current, at: cursor, rewritten: next) {
                        next.append(contentsOf: rule.output)
                        cursor = end
                        continue scan
                    }
                }
                next.append(scalar)
                cursor += 1
            }
            swap(&current, &next)
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: current)
        return String(result)
    }

    /// Where the rule's key ends when it matches at `cursor`, or nil.
    @inline(__always)
    static func match(
        _ rule: Rule, forwards: [Element], in text: [Unicode.Scalar], at cursor: Int, rewritten: [Unicode.Scalar]
    ) -> Int? {
        // The key and what follows, forwards.
        var position = cursor
        var keyEnd = cursor
        for n in forwards.indices {
            if n == rule.key.count { keyEnd = position }
            switch forwards[n] {
            case .scalar(let scalar):
                guard position < text.count, text[position] == scalar else { return nil }
                position += 1
            case .set(let set, let negated):
                guard position < text.count, set.contains(text[position], negated: negated) else { return nil }
                position += 1
            case .oneOrMore(let set, let negated):
                guard position < text.count, set.contains(text[position], negated: negated) else { return nil }
                while position < text.count, set.contains(text[position], negated: negated) { position += 1 }
            }
        }
        if rule.after.isEmpty { keyEnd = position }
        if rule.atEnd, position != text.count { return nil }
        // The context before, backwards over the text as already rewritten.
        var back = rewritten.count
        for element in rule.before.reversed() {
            guard back > 0 else { return nil }
            back -= 1
            switch element {
            case .scalar(let scalar): guard rewritten[back] == scalar else { return nil }
            case .set(let set, let negated): guard set.contains(rewritten[back], negated: negated) else { return nil }
            case .oneOrMore: return nil
            }
        }
        if rule.atStart, back != 0 { return nil }
        return keyEnd
    }
}
