import Foundation
import ParlanceContext

/// How well the parser's confidence matches how often it is right: every record given an
/// intent falls in one of ten confidence bins; per bin, the mean confidence and the share
/// whose intent is right. The expected calibration error (ECE) is the record-weighted mean
/// of |accuracy − confidence| over the bins (Guo et al. 2017); 0 is perfectly calibrated.
public struct Calibration: Sendable, Codable, Hashable {
    /// One confidence bin: the records whose intent confidence is at least `lower` and below `upper`
    /// (the last bin also takes a confidence of 1).
    public struct Bin: Sendable, Codable, Hashable {
        /// The bin's lowest confidence, included.
        public var lower: Double
        /// The bin's upper bound, excluded except in the last bin.
        public var upper: Double
        /// Records in the bin.
        public var count = 0
        /// The confidences, summed exactly (the same whatever their order: `ExactSum`).
        public var confidenceTotal = ExactSum()
        /// The sum of the bin's confidences, rounded once (report.json `confidenceSum`); setting it
        /// replaces the exact total.
        public var confidenceSum: Double {
            get { confidenceTotal.value }
            set { confidenceTotal = ExactSum(newValue) }
        }
        /// Records in the bin whose predicted intent is the expected one.
        public var correct = 0
        /// The mean confidence of the bin's records; 0 for an empty bin.
        public var confidence: Double { count == 0 ? 0 : confidenceSum / Double(count) }
        /// The share of the bin's records whose intent is right; 0 for an empty bin.
        public var accuracy: Double { count == 0 ? 0 : Double(correct) / Double(count) }

        enum CodingKeys: String, CodingKey { case lower, upper, count, confidenceSum, correct, confidence, accuracy }
        /// An empty bin from `lower` up to `upper`.
        public init(lower: Double, upper: Double) {
            self.lower = lower
            self.upper = upper
        }
        /// Reads a bin as report.json holds it; `confidence` and `accuracy` are derived, so not read.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            lower = try c.decode(Double.self, forKey: .lower)
            upper = try c.decode(Double.self, forKey: .upper)
            count = try c.decode(Int.self, forKey: .count)
            confidenceSum = try c.decode(Double.self, forKey: .confidenceSum)
            correct = try c.decode(Int.self, forKey: .correct)
        }
        /// Writes `lower`, `upper`, `count`, `confidenceSum` and `correct`, and the derived `confidence` and
        /// `accuracy`.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(lower, forKey: .lower)
            try c.encode(upper, forKey: .upper)
            try c.encode(count, forKey: .count)
            try c.encode(confidenceSum, forKey: .confidenceSum)
            try c.encode(correct, forKey: .correct)
            try c.encode(confidence, forKey: .confidence)
            try c.encode(accuracy, forKey: .accuracy)
        }
    }

    /// The ten bins, 0.1 wide, from [0, 0.1) to [0.9, 1].
    public var bins: [Bin] = (0..<10).map { Bin(lower: Double($0) / 10, upper: Double($0 + 1) / 10) }

    /// Ten empty bins.
    public init() {}

    /// Adds one record given an intent with `confidence`, right or not.
    public mutating func add(confidence: Double, correct: Bool) {
        let i = min(bins.count - 1, max(0, Int(confidence * Double(bins.count))))
        bins[i].count += 1
        bins[i].confidenceTotal.add(confidence)
        if correct { bins[i].correct += 1 }
    }

    /// Records over all bins: every record that was given an intent.
    public var count: Int { bins.reduce(0) { $0 + $1.count } }

    /// The expected calibration error: the record-weighted mean of |accuracy − confidence| over the
    /// bins; 0 when there is no record.
    public var expectedCalibrationError: Double {
        let n = count
        guard n > 0 else { return 0 }
        return bins.reduce(0) { $0 + Double($1.count) / Double(n) * abs($1.accuracy - $1.confidence) }
    }

    enum CodingKeys: String, CodingKey { case bins, expectedCalibrationError, count }
    /// Reads `bins` from report.json; `count` and `expectedCalibrationError` are derived from them.
    public init(from decoder: any Decoder) throws {
        bins = try decoder.container(keyedBy: CodingKeys.self).decode([Bin].self, forKey: .bins)
    }
    /// Writes `bins` and the derived `count` and `expectedCalibrationError`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(bins, forKey: .bins)
        try c.encode(count, forKey: .count)
        try c.encode(expectedCalibrationError, forKey: .expectedCalibrationError)
    }

    /// A reliability diagram as inline SVG: accuracy per confidence bin against the diagonal.
    public func svg() -> String {
        let size = 220.0
        let left = 40.0
        let top = 10.0
        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(left + size + 20))\" height=\"\(Int(top + size + 40))\" role=\"img\" aria-label=\"reliability diagram\">"
        ]
        svg.append("<rect x=\"\(left)\" y=\"\(top)\" width=\"\(size)\" height=\"\(size)\" fill=\"none\" stroke=\"#ccc\"/>")
        svg.append(
            "<line x1=\"\(left)\" y1=\"\(top + size)\" x2=\"\(left + size)\" y2=\"\(top)\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>")
        let w = size / Double(bins.count)
        for (i, bin) in bins.enumerated() where bin.count > 0 {
            let h = bin.accuracy * size
            svg.append(
                "<rect x=\"\(left + Double(i) * w + 1)\" y=\"\(top + size - h)\" width=\"\(w - 2)\" height=\"\(h)\" fill=\"#4e79a7\"><title>confidence \(String(format: "%.1f–%.1f", bin.lower, bin.upper)): \(bin.count) records, accuracy \(String(format: "%.3f", bin.accuracy)), mean confidence \(String(format: "%.3f", bin.confidence))</title></rect>"
            )
        }
        svg.append(
            "<text x=\"\(left + size / 2)\" y=\"\(top + size + 28)\" font-size=\"11\" text-anchor=\"middle\">confidence (ECE \(String(format: "%.3f", expectedCalibrationError)))</text>"
        )
        svg.append(
            "<text x=\"\(left - 6)\" y=\"\(top + 10)\" font-size=\"11\" text-anchor=\"end\">1</text><text x=\"\(left - 6)\" y=\"\(top + size)\" font-size=\"11\" text-anchor=\"end\">0</text>"
        )
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }
}
