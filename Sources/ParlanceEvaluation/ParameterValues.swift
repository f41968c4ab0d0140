import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText

/// Parameter values as the metrics compare them (`EvaluationReport`, the one definition of
/// every accuracy figure: the tests, `parlance eval` and the CI gate all read it).
enum ParameterValues {
    /// Annotated parameter values by name, folded for comparison (a list gives each item).
    static func comparableValues(_ parameters: [String: JSONValue]) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for (name, value) in parameters {
            let items: [JSONValue] = if case .array(let list) = value { list } else { [value] }
            result[name] = items.map(comparable)
        }
        return result
    }

    /// Predicted parameter values by name, in utterance order, folded for comparison.
    static func comparableValues(_ frame: IntentFrame) -> [String: [String]] {
        var result: [String: [String]] = [:]
        for p in frame.parameters {
            let json = (try? JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(p.value))) ?? .string(p.raw)
            result[p.name, default: []].append(comparable(json))
        }
        return result
    }

    /// Case- and diacritic-folded strings; numbers without trailing zeros; objects by sorted keys.
    static func comparable(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return TextNormalizer.key(s).trimmingCharacters(in: .whitespaces)
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int64(n)) : String(n)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array(let a): return "[" + a.map(comparable).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.keys.sorted().map { "\($0):\(comparable(o[$0]!))" }.joined(separator: ",") + "}"
        }
    }
}
