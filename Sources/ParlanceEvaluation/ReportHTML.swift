import Foundation
import ParlanceContext

extension EvaluationReport {
    /// `report.html`: one self-contained page (no script, no network): the summary, bars per
    /// locale and a confusion-matrix heat map per locale, as inline SVG.
    public func html() -> String {
        var body: [String] = []
        body.append("<h1>Parlance evaluation</h1>")
        body.append(
            "<p class=meta>Run \(Self.escape(settings.date)) · Parlance \(Self.escape(settings.parlanceVersion)) · ICU \(Self.escape(settings.icuVersion)) · context \(Self.escape(settings.context?.path ?? "built-in demo")) · \(settings.corpora.count) corpus files, \(settings.corpora.reduce(0) { $0 + $1.lines }) lines</p>"
        )
        if let changes {
            let regressions = changes.filter(\.regression)
            body.append(
                "<h2>Against the baseline</h2><p>\(regressions.count) regressions, \(changes.count - regressions.count) improvements.</p>")
            if !changes.isEmpty {
                body.append("<table><tr><th>metric</th><th>baseline</th><th>now</th><th>change</th></tr>")
                for c in changes.prefix(40) {
                    body.append(
                        "<tr class=\(c.regression ? "worse" : "better")><td>\(Self.escape(c.metric))</td><td>\(Self.f(c.baseline))</td><td>\(Self.f(c.current))</td><td>\(c.delta >= 0 ? "+" : "")\(Self.f(c.delta))</td></tr>"
                    )
                }
                body.append("</table>")
            }
        }
        body.append("<h2>Per locale</h2>")
        body.append(barChart())
        body.append(
            "<table><tr><th>locale</th><th>records</th><th>intent accuracy</th><th>app accuracy</th><th>exact frame</th><th>out-of-domain rejection</th><th>false rejection</th><th>parameter F1</th><th>resolution</th></tr>"
        )
        for (tag, l) in locales.sorted(by: { $0.key < $1.key }) {
            body.append(
                "<tr><td>\(Self.escape(tag))</td><td>\(l.records)</td><td>\(Self.f(l.intentAccuracy))</td><td>\(Self.f(l.appAccuracy))</td><td>\(Self.f(l.exactFrameRate))</td><td>\(l.outOfDomain > 0 ? Self.f(l.outOfDomainRejection) : "–")</td><td>\(Self.f(l.falseRejectionRate))</td><td>\(Self.f(l.parameters.f1))</td><td>\(l.resolution.map { Self.f($0.accuracy) } ?? "–")</td></tr>"
            )
        }
        body.append("</table>")
        for (tag, l) in locales.sorted(by: { $0.key < $1.key }) {
            body.append("<h2>\(Self.escape(tag)): intent confusion</h2>")
            body.append(
                "<p class=meta>Rows: expected intent; columns: predicted; <i>none</i> = out of domain / no intent. Colour: share of the row (blue on the diagonal, red off it).</p>"
            )
            body.append(l.heatMap())
            if l.calibration.count > 0 {
                body.append(
                    "<p class=meta>Reliability: share of right intents per confidence bin (bars) against the diagonal of perfect calibration.</p>"
                )
                body.append(l.calibration.svg())
            }
            let confusions = l.worstConfusions(5)
            if !confusions.isEmpty {
                body.append(
                    "<p>Worst confusions: "
                        + confusions.map { "\(Self.escape($0.expected)) → \(Self.escape($0.predicted)) (\($0.count))" }.joined(
                            separator: "; ") + "</p>")
            }
            if !l.errors.isEmpty {
                body.append(
                    "<details><summary>Sample errors (\(l.errors.count))</summary><table><tr><th>id</th><th>utterance</th><th>expected</th><th>predicted</th></tr>"
                )
                for e in l.errors {
                    body.append(
                        "<tr><td>\(Self.escape(e.id))</td><td>\(Self.escape(e.text))</td><td>\(Self.escape(e.expected))</td><td>\(Self.escape(e.predicted))</td></tr>"
                    )
                }
                body.append("</table></details>")
            }
        }
        let style = """
            body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em;color:#222;max-width:1200px}
            table{border-collapse:collapse;margin:1em 0;font-size:14px}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}
            td:first-child,th:first-child{text-align:left}.meta{color:#666;font-size:13px}
            tr.worse td{background:#fde2e1}tr.better td{background:#e3f5e1}svg{display:block;margin:1em 0}
            """
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Parlance evaluation</title><style>\(style)</style></head>
            <body>
            \(body.joined(separator: "\n"))
            </body></html>

            """
    }

    /// Grouped bars: per locale, intent accuracy, out-of-domain rejection, parameter F1 and
    /// resolution accuracy (0 to 1).
    func barChart() -> String {
        let tags = locales.keys.sorted()
        let metrics: [(String, String, (LocaleReport) -> Double?)] = [
            ("intent accuracy", "#3b6fb6", { $0.inDomain > 0 ? $0.intentAccuracy : nil }),
            ("out-of-domain rejection", "#5aa469", { $0.outOfDomain > 0 ? $0.outOfDomainRejection : nil }),
            ("parameter F1", "#e0a030", { $0.parameters.expected > 0 ? $0.parameters.f1 : nil }),
            ("resolution accuracy", "#a05195", { $0.resolution.map(\.accuracy) })
        ]
        let bar = 16.0
        let gap = 22.0
        let height = 180.0
        let left = 40.0
        let top = 30.0
        let group = Double(metrics.count) * bar + gap
        let legend = metrics.reduce(left) { $0 + 24 + Double($1.0.count) * 6.5 }
        let width = max(left + Double(tags.count) * group + 20, legend)
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(top + height + 50))\" role=\"img\" aria-label=\"per-locale scores\">"
        ]
        for tick in stride(from: 0.0, through: 1.0, by: 0.25) {
            let y = top + height * (1 - tick)
            svg.append(
                "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(width)\" y2=\"\(y)\" stroke=\"#ddd\"/><text x=\"\(left - 6)\" y=\"\(y + 4)\" font-size=\"11\" text-anchor=\"end\">\(String(format: "%.2f", tick))</text>"
            )
        }
        for (i, tag) in tags.enumerated() {
            let x0 = left + Double(i) * group + gap / 2
            for (m, metric) in metrics.enumerated() {
                guard let value = metric.2(locales[tag]!) else { continue }
                let h = height * max(0, min(1, value))
                svg.append(
                    "<rect x=\"\(x0 + Double(m) * bar)\" y=\"\(top + height - h)\" width=\"\(bar - 2)\" height=\"\(h)\" fill=\"\(metric.1)\"><title>\(Self.escape(tag)) \(metric.0): \(Self.f(value))</title></rect>"
                )
            }
            svg.append(
                "<text x=\"\(x0 + Double(metrics.count) * bar / 2)\" y=\"\(top + height + 16)\" font-size=\"12\" text-anchor=\"middle\">\(Self.escape(tag))</text>"
            )
        }
        var lx = left
        for metric in metrics {
            svg.append(
                "<rect x=\"\(lx)\" y=\"8\" width=\"10\" height=\"10\" fill=\"\(metric.1)\"/><text x=\"\(lx + 14)\" y=\"17\" font-size=\"12\">\(metric.0)</text>"
            )
            lx += 24 + Double(metric.0.count) * 6.5
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension EvaluationReport.LocaleReport {
    /// The confusion matrix as an SVG heat map, rows and columns in the same order (intents
    /// sorted, "none" last).
    func heatMap() -> String {
        var labels = Set(confusion.keys)
        for row in confusion.values { labels.formUnion(row.keys) }
        let order = labels.subtracting(["none"]).sorted() + (labels.contains("none") ? ["none"] : [])
        let cell = 26.0
        let left = 170.0
        let top = 130.0
        let size = Double(order.count) * cell
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(left + size + 20))\" height=\"\(Int(top + size + 20))\" role=\"img\" aria-label=\"confusion matrix\">"
        ]
        for (c, label) in order.enumerated() {
            let x = left + Double(c) * cell + cell / 2
            svg.append(
                "<text transform=\"translate(\(x),\(top - 6)) rotate(-50)\" font-size=\"11\">\(EvaluationReport.escape(label))</text>")
        }
        for (r, expected) in order.enumerated() {
            let y = top + Double(r) * cell
            svg.append(
                "<text x=\"\(left - 6)\" y=\"\(y + cell / 2 + 4)\" font-size=\"11\" text-anchor=\"end\">\(EvaluationReport.escape(expected))</text>"
            )
            let row = confusion[expected] ?? [:]
            let total = row.values.reduce(0, +)
            for (c, predicted) in order.enumerated() {
                let count = row[predicted] ?? 0
                let share = total == 0 ? 0 : Double(count) / Double(total)
                let x = left + Double(c) * cell
                let colour =
                    count == 0
                    ? "#f6f6f6"
                    : expected == predicted
                        ? "rgb(\(Int(235 - 190 * share)),\(Int(242 - 130 * share)),255)"
                        : "rgb(255,\(Int(225 - 180 * min(1, share * 2))),\(Int(225 - 180 * min(1, share * 2))))"
                svg.append(
                    "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell - 1)\" height=\"\(cell - 1)\" fill=\"\(colour)\"><title>\(EvaluationReport.escape(expected)) → \(EvaluationReport.escape(predicted)): \(count)</title></rect>"
                )
                if count > 0 {
                    let light = expected == predicted && share > 0.5
                    svg.append(
                        "<text x=\"\(x + cell / 2)\" y=\"\(y + cell / 2 + 4)\" font-size=\"10\" text-anchor=\"middle\" fill=\"\(light ? "#fff" : "#222")\">\(count)</text>"
                    )
                }
            }
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }
}
