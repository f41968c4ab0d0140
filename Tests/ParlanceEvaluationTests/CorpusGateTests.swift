import Foundation
import Parlance
import ParlanceResolver
import Testing

@testable import ParlanceContext
@testable import ParlanceEvaluation
@testable import ParlanceParser

/// The team's corpora (`Corpora/intents/<locale>/`) parsed against their context, gated on
/// the thresholds recorded in `Corpora/thresholds.json`: a change that makes any locale
/// worse than its recorded floor fails here.
@Suite struct CorpusGateTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    typealias Floors = [String: EvaluationReport.Floors]
    static let settings = EvaluationReport.Settings(
        parlanceVersion: "test", icuVersion: "", date: "", context: nil, corpora: [], options: [:])

    @Test func everyLocaleMeetsItsFloor() throws {
        let corpora = Self.repository.appendingPathComponent("Corpora")
        let floors = try JSONDecoder().decode(Floors.self, from: Data(contentsOf: corpora.appendingPathComponent("thresholds.json")))
        let context = try ParserContext.load(contentsOf: corpora.appendingPathComponent("contexts/monkey.json"))
        let run = CorpusRun(parser: try IntentParser(context: context))
        let locales = try FileManager.default.contentsOfDirectory(atPath: corpora.appendingPathComponent("intents").path).filter {
            !$0.hasPrefix(".")
        }.sorted()
        #expect(Set(locales) == Set(floors.keys), "every corpus locale needs a floor in Corpora/thresholds.json")
        for locale in locales {
            var records: [AnnotatedRecord] = []
            for file in try CorpusFiles.list([corpora.appendingPathComponent("intents/\(locale)").path]) {
                records += try AnnotatedRecord.load(file)
            }
            let outcomes = run.parse(records)
            #expect(outcomes.allSatisfy { $0.error == nil }, "\(locale): parse errors")
            let floor = try #require(floors[locale])
            #expect(
                floor.intentAccuracy != nil && floor.outOfDomainRejection != nil && floor.parameterF1 != nil,
                "\(locale) needs intent, rejection and parameter F1 floors")
            // The report and the floor check of `parlance eval --thresholds` (and so of .ci/eval).
            let report = EvaluationReport(outcomes: outcomes, settings: Self.settings)
            #expect(report.locales[locale]?.inDomain ?? 0 > 0)
            #expect(report.belowFloors([locale: floor]).isEmpty, "\(report.belowFloors([locale: floor]))")
        }
    }

    /// `Corpora/resolution/<locale>/` parsed and resolved against `contexts/resolution.json`,
    /// gated on `resolutionAccuracy` in `Corpora/thresholds.json`.
    @Test func resolutionMeetsItsFloor() throws {
        let corpora = Self.repository.appendingPathComponent("Corpora")
        let floors = try JSONDecoder().decode(Floors.self, from: Data(contentsOf: corpora.appendingPathComponent("thresholds.json")))
        let context = try ParserContext.load(contentsOf: corpora.appendingPathComponent("contexts/resolution.json"))
        #expect(context.diagnostics.isEmpty, "\(context.diagnostics)")
        let run = CorpusRun(parser: try ResolvingParser(context: context))
        let locales = try FileManager.default.contentsOfDirectory(atPath: corpora.appendingPathComponent("resolution").path).filter {
            !$0.hasPrefix(".")
        }.sorted()
        #expect(locales.count >= 6)
        for locale in locales {
            var records: [AnnotatedRecord] = []
            for file in try CorpusFiles.list([corpora.appendingPathComponent("resolution/\(locale)").path]) {
                records += try AnnotatedRecord.load(file)
            }
            #expect(records.count >= 60, "\(locale): too few resolution records")
            var metrics = ResolutionMetrics()
            var wrong: [String] = []
            for outcome in run.parse(records) {
                for w in metrics.add(expected: outcome.record.expected.resolution, predicted: outcome.result?.intent) {
                    wrong.append(
                        "\(outcome.record.id) \(w.parameter): expected \(w.expected.kind), got \(w.predicted?.kind.rawValue ?? "nothing")")
                }
            }
            // Every kind is exercised.
            #expect(
                Set(metrics.byKind.keys) == Set(Resolution.Kind.allCases.map(\.rawValue)),
                "\(locale): kinds covered \(metrics.byKind.keys.sorted())")
            let floor = try #require(floors[locale]?.resolutionAccuracy, "\(locale) needs a resolutionAccuracy floor")
            #expect(
                metrics.accuracy >= floor,
                "\(locale): resolution accuracy \(String(format: "%.3f", metrics.accuracy)) < \(floor); wrong: \(wrong)")
        }
    }

    /// `Corpora/custom/<locale>/` (custom intents, shortcuts) parsed and resolved against
    /// `contexts/custom.json`, gated on `Corpora/custom/thresholds.json`.
    @Test func customIntentsMeetTheirFloor() throws {
        let corpora = Self.repository.appendingPathComponent("Corpora")
        let floors = try JSONDecoder().decode(Floors.self, from: Data(contentsOf: corpora.appendingPathComponent("custom/thresholds.json")))
        let context = try ParserContext.load(contentsOf: corpora.appendingPathComponent("contexts/custom.json"))
        let run = CorpusRun(parser: try ResolvingParser(context: context))
        let locales = try FileManager.default.contentsOfDirectory(atPath: corpora.appendingPathComponent("custom").path).filter {
            !$0.hasPrefix(".") && !$0.hasSuffix(".json")
        }.sorted()
        #expect(Set(locales) == Set(floors.keys), "every custom corpus locale needs a floor in Corpora/custom/thresholds.json")
        for locale in locales {
            let records = try CorpusFiles.list([corpora.appendingPathComponent("custom/\(locale)").path]).flatMap {
                try AnnotatedRecord.load($0)
            }
            #expect(records.count >= 50)
            let floor = try #require(floors[locale])
            #expect(floor.intentAccuracy != nil && floor.parameterF1 != nil, "\(locale) needs intent and parameter F1 floors")
            let report = EvaluationReport(outcomes: run.parse(records), settings: Self.settings)
            #expect(report.belowFloors([locale: floor]).isEmpty, "\(report.belowFloors([locale: floor]))")
        }
    }
}
