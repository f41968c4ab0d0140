import Foundation
import Testing

@testable import ParlanceContext
@testable import ParlanceParser
@testable import ParlanceText

/// `Cases/<language>/parse.jsonl`: utterances with the intent, app and every parameter
/// they must give, against the context named in the case (default: the built-in demo).
@Suite struct ParseCaseTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = directory.deletingLastPathComponent().deletingLastPathComponent()

    static var languages: [String] { IntentParser.supportedLanguages }

    static func parser(_ contextFile: String?) throws -> IntentParser {
        guard let contextFile else { return try IntentParser(context: .demo) }
        return try IntentParser(context: ParserContext.load(contentsOf: repository.appendingPathComponent(contextFile)))
    }

    @Test(arguments: languages)
    func parseCases(language: String) throws {
        let url = Self.directory.appendingPathComponent("Cases/\(language)/parse.jsonl")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        #expect(lines.count >= 3, "Cases/\(language)/parse.jsonl needs cases")
        var parsers: [String: IntentParser] = [:]
        for (n, line) in lines.enumerated() {
            let c = try JSONDecoder().decode(Case.self, from: Data(line.utf8))
            let key = c.context ?? "demo"
            let parser = try parsers[key] ?? Self.parser(c.context)
            parsers[key] = parser
            let result = try parser.parse(
                c.text, locale: ParlanceLocale(c.locale ?? language),
                referenceTime: ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00"))
            let at = "\(language)/parse.jsonl:\(n + 1) \(c.text)"
            guard let intent = c.intent else {
                #expect(result.intent == nil, "\(at): expected no intent, got \(result.intent?.name ?? "")")
                if let reason = c.reason { #expect(result.reason?.contains(reason) == true, "\(at): reason \(result.reason ?? "none")") }
                continue
            }
            #expect(result.intent?.name == intent, "\(at): intent \(result.intent?.name ?? "none"), reason \(result.reason ?? "")")
            #expect(result.intent?.app == c.app, "\(at): app \(result.intent?.app ?? "none")")
            let got = (result.intent?.parameters ?? []).map { "\($0.name)=\($0.value.display)" }.sorted()
            let expected = c.parameters.flatMap { name, values in values.map { "\(name)=\($0)" } }.sorted()
            #expect(got == expected, "\(at): parameters")
        }
    }

    struct Case: Decodable {
        var text: String
        var locale: String?
        var context: String?
        var intent: String?
        var app: String?
        var reason: String?
        /// Parameter name → values as `ParameterValue.display` writes them.
        var parameters: [String: [String]]

        enum CodingKeys: String, CodingKey { case text, locale, context, intent, app, reason, parameters }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            text = try c.decode(String.self, forKey: .text)
            locale = try c.decodeIfPresent(String.self, forKey: .locale)
            context = try c.decodeIfPresent(String.self, forKey: .context)
            intent = try c.decodeIfPresent(String.self, forKey: .intent)
            app = try c.decodeIfPresent(String.self, forKey: .app)
            reason = try c.decodeIfPresent(String.self, forKey: .reason)
            parameters = try c.decodeIfPresent([String: [String]].self, forKey: .parameters) ?? [:]
        }
    }
}
