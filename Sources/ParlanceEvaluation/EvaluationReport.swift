import Foundation
import ParlanceContext
import ParlanceParser
import ParlanceText

/// The version of Parlance, as reports and `parlance --version` give it.
public let parlanceVersion = "0.1.0"

/// What `parlance eval` writes to `report.json` (and renders as `report.md` and
/// `report.html`): per locale, per domain, per intent and per parameter, with the settings
/// and corpus checksums of the run. Definitions:
/// - intent precision / recall / F1 per intent (and per domain): over every record of the
///   locale, predicted = records given that intent, expected = records annotated with it,
///   correct = both;
/// - out-of-domain rejection = out-of-domain records given no intent; false rejection =
///   in-domain records given no intent; false acceptance = out-of-domain records given one;
/// - app accuracy = in-domain records with the right intent and app; exact frame = right
///   intent, app and exactly the expected parameters;
/// - parameters, per name: expected values count on every in-domain record with annotated
///   parameters; predicted values only on records whose intent is right; a value is right
///   when its name matches and its value is equal after case and diacritic folding (typed
///   values as JSON); message-like text (parameters of type `text`: content, note) earns the
///   token overlap F1 of the two texts instead of 0 or 1;
/// - resolution: `ResolutionMetrics` (per expected kind).
public struct EvaluationReport: Sendable, Codable {
    /// How the report was made (report.json `settings`): versions, date, checksums of the inputs and
    /// the options of the run.
    public struct Settings: Sendable, Codable {
        /// The Parlance version that made the report (`parlanceVersion`).
        public var parlanceVersion: String
        /// The version of the ICU library Parlance ran with.
        public var icuVersion: String
        /// When the run finished (ISO 8601).
        public var date: String
        /// The context file and its SHA-256; nil for the built-in demo context.
        public var context: FileChecksum?
        /// The corpus files measured, sorted by path; empty for a report summed from outcomes
        /// (`eval --from-outcomes`).
        public var corpora: [FileChecksum]
        /// Other options of the run ("resolve": "true", "heldOut": "false", …).
        public var options: [String: String]

        /// Creates the settings from each of their values.
        public init(
            parlanceVersion: String, icuVersion: String, date: String, context: FileChecksum?, corpora: [FileChecksum],
            options: [String: String]
        ) {
            self.parlanceVersion = parlanceVersion
            self.icuVersion = icuVersion
            self.date = date
            self.context = context
            self.corpora = corpora
            self.options = options
        }
    }

    /// An input file of the run, with its line count and SHA-256, so that a report can be traced to
    /// its exact inputs.
    public struct FileChecksum: Sendable, Codable, Hashable {
        /// The file's path, as given.
        public var path: String
        /// The number of line feeds in the file (a last line without one is not counted).
        public var lines: Int
        /// The SHA-256 of the file's bytes, as 64 lowercase hex digits.
        public var sha256: String

        /// Reads the file at `path` and records its line count and checksum; throws the read error when
        /// the file cannot be read.
        public init(path: String) throws {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            self.path = path
            lines = data.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 }
            sha256 = SHA256.hex(data)
        }
    }

    /// Precision, recall and F1 from counts (correct may be fractional for text).
    public struct Score: Sendable, Codable, Hashable {
        /// Expected items: records annotated with the intent or domain, or annotated values of the
        /// parameter.
        public var expected = 0
        /// Predicted items: records given the intent or domain, or predicted values of the parameter.
        public var predicted = 0
        /// The credits, summed exactly (the same whatever their order: `ExactSum`).
        public var correctSum = ExactSum()
        /// The credits' sum, rounded once.
        public var correct: Double {
            get { correctSum.value }
            set { correctSum = ExactSum(newValue) }
        }
        /// `correct` / `predicted`; 0 when nothing was predicted.
        public var precision: Double { predicted == 0 ? 0 : correct / Double(predicted) }
        /// `correct` / `expected`; 0 when nothing was expected.
        public var recall: Double { expected == 0 ? 0 : correct / Double(expected) }
        /// The harmonic mean of `precision` and `recall`; 0 when both are 0.
        public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }

        /// A score with every count zero.
        public init() {}

        enum CodingKeys: String, CodingKey { case expected, predicted, correct, precision, recall, f1 }
        /// Reads `expected`, `predicted` and `correct` from report.json; the ratios are derived, so not
        /// read.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            expected = try c.decode(Int.self, forKey: .expected)
            predicted = try c.decode(Int.self, forKey: .predicted)
            correctSum = ExactSum(try c.decode(Double.self, forKey: .correct))
        }
        /// Writes the three counts and the derived `precision`, `recall` and `f1`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(expected, forKey: .expected)
            try c.encode(predicted, forKey: .predicted)
            try c.encode(correct, forKey: .correct)
            try c.encode(precision, forKey: .precision)
            try c.encode(recall, forKey: .recall)
            try c.encode(f1, forKey: .f1)
        }
    }

    /// A record the parser got wrong, for reading.
    public struct SampleError: Sendable, Codable, Hashable {
        /// The record's id.
        public var id: String
        /// The utterance.
        public var text: String
        /// The annotation in short: `domain/intent app=… name=value …` (parameters by name), or
        /// "out of domain".
        public var expected: String
        /// What the parser gave, in the same form with each resolution in brackets; "no intent" when it
        /// gave none, or "error: " and the error when the record failed.
        public var predicted: String
        /// What is wrong: "error", "intent", "accepted out of domain", "rejected", "app",
        /// "parameter <name>: missing|extra|wrong", "resolution". Nil in reports written
        /// before it existed.
        public var what: [String]?
    }

    /// One locale's figures. These are the definitions of every accuracy figure in Parlance
    /// (the tests, `parlance eval`, the CI gate and the closing notes all use them):
    /// - intent accuracy: in-domain records whose predicted intent is the expected one;
    /// - out-of-domain rejection: out-of-domain records with no predicted intent;
    /// - app accuracy: in-domain records with the right intent and the right app;
    /// - parameters: a predicted value is right when an expected one of the same parameter
    ///   has the same value after case and diacritic folding (typed values compared as
    ///   JSON), counted with multiplicity; a text parameter (a message's content) earns the
    ///   best token-overlap F1 against an expected value instead of all or nothing.
    ///   Precision, recall and F1 over the in-domain records whose intent is right; records
    ///   with a wrong intent count their expected parameters as missed; records annotated
    ///   `intent-only` count no parameter;
    /// - exact frame: right intent, right app and every parameter fully right.
    public struct LocaleReport: Sendable, Codable {
        /// Records of the locale measured, failures included.
        public var records = 0
        /// Records annotated with an intent.
        public var inDomain = 0
        /// Records annotated with no intent (`"intent": null`), which should be rejected.
        public var outOfDomain = 0
        /// Records the parser failed on (an error, not a wrong answer).
        public var failures = 0
        /// In-domain records given the expected intent.
        public var intentCorrect = 0
        /// In-domain records given the expected intent and the expected app.
        public var appCorrect = 0
        /// In-domain records whose whole frame is right: intent, app and every parameter value. Records
        /// annotated `intent-only` never count here.
        public var exactFrames = 0
        /// Out-of-domain records given no intent.
        public var rejected = 0
        /// In-domain records given no intent.
        public var falselyRejected = 0
        /// `intentCorrect` / `inDomain`; 0 when there is no in-domain record.
        public var intentAccuracy: Double { ratio(intentCorrect, inDomain) }
        /// `appCorrect` / `inDomain`; 0 when there is no in-domain record.
        public var appAccuracy: Double { ratio(appCorrect, inDomain) }
        /// `exactFrames` / `inDomain`; 0 when there is no in-domain record.
        public var exactFrameRate: Double { ratio(exactFrames, inDomain) }
        /// `rejected` / `outOfDomain`; 0 when there is no out-of-domain record.
        public var outOfDomainRejection: Double { ratio(rejected, outOfDomain) }
        /// `falselyRejected` / `inDomain`: in-domain records given no intent; 0 when there is none.
        public var falseRejectionRate: Double { ratio(falselyRejected, inDomain) }
        /// Out-of-domain records given an intent, as a share of `outOfDomain`; 0 when there is none.
        public var falseAcceptanceRate: Double { ratio(outOfDomain - rejected, outOfDomain) }
        /// All parameter names together (each name's credits rounded, then summed exactly,
        /// so the total does not depend on the order of the names).
        public var parameters: Score {
            perParameter.values.reduce(into: Score()) { sum, s in
                sum.expected += s.expected
                sum.predicted += s.predicted
                sum.correctSum.add(s.correct)
            }
        }
        /// Scores by domain name over every record: expected = records annotated with the domain, predicted
        /// = records given it, correct = both.
        public var perDomain: [String: Score] = [:]
        /// Scores by intent name over every record: expected = records annotated with the intent, predicted
        /// = records given it, correct = both.
        public var perIntent: [String: Score] = [:]
        /// Scores by parameter name, counted in values (each value of a list parameter counts); text
        /// parameters earn partial credit.
        public var perParameter: [String: Score] = [:]
        /// Resolution accuracy over the records with an `expected.resolution`; nil when no record of the
        /// locale has one.
        public var resolution: ResolutionMetrics?
        /// Expected intent ("none" out of domain) → predicted intent ("none") → records.
        public var confusion: [String: [String: Int]] = [:]
        /// The first 20 errors, in corpus order.
        public var errors: [SampleError] = []
        /// Whether `errors` was kept: false for a report summed from outcomes
        /// (`eval --from-outcomes`), which has counts only; report.json then leaves it out.
        public var samplesKept = true
        /// Every wrong record, in corpus order (`errors.jsonl`; not in report.json).
        public var allErrors: [SampleError] = []
        /// Confidence against accuracy of the records given an intent.
        public var calibration = Calibration()
        /// Records annotated with an app the user does not have (`unavailableApp`), and
        /// those rejected naming that app.
        public var unavailableAppExpected = 0
        /// Of the `unavailableAppExpected` records, those given no intent and naming that app as
        /// unavailable (compared without regard to case).
        public var unavailableAppCorrect = 0
        /// In-domain records whose intent the catalogue has (public corpora also hold intents
        /// Parlance does not parse yet), and those given it.
        public var knownInDomain = 0
        /// Of the `knownInDomain` records, those given their expected intent.
        public var knownIntentCorrect = 0
        /// `knownIntentCorrect` / `knownInDomain`: intent accuracy over the intents Parlance parses; 0 when
        /// there is no such record.
        public var knownIntentAccuracy: Double { ratio(knownIntentCorrect, knownInDomain) }

        func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }

        /// An empty report: every count zero, sample errors kept.
        public init() {}

        enum CodingKeys: String, CodingKey {
            case records, inDomain, outOfDomain, failures, intentCorrect, appCorrect, exactFrames, rejected, falselyRejected
            case intentAccuracy, appAccuracy, exactFrameRate, outOfDomainRejection, falseRejectionRate, falseAcceptanceRate
            case parameters, perDomain, perIntent, perParameter, resolution, confusion, errors
            case calibration, unavailableAppExpected, unavailableAppCorrect, knownInDomain, knownIntentCorrect, knownIntentAccuracy
        }

        /// Reads a locale as report.json holds it. Derived rates are not read; `allErrors` is not in
        /// report.json and stays empty; `samplesKept` is false when `errors` is missing. Counts that older
        /// reports lack (calibration, unavailable apps, known intents) are zero.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            records = try c.decode(Int.self, forKey: .records)
            inDomain = try c.decode(Int.self, forKey: .inDomain)
            outOfDomain = try c.decode(Int.self, forKey: .outOfDomain)
            failures = try c.decode(Int.self, forKey: .failures)
            intentCorrect = try c.decode(Int.self, forKey: .intentCorrect)
            appCorrect = try c.decode(Int.self, forKey: .appCorrect)
            exactFrames = try c.decode(Int.self, forKey: .exactFrames)
            rejected = try c.decode(Int.self, forKey: .rejected)
            falselyRejected = try c.decode(Int.self, forKey: .falselyRejected)
            perDomain = try c.decode([String: Score].self, forKey: .perDomain)
            perIntent = try c.decode([String: Score].self, forKey: .perIntent)
            perParameter = try c.decode([String: Score].self, forKey: .perParameter)
            resolution = try c.decodeIfPresent(ResolutionMetrics.self, forKey: .resolution)
            confusion = try c.decode([String: [String: Int]].self, forKey: .confusion)
            errors = try c.decodeIfPresent([SampleError].self, forKey: .errors) ?? []
            samplesKept = c.contains(.errors)
            calibration = try c.decodeIfPresent(Calibration.self, forKey: .calibration) ?? Calibration()
            unavailableAppExpected = try c.decodeIfPresent(Int.self, forKey: .unavailableAppExpected) ?? 0
            unavailableAppCorrect = try c.decodeIfPresent(Int.self, forKey: .unavailableAppCorrect) ?? 0
            knownInDomain = try c.decodeIfPresent(Int.self, forKey: .knownInDomain) ?? 0
            knownIntentCorrect = try c.decodeIfPresent(Int.self, forKey: .knownIntentCorrect) ?? 0
        }

        /// Writes the locale as report.json holds it: counts, derived rates, scores and tables. `errors` is
        /// written only when `samplesKept`, the unavailable-app counts only when `unavailableAppExpected` is
        /// not 0, and `allErrors` never.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(records, forKey: .records)
            try c.encode(inDomain, forKey: .inDomain)
            try c.encode(outOfDomain, forKey: .outOfDomain)
            try c.encode(failures, forKey: .failures)
            try c.encode(intentCorrect, forKey: .intentCorrect)
            try c.encode(appCorrect, forKey: .appCorrect)
            try c.encode(exactFrames, forKey: .exactFrames)
            try c.encode(rejected, forKey: .rejected)
            try c.encode(falselyRejected, forKey: .falselyRejected)
            try c.encode(intentAccuracy, forKey: .intentAccuracy)
            try c.encode(appAccuracy, forKey: .appAccuracy)
            try c.encode(exactFrameRate, forKey: .exactFrameRate)
            try c.encode(outOfDomainRejection, forKey: .outOfDomainRejection)
            try c.encode(falseRejectionRate, forKey: .falseRejectionRate)
            try c.encode(falseAcceptanceRate, forKey: .falseAcceptanceRate)
            try c.encode(parameters, forKey: .parameters)
            try c.encode(perDomain, forKey: .perDomain)
            try c.encode(perIntent, forKey: .perIntent)
            try c.encode(perParameter, forKey: .perParameter)
            try c.encodeIfPresent(resolution, forKey: .resolution)
            try c.encode(confusion, forKey: .confusion)
            if samplesKept { try c.encode(errors, forKey: .errors) }
            try c.encode(calibration, forKey: .calibration)
            try c.encode(knownInDomain, forKey: .knownInDomain)
            try c.encode(knownIntentCorrect, forKey: .knownIntentCorrect)
            try c.encode(knownIntentAccuracy, forKey: .knownIntentAccuracy)
            if unavailableAppExpected > 0 {
                try c.encode(unavailableAppExpected, forKey: .unavailableAppExpected)
                try c.encode(unavailableAppCorrect, forKey: .unavailableAppCorrect)
            }
        }
    }

    /// One metric's change against a baseline report.
    public struct Change: Sendable, Codable, Hashable {
        /// The metric's name, as in `flatMetrics` ("en-US intent accuracy").
        public var metric: String
        /// The metric's value in the baseline report.
        public var baseline: Double
        /// The metric's value in this report.
        public var current: Double
        /// `current` − `baseline`: positive when the value rose (a regression for an error rate).
        public var delta: Double { current - baseline }
        /// The change makes things worse (a lower score, or a higher error rate).
        public var regression: Bool

        enum CodingKeys: String, CodingKey { case metric, baseline, current, delta, regression }
        /// Creates a change from the metric's name, its two values and whether it is a regression.
        public init(metric: String, baseline: Double, current: Double, regression: Bool) {
            self.metric = metric
            self.baseline = baseline
            self.current = current
            self.regression = regression
        }
        /// Reads a change from report.json; `delta` is derived, so not read.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            metric = try c.decode(String.self, forKey: .metric)
            baseline = try c.decode(Double.self, forKey: .baseline)
            current = try c.decode(Double.self, forKey: .current)
            regression = try c.decode(Bool.self, forKey: .regression)
        }
        /// Writes the change with its derived `delta`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(metric, forKey: .metric)
            try c.encode(baseline, forKey: .baseline)
            try c.encode(current, forKey: .current)
            try c.encode(delta, forKey: .delta)
            try c.encode(regression, forKey: .regression)
        }
    }

    /// How the run was made: versions, date, checksums of the context and corpora, and options.
    public var settings: Settings
    /// By locale tag ("en-US").
    public var locales: [String: LocaleReport]
    /// Against `--baseline`: every metric that changed, regressions first (largest first).
    public var changes: [Change]?

    /// Builds the report from parsed records.
    public init(outcomes: [CorpusRun.Outcome], settings: Settings, catalogue: IntentCatalogue = .standard, defaultLocale: String = "en-US")
    {
        self.settings = settings
        var locales: [String: LocaleReport] = [:]
        for outcome in outcomes {
            let tag = outcome.record.locale ?? defaultLocale
            locales[tag, default: LocaleReport()].add(outcome, catalogue: catalogue)
        }
        self.locales = locales
        self.changes = nil
    }

    /// A report of locales already measured (summed outcomes: `eval --from-outcomes`).
    public init(locales: [String: LocaleReport], settings: Settings) {
        self.settings = settings
        self.locales = locales
        self.changes = nil
    }

    /// Every metric as a flat name → value, with whether higher is better.
    public var flatMetrics: [String: (value: Double, higherIsBetter: Bool)] {
        var result: [String: (Double, Bool)] = [:]
        for (tag, l) in locales {
            result["\(tag) intent accuracy"] = (l.intentAccuracy, true)
            if l.knownInDomain > 0 { result["\(tag) known-intent accuracy"] = (l.knownIntentAccuracy, true) }
            result["\(tag) app accuracy"] = (l.appAccuracy, true)
            result["\(tag) exact frame"] = (l.exactFrameRate, true)
            if l.outOfDomain > 0 {
                result["\(tag) out-of-domain rejection"] = (l.outOfDomainRejection, true)
            }
            result["\(tag) false rejection"] = (l.falseRejectionRate, false)
            result["\(tag) parameter F1"] = (l.parameters.f1, true)
            if l.calibration.count > 0 { result["\(tag) expected calibration error"] = (l.calibration.expectedCalibrationError, false) }
            for (intent, s) in l.perIntent { result["\(tag) intent \(intent) F1"] = (s.f1, true) }
            for (name, s) in l.perParameter { result["\(tag) parameter \(name) F1"] = (s.f1, true) }
            if let r = l.resolution, r.expected > 0 {
                result["\(tag) resolution accuracy"] = (r.accuracy, true)
                for (kind, count) in r.byKind { result["\(tag) resolution \(kind) accuracy"] = (count.accuracy, true) }
            }
        }
        return result
    }

    /// Sets `changes` against a baseline: metrics in both whose value moved, regressions
    /// first, each group by size of the change.
    public mutating func compare(with baseline: EvaluationReport) {
        let now = flatMetrics
        let before = baseline.flatMetrics
        var changes: [Change] = []
        for (metric, current) in now {
            guard let old = before[metric], abs(current.value - old.value) > 1e-9 else { continue }
            let worse = current.higherIsBetter ? current.value < old.value : current.value > old.value
            changes.append(Change(metric: metric, baseline: old.value, current: current.value, regression: worse))
        }
        changes.sort { a, b in
            if a.regression != b.regression { return a.regression }
            return abs(a.delta) != abs(b.delta) ? abs(a.delta) > abs(b.delta) : a.metric < b.metric
        }
        self.changes = changes
    }

    /// Recorded floors for one locale (`Corpora/thresholds.json`); a missing one is not checked.
    public struct Floors: Sendable, Codable {
        /// The lowest intent accuracy allowed; checked when the locale has in-domain records.
        public var intentAccuracy: Double?
        /// The lowest out-of-domain rejection allowed; checked when the locale has out-of-domain records.
        public var outOfDomainRejection: Double?
        /// The lowest parameter F1 (all names together) allowed; checked when some value was expected.
        public var parameterF1: Double?
        /// The lowest resolution accuracy allowed; checked when some resolution was expected.
        public var resolutionAccuracy: Double?
        /// Intent accuracy over in-domain records whose intent the catalogue has.
        public var knownIntentAccuracy: Double?
        /// The share of records whose whole frame is right.
        public var exactFrameRate: Double?
    }

    /// Every metric under its floor, as "en-US intent accuracy 0.951 < 0.970". Floors are
    /// keyed by locale tag; a locale without floors, or a floor whose metric the run has no
    /// data for, is not checked.
    public func belowFloors(_ floors: [String: Floors]) -> [String] {
        var failures: [String] = []
        for (tag, floor) in floors.sorted(by: { $0.key < $1.key }) {
            guard let l = locales[tag] else { continue }
            func check(_ name: String, _ value: Double, _ minimum: Double?, _ measured: Bool) {
                guard let minimum, measured, value < minimum else { return }
                failures.append("\(tag) \(name) \(Self.f(value)) < \(Self.f(minimum))")
            }
            check("intent accuracy", l.intentAccuracy, floor.intentAccuracy, l.inDomain > 0)
            check("out-of-domain rejection", l.outOfDomainRejection, floor.outOfDomainRejection, l.outOfDomain > 0)
            check("parameter F1", l.parameters.f1, floor.parameterF1, l.parameters.expected > 0)
            check("resolution accuracy", l.resolution?.accuracy ?? 0, floor.resolutionAccuracy, (l.resolution?.expected ?? 0) > 0)
            check("known-intent accuracy", l.knownIntentAccuracy, floor.knownIntentAccuracy, l.knownInDomain > 0)
            check("exact frame rate", l.exactFrameRate, floor.exactFrameRate, l.inDomain > 0)
        }
        return failures
    }

    /// Locales whose intent accuracy is under `minimum`.
    public func locales(below minimum: Double) -> [String] {
        locales.filter { $0.value.inDomain > 0 && $0.value.intentAccuracy < minimum }.map(\.key).sorted()
    }
}

extension EvaluationReport.LocaleReport {
    mutating func add(_ outcome: CorpusRun.Outcome, catalogue: IntentCatalogue) {
        let record = outcome.record
        let expected = record.expected
        let predicted = outcome.result?.intent
        records += 1
        if outcome.error != nil { failures += 1 }
        let expectedName = expected.intent ?? "none"
        let predictedName = predicted?.name ?? "none"
        confusion[expectedName, default: [:]][predictedName, default: 0] += 1

        // Intents and domains, over every record.
        if let name = expected.intent {
            perIntent[name, default: .init()].expected += 1
            if let domain = expected.domain { perDomain[domain, default: .init()].expected += 1 }
        }
        if let predicted {
            perIntent[predicted.name, default: .init()].predicted += 1
            perDomain[predicted.domain, default: .init()].predicted += 1
            if predicted.name == expected.intent { perIntent[predicted.name, default: .init()].correctSum.add(1) }
            if predicted.domain == expected.domain { perDomain[predicted.domain, default: .init()].correctSum.add(1) }
        }

        if let predicted { calibration.add(confidence: predicted.confidence, correct: predicted.name == expected.intent) }
        if let name = expected.intent, catalogue.intent(name) != nil {
            knownInDomain += 1
            if predicted?.name == name { knownIntentCorrect += 1 }
        }
        if let app = expected.unavailableApp {
            unavailableAppExpected += 1
            if predicted == nil, outcome.result?.unavailableApp?.lowercased() == app.lowercased() { unavailableAppCorrect += 1 }
        }
        var what: [String] = []
        if outcome.error != nil { what.append("error") }
        if expected.intent == nil {
            outOfDomain += 1
            if predicted == nil { rejected += 1 } else { what.append("accepted out of domain") }
        } else {
            inDomain += 1
            if predicted == nil { falselyRejected += 1 }
            let annotated = record.annotation != "intent-only"
            let spec = expected.intent.flatMap { catalogue.intent($0) }
            let gold = annotated ? ParameterValues.comparableValues(expected.parameters) : [:]
            if annotated {
                for (name, values) in gold { perParameter[name, default: .init()].expected += values.count }
            }
            if let predicted, predicted.name == expected.intent {
                intentCorrect += 1
                if predicted.app == expected.app { appCorrect += 1 } else { what.append("app") }
                if annotated {
                    let got = ParameterValues.comparableValues(predicted)
                    var allRight = got.values.reduce(0) { $0 + $1.count } == gold.values.reduce(0) { $0 + $1.count }
                    for (name, values) in got.sorted(by: { $0.key < $1.key }) {
                        perParameter[name, default: .init()].predicted += values.count
                        let isText = spec?.parameter(name)?.type == .text
                        let credit = Self.credit(values, gold[name] ?? [], text: isText)
                        perParameter[name, default: .init()].correctSum.add(credit)
                        if credit < Double(values.count) - 1e-9 || values.count != (gold[name]?.count ?? 0) {
                            allRight = false
                            what.append("parameter \(name): \(gold[name] == nil ? "extra" : "wrong")")
                        }
                    }
                    for name in gold.keys.sorted() where got[name] == nil {
                        allRight = false
                        what.append("parameter \(name): missing")
                    }
                    if allRight && predicted.app == expected.app { exactFrames += 1 }
                }
            } else {
                what.append(predicted == nil ? "rejected" : "intent")
            }
        }
        if let expectedResolution = expected.resolution {
            var metrics = resolution ?? ResolutionMetrics()
            if !metrics.add(expected: expectedResolution, predicted: predicted).isEmpty { what.append("resolution") }
            resolution = metrics
        }
        if !what.isEmpty {
            let error = EvaluationReport.SampleError(
                id: record.id, text: record.text, expected: Self.describe(expected),
                predicted: outcome.error.map { "error: \($0)" } ?? Self.describe(predicted), what: what)
            if errors.count < 20 { errors.append(error) }
            allErrors.append(error)
        }
    }

    /// Right values among `predicted` (with multiplicity); for text, the best token-overlap
    /// F1 of each predicted value against an expected one.
    static func credit(_ predicted: [String], _ expected: [String], text: Bool) -> Double {
        var remaining = expected
        var credit = 0.0
        for value in predicted {
            if let i = remaining.firstIndex(of: value) {
                remaining.remove(at: i)
                credit += 1
            } else if text,
                let (i, overlap) = remaining.enumerated().map({ ($0.offset, tokenF1(value, $0.element)) }).max(by: { $0.1 < $1.1 }),
                overlap > 0
            {
                remaining.remove(at: i)
                credit += overlap
            }
        }
        return credit
    }

    /// Token overlap F1 of two folded texts (tokens split at spaces and punctuation).
    static func tokenF1(_ a: String, _ b: String) -> Double {
        let x = NameWords.split(a)
        let y = NameWords.split(b)
        guard !x.isEmpty, !y.isEmpty else { return 0 }
        var counts: [String: Int] = [:]
        for t in y { counts[t, default: 0] += 1 }
        var common = 0
        for t in x where (counts[t] ?? 0) > 0 {
            counts[t]! -= 1
            common += 1
        }
        guard common > 0 else { return 0 }
        let p = Double(common) / Double(x.count)
        let r = Double(common) / Double(y.count)
        return 2 * p * r / (p + r)
    }

    static func describe(_ expected: AnnotatedRecord.Expected) -> String {
        guard let intent = expected.intent else { return "out of domain" }
        let parameters = expected.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\(ParameterValues.comparable($0.value))" }
        return ([(expected.domain ?? "?") + "/" + intent, "app=\(expected.app ?? "-")"] + parameters).joined(separator: " ")
    }

    static func describe(_ frame: IntentFrame?) -> String {
        guard let frame else { return "no intent" }
        let parameters = frame.parameters.map {
            "\($0.name)=\($0.value.display)"
                + ($0.resolution.map { " [\($0.kind.rawValue)\($0.items.first.map { " " + $0.id } ?? "")]" } ?? "")
        }
        return ([frame.domain + "/" + frame.name, "app=\(frame.app ?? "-")"] + parameters).joined(separator: " ")
    }
}
