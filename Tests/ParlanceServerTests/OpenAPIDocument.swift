import Foundation

/// The server's OpenAPI document (`Sources/ParlanceServer/openapi.json`), and a check of an
/// answer against it: the route and method are documented, the status is one of the route's,
/// the content type is the one documented for that status, and a JSON body (each line of a
/// JSON Lines body) follows the schema (the subset the document uses: type, required,
/// properties, items, enum, pattern, oneOf, $ref).
struct OpenAPIDocument: @unchecked Sendable {
    let root: [String: Any]

    static func load() throws -> OpenAPIDocument {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ParlanceServer/openapi.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return OpenAPIDocument(root: object as? [String: Any] ?? [:])
    }

    func check(method: String, path: String, answer: Running.Answer) -> [String] {
        guard let paths = root["paths"] as? [String: Any], let route = paths[path] as? [String: Any] else {
            return ["the document has no path \(path)"]
        }
        guard let operation = route[method] as? [String: Any], let responses = operation["responses"] as? [String: Any] else {
            // An undocumented method answers 405 as a problem.
            return answer.status == 405 ? [] : ["the document has no \(method) for \(path)"]
        }
        guard let response = responses[String(answer.status)] as? [String: Any] else {
            return ["status \(answer.status) is not documented for \(method) \(path)"]
        }
        guard let content = response["content"] as? [String: Any] else {
            return answer.body.isEmpty ? [] : ["status \(answer.status) has no body in the document, got \(answer.body.prefix(80))"]
        }
        let type = answer.contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard
            let (_, media) = content.first(where: { key, _ in
                key.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } == type
            })
        else { return ["content type \(answer.contentType) is not documented for \(answer.status)"] }
        guard let schema = (media as? [String: Any])?["schema"] as? [String: Any] else { return [] }
        if type == "application/json" || type == "application/problem+json" {
            guard let value = try? JSONSerialization.jsonObject(with: Data(answer.body.utf8), options: [.fragmentsAllowed]) else {
                return ["the body is not JSON: \(answer.body.prefix(80))"]
            }
            return validate(value, schema, at: "$")
        }
        if type == "application/x-ndjson" {
            var problems: [String] = []
            for (n, line) in answer.body.split(separator: "\n").enumerated() {
                guard let value = try? JSONSerialization.jsonObject(with: Data(line.utf8)) else {
                    problems.append("line \(n + 1) is not JSON")
                    continue
                }
                problems += validate(value, schema, at: "line \(n + 1)")
            }
            return problems
        }
        return []
    }

    func resolve(_ schema: [String: Any]) -> [String: Any] {
        guard let ref = schema["$ref"] as? String, ref.hasPrefix("#/") else { return schema }
        var node: Any = root
        for part in ref.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] ?? [:] }
        return resolve(node as? [String: Any] ?? [:])
    }

    func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": value is NSNull
        case "object": value is [String: Any]
        case "array": value is [Any]
        case "string": value is String
        // (Responses hold no booleans; JSONSerialization gives numbers and booleans alike as NSNumber.)
        case "boolean": value is NSNumber
        case "integer": (value as? NSNumber).map { $0.doubleValue == $0.doubleValue.rounded() } ?? false
        case "number": value is NSNumber
        default: true
        }
    }

    func validate(_ value: Any, _ raw: [String: Any], at path: String) -> [String] {
        let schema = resolve(raw)
        if let options = schema["oneOf"] as? [[String: Any]] {
            let passing = options.filter { validate(value, $0, at: path).isEmpty }
            return passing.count == 1 ? [] : ["\(path): matches \(passing.count) of oneOf"]
        }
        if let type = schema["type"] {
            let types = (type as? [String]) ?? [type as? String ?? ""]
            guard types.contains(where: { matches(value, type: $0) }) else { return ["\(path): not \(types.joined(separator: "|"))"] }
        }
        var problems: [String] = []
        if let options = schema["enum"] as? [Any], let string = value as? String, !options.contains(where: { ($0 as? String) == string }) {
            problems.append("\(path): '\(string)' is not one of the enum")
        }
        if let pattern = schema["pattern"] as? String, let string = value as? String,
            string.range(of: pattern, options: .regularExpression) == nil
        {
            problems.append("\(path): '\(string)' does not match \(pattern)")
        }
        if let object = value as? [String: Any] {
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { problems.append("\(path): no \(key)") }
            for (key, sub) in schema["properties"] as? [String: Any] ?? [:] {
                if let member = object[key], let sub = sub as? [String: Any] { problems += validate(member, sub, at: "\(path).\(key)") }
            }
        }
        if let array = value as? [Any], let items = schema["items"] as? [String: Any] {
            for (n, item) in array.enumerated() { problems += validate(item, items, at: "\(path)[\(n)]") }
        }
        return problems
    }
}
