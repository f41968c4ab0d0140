import ParlanceContext

/// The template language of `Grammar/Languages/<code>/*.sentences` (documented in
/// `Grammar/README.md`): words, `(a|b)` alternatives, `[optional]` parts, `<rule>`
/// references and `{slot}` parameters.
indirect enum TemplatePattern: Sendable, Equatable {
    case word(String)
    case sequence([TemplatePattern])
    case alternatives([TemplatePattern])
    case optional(TemplatePattern)
    case rule(String)
    case slot(String)
}

struct TemplateSyntaxError: Error, Sendable, CustomStringConvertible {
    let file: String
    let line: Int
    let message: String
    var description: String { "\(file):\(line): \(message)" }
}

/// Parses one template expression.
struct TemplateExpressionParser {
    private let characters: [Character]
    private var position = 0
    private let file: String
    private let line: Int

    init(_ text: String, file: String, line: Int) {
        self.characters = Array(text)
        self.file = file
        self.line = line
    }

    static func parse(_ text: String, file: String, line: Int) throws -> TemplatePattern {
        var parser = TemplateExpressionParser(text, file: file, line: line)
        let pattern = try parser.alternatives(closing: nil)
        guard parser.position == parser.characters.count else {
            throw parser.error("unexpected '\(parser.characters[parser.position])'")
        }
        return pattern
    }

    private func error(_ message: String) -> TemplateSyntaxError {
        TemplateSyntaxError(file: file, line: line, message: "\(message) (column \(position + 1))")
    }

    private mutating func alternatives(closing: Character?) throws -> TemplatePattern {
        var options = [try sequence()]
        while position < characters.count, characters[position] == "|" {
            position += 1
            options.append(try sequence())
        }
        if let closing {
            guard position < characters.count, characters[position] == closing else { throw error("missing '\(closing)'") }
            position += 1
        }
        return options.count == 1 ? options[0] : .alternatives(options)
    }

    private mutating func sequence() throws -> TemplatePattern {
        var items: [TemplatePattern] = []
        while position < characters.count {
            let c = characters[position]
            switch c {
            case " ", "\t":
                position += 1
            case "|", ")", "]":
                return items.count == 1 ? items[0] : .sequence(items)
            case "(":
                position += 1
                items.append(try alternatives(closing: ")"))
            case "[":
                position += 1
                items.append(.optional(try alternatives(closing: "]")))
            case "<":
                items.append(.rule(try name(until: ">")))
            case "{":
                items.append(.slot(try name(until: "}")))
            case ">", "}":
                throw error("unexpected '\(c)'")
            default:
                var word = ""
                while position < characters.count, !" \t|()[]<>{}".contains(characters[position]) {
                    word.append(characters[position])
                    position += 1
                }
                items.append(.word(word))
            }
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private mutating func name(until closing: Character) throws -> String {
        position += 1
        var name = ""
        while position < characters.count, characters[position] != closing {
            name.append(characters[position])
            position += 1
        }
        guard position < characters.count else { throw error("missing '\(closing)'") }
        position += 1
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw error("bad name '\(name)'")
        }
        return name
    }
}

/// One `.sentences` file: rules, the wrappers every template gets, app-mention patterns,
/// and the templates of each intent.
/// Which intent a template reads: one of the catalogue's (by name), or one of the context's
/// custom intents (by its entry in `CustomGrammar.entries`).
enum IntentKey: Hashable, Sendable, Comparable, CustomStringConvertible {
    case catalogue(String)
    case custom(Int)

    /// The catalogue intent's name; nil for a custom intent.
    var catalogueName: String? { if case .catalogue(let name) = self { name } else { nil } }

    var description: String {
        switch self {
        case .catalogue(let name): name
        case .custom(let index): "custom intent #\(index)"
        }
    }
}

/// The rules and intents a `.sentences` file defines, as the grammar itself reads the file
/// (`SentenceFile`): for tools that compare languages' files (`parlance parity`).
public struct SentenceFileOutline: Sendable {
    /// The names of the rules the file defines.
    public let rules: Set<String>
    /// The catalogue intents the file has at least one template for.
    public let intents: Set<String>

    /// Reads `text`; throws a syntax error naming `file` and the line when the grammar could not
    /// read it either.
    public init(_ text: String, file: String) throws {
        let parsed = try SentenceFile.parse(text, file: file)
        rules = Set(parsed.rules.keys)
        intents = Set(parsed.templates.compactMap(\.intent.catalogueName))
    }
}

struct SentenceFile: Sendable {
    struct Template: Sendable {
        var intent: IntentKey
        var pattern: TemplatePattern
        /// Parameter values the template fixes: `=> callCapability=videoCall`.
        var fixed: [(String, String)]
        var verbified: Bool
        var source: String
    }

    var rules: [String: TemplatePattern] = [:]
    var templates: [Template] = []

    /// Parses a file. Syntax, line by line:
    /// - `# …` comment, blank line;
    /// - `rule NAME = EXPRESSION`;
    /// - `intent NAME` starts an intent; its templates follow, indented:
    ///   `EXPRESSION [=> param=value, …]`, or `verbified EXPRESSION` for the templates used
    ///   when the app name itself is the verb ("MonkeyChat Bobo send more bananas").
    static func parse(_ text: String, file: String) throws -> SentenceFile {
        var result = SentenceFile()
        var intent: String?
        for (n, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let lineNumber = n + 1
            var line = String(raw)
            if let hash = line.firstIndex(of: "#") { line = String(line[..<hash]) }
            let indented = line.first == " " || line.first == "\t"
            line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if !indented {
                intent = nil
                if line.hasPrefix("rule ") {
                    let body = line.dropFirst(5)
                    guard let eq = body.firstIndex(of: "=") else {
                        throw TemplateSyntaxError(file: file, line: lineNumber, message: "expected 'rule NAME = EXPRESSION'")
                    }
                    let name = body[..<eq].trimmingCharacters(in: .whitespaces)
                    guard !name.isEmpty, result.rules[name] == nil else {
                        throw TemplateSyntaxError(file: file, line: lineNumber, message: "rule '\(name)' is empty or defined twice")
                    }
                    result.rules[name] = try TemplateExpressionParser.parse(
                        body[body.index(after: eq)...].trimmingCharacters(in: .whitespaces), file: file, line: lineNumber)
                } else if line.hasPrefix("intent ") {
                    intent = line.dropFirst(7).trimmingCharacters(in: .whitespaces)
                } else {
                    throw TemplateSyntaxError(
                        file: file, line: lineNumber, message: "expected 'rule …', 'intent …', or an indented template")
                }
                continue
            }
            guard let intent else {
                throw TemplateSyntaxError(file: file, line: lineNumber, message: "template outside an 'intent' block")
            }
            var verbified = false
            if line.hasPrefix("verbified ") {
                verbified = true
                line = String(line.dropFirst(10))
            }
            var fixed: [(String, String)] = []
            if let arrow = line.range(of: "=>") {
                for assignment in line[arrow.upperBound...].split(separator: ",") {
                    let parts = assignment.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                        throw TemplateSyntaxError(file: file, line: lineNumber, message: "expected '=> parameter=value, …'")
                    }
                    fixed.append((parts[0], parts[1]))
                }
                line = String(line[..<arrow.lowerBound])
            }
            let pattern = try TemplateExpressionParser.parse(line, file: file, line: lineNumber)
            result.templates.append(
                Template(intent: .catalogue(intent), pattern: pattern, fixed: fixed, verbified: verbified, source: "\(file):\(lineNumber)"))
        }
        return result
    }
}
