import Foundation
import ParlanceContext
import ParlanceText

/// Sample values per kind of parameter for one language (`Grammar/Languages/<code>/gazetteer.json`):
/// people, places, message texts, payment notes, amounts, numbers, times, past dates, workout
/// goals and activities, albums, photo tags, ride options, groups, tasks and list names, bill
/// payees, account nicknames, restaurants and special requests, as a speaker says them.
struct Gazetteer: Sendable, Decodable {
    let values: [String: [String]]

    init(from decoder: any Decoder) throws {
        values = try [String: [String]](from: decoder)
    }

    /// Every language's file has these lists, none empty.
    static let kinds = [
        "person", "place", "content", "note", "amount", "number", "datetime", "daterange", "goal", "workout", "album", "tag", "rideOption",
        "group", "task", "listName", "payee", "account", "restaurant", "request"
    ]

    static func load(language: String) throws -> Gazetteer {
        guard let url = LanguageGrammar.directory?.appendingPathComponent(language).appendingPathComponent("gazetteer.json") else {
            throw GrammarError.file("\(language)/gazetteer.json", "no grammar folder")
        }
        let gazetteer: Gazetteer
        do { gazetteer = try JSONGuard.decode(Gazetteer.self, from: Data(contentsOf: url)) } catch {
            throw GrammarError.file("\(language)/gazetteer.json", "cannot be read: \(error)")
        }
        for kind in kinds where (gazetteer.values[kind] ?? []).isEmpty {
            throw GrammarError.file("\(language)/gazetteer.json", "the list \"\(kind)\" is missing or empty")
        }
        return gazetteer
    }

    /// The list a parameter's values come from: by name where the name says more than the type.
    static func kind(of p: ParameterSpec) -> String? {
        switch p.name {
        case "note": return "note"
        case "workoutName": return "workout"
        case "albumName": return "album"
        case "searchTerms": return "tag"
        case "rideOptionName": return "rideOption"
        case "groupName": return "group"
        case "taskTitles", "tasks", "targetTask": return "task"
        case "title", "targetTaskList", "taskList", "targetNote": return "listName"
        case "billPayee", "organizationName": return "payee"
        case "fromAccount", "toAccount": return "account"
        case "restaurant": return "restaurant"
        case "guestProvidedSpecialRequestText": return "request"
        case "transactionNote": return "note"
        default: break
        }
        switch p.type {
        case .person: return "person"
        case .place, .spatialTrigger: return "place"
        case .temporalTrigger: return "datetime"
        case .text: return "content"
        case .string: return "tag"
        case .currencyAmount: return "amount"
        case .number, .integer: return "number"
        case .date, .dateTime: return "datetime"
        case .dateRange: return "daterange"
        default: return nil
        }
    }
}

/// One sentence generated from a template, with the surface value of every parameter the
/// trained tier's tagger places.
public struct GeneratedUtterance: Sendable {
    /// `gen:<language>:<intent>:<attempt>`, unique in one run.
    public let id: String
    /// The locale tag of the language ("en").
    public let locale: String
    /// The generated sentence, the app's name included when one was used.
    public let text: String
    /// The catalogue intent of the template ("sendMessage").
    public let intent: String
    /// The intent's domain ("messaging").
    public let domain: String
    /// Surface values by parameter (names, places, texts: what the tagger learns to place).
    public let parameters: [String: [String]]
}

extension IntentParser {
    /// Utterances generated from a language's templates, `perIntent` per intent,
    /// slots filled from the language's gazetteer, its enum lexicon and the context's app names
    /// (deterministic for a seed). `parlance generate` prints them; `parlance train --generate`
    /// learns from them.
    public func generate(language: String, perIntent: Int, seed: UInt64 = 2026) throws -> [GeneratedUtterance] {
        let grammar = try grammar(for: language)
        let gazetteer = try Gazetteer.load(language: language)
        let generator = TemplateGenerator(rules: grammar.rules)
        var rng = SplitMix64(seed: seed)
        let locale = try ParlanceLocale(language).identifier
        var result: [GeneratedUtterance] = []
        for spec in catalogue.intents {
            let templates = grammar.templates.filter { $0.intent == .catalogue(spec.name) }
            guard !templates.isEmpty else { continue }
            let apps = context.apps(handling: spec.name).flatMap(\.allNames)
            var made = 0
            for attempt in 0..<(perIntent * 3) where made < perIntent {
                let template = templates[Int(rng.next() % UInt64(templates.count))]
                var said: [String: [String]] = [:]
                var usedApp = false
                let fill = { (slot: String, rng: inout SplitMix64) -> String? in
                    if slot == "_" { return "" }
                    if slot == "app" {
                        usedApp = true
                        return apps.isEmpty ? nil : apps[Int(rng.next() % UInt64(apps.count))]
                    }
                    if slot == "goal" { return Self.pick(gazetteer.values["goal"], &rng) }
                    guard let p = spec.parameter(slot) else { return nil }
                    if p.type == .enum || p.type == .boolean {
                        let phrases = grammar.enumerations[p.name]?.entries.keys.map { $0.joined(separator: " ") }.sorted() ?? []
                        return Self.pick(phrases, &rng)
                    }
                    guard let kind = Gazetteer.kind(of: p), let value = Self.pick(gazetteer.values[kind], &rng) else { return nil }
                    if IntentParser.isTagged(p) { said[p.name, default: []].append(value) }
                    return value
                }
                guard var text = generator.sentence(template.pattern, rng: &rng, fill: fill) else { continue }
                // Templates without the app: named before or after, or not at all.
                if template.verbified, !usedApp {
                    guard let app = Self.pick(apps, &rng) else { continue }
                    text = app + " " + text
                } else if !usedApp, !apps.isEmpty, rng.next() % 3 == 0 {
                    text = Self.pick(apps, &rng)! + ", " + text
                }
                result.append(
                    GeneratedUtterance(
                        id: "gen:\(language):\(spec.name):\(attempt)", locale: locale, text: text, intent: spec.name, domain: spec.domain,
                        parameters: said))
                made += 1
            }
        }
        return result
    }

    static func pick(_ list: [String]?, _ rng: inout SplitMix64) -> String? {
        guard let list, !list.isEmpty else { return nil }
        return list[Int(rng.next() % UInt64(list.count))]
    }
}
