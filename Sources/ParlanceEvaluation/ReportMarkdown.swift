import Foundation
import ParlanceContext

extension EvaluationReport {
    static func f(_ x: Double) -> String { String(format: "%.3f", x) }

    /// `report.md`: the report as readable tables, the worst confusions and sample errors.
    public func markdown() -> String {
        var out: [String] = ["# Parlance evaluation", ""]
        out.append(
            "Run \(settings.date), Parlance \(settings.parlanceVersion), ICU \(settings.icuVersion); options: "
                + settings.options.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ".")
        out.append("Context: \(settings.context.map { "`\($0.path)` (sha256 \($0.sha256.prefix(12))…)" } ?? "the built-in demo").")
        out.append(
            "Corpora: "
                + settings.corpora.map { "`\($0.path)` (\($0.lines) lines, sha256 \($0.sha256.prefix(12))…)" }.joined(separator: ", ") + "."
        )
        out.append("")
        out += markdownSummary()
        for (tag, l) in locales.sorted(by: { $0.key < $1.key }) {
            out.append("")
            out.append("## \(tag)")
            out.append("")
            if l.failures > 0 { out += ["\(l.failures) records could not be parsed.", ""] }
            out.append("| domain | expected | predicted | precision | recall | F1 |")
            out.append("|---|---:|---:|---:|---:|---:|")
            for (name, s) in l.perDomain.sorted(by: { $0.key < $1.key }) { out.append(Self.row(name, s)) }
            out.append("")
            out.append("| intent | expected | predicted | precision | recall | F1 |")
            out.append("|---|---:|---:|---:|---:|---:|")
            for (name, s) in l.perIntent.sorted(by: { $0.key < $1.key }) { out.append(Self.row(name, s)) }
            if !l.perParameter.isEmpty {
                out.append("")
                out.append("| parameter | expected | predicted | precision | recall | F1 |")
                out.append("|---|---:|---:|---:|---:|---:|")
                for (name, s) in l.perParameter.sorted(by: { $0.key < $1.key }) { out.append(Self.row(name, s)) }
            }
            if let r = l.resolution, r.expected > 0 {
                out.append("")
                out.append("| resolution (expected kind) | expected | right | accuracy |")
                out.append("|---|---:|---:|---:|")
                for (kind, c) in r.byKind.sorted(by: { $0.key < $1.key }) {
                    out.append("| \(kind) | \(c.expected) | \(c.correct) | \(Self.f(c.accuracy)) |")
                }
            }
            let confusions = l.worstConfusions(10)
            if !confusions.isEmpty {
                out.append("")
                out.append(
                    "Worst confusions: " + confusions.map { "\($0.expected) → \($0.predicted) (\($0.count))" }.joined(separator: "; ") + "."
                )
            }
            if !l.errors.isEmpty {
                out.append("")
                out.append("Sample errors (first \(l.errors.count)):")
                out.append("")
                out.append("| id | utterance | expected | predicted |")
                out.append("|---|---|---|---|")
                for e in l.errors {
                    out.append("| \(e.id) | \(Self.cell(e.text)) | \(Self.cell(e.expected)) | \(Self.cell(e.predicted)) |")
                }
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The changes against the baseline (when compared) and the summary table: what
    /// `parlance eval` prints.
    public func markdownSummary() -> [String] {
        var out: [String] = []
        if let changes {
            out.append("## Changes against the baseline")
            out.append("")
            if changes.isEmpty {
                out.append("No metric changed.")
            } else {
                let regressions = changes.filter(\.regression).count
                out.append("\(regressions) regressions, \(changes.count - regressions) improvements.")
                out.append("")
                out.append("| metric | baseline | now | change | |")
                out.append("|---|---:|---:|---:|---|")
                for c in changes.prefix(60) {
                    out.append(
                        "| \(c.metric) | \(Self.f(c.baseline)) | \(Self.f(c.current)) | \(c.delta >= 0 ? "+" : "")\(Self.f(c.delta)) | \(c.regression ? "**worse**" : "better") |"
                    )
                }
                if changes.count > 60 { out += ["", "(\(changes.count - 60) more in report.json)"] }
            }
            out.append("")
        }
        out.append("## Summary")
        out.append("")
        out.append(
            "| locale | records | in-domain | intent accuracy | app accuracy | exact frame | out-of-domain | rejection | false rejection | parameter P | R | F1 | resolution | ECE |"
        )
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for (tag, l) in locales.sorted(by: { $0.key < $1.key }) {
            let resolution = l.resolution.map { "\(Self.f($0.accuracy)) (\($0.expected))" } ?? "–"
            out.append(
                "| \(tag) | \(l.records) | \(l.inDomain) | \(Self.f(l.intentAccuracy)) | \(Self.f(l.appAccuracy)) | \(Self.f(l.exactFrameRate)) | \(l.outOfDomain) | \(l.outOfDomain > 0 ? Self.f(l.outOfDomainRejection) : "–") | \(Self.f(l.falseRejectionRate)) | \(Self.f(l.parameters.precision)) | \(Self.f(l.parameters.recall)) | \(Self.f(l.parameters.f1)) | \(resolution) | \(l.calibration.count > 0 ? Self.f(l.calibration.expectedCalibrationError) : "–") |"
            )
        }
        return out
    }

    static func row(_ name: String, _ s: Score) -> String {
        "| \(name) | \(s.expected) | \(s.predicted) | \(f(s.precision)) | \(f(s.recall)) | \(f(s.f1)) |"
    }

    static func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ") }
}

extension EvaluationReport.LocaleReport {
    /// Off-diagonal confusion cells, most records first.
    public func worstConfusions(_ n: Int) -> [(expected: String, predicted: String, count: Int)] {
        var cells: [(String, String, Int)] = []
        for (expected, row) in confusion {
            for (predicted, count) in row where predicted != expected { cells.append((expected, predicted, count)) }
        }
        return Array(cells.sorted { $0.2 != $1.2 ? $0.2 > $1.2 : ($0.0, $0.1) < ($1.0, $1.1) }.prefix(n)).map { ($0.0, $0.1, $0.2) }
    }
}
