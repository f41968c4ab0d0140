import Foundation

/// The trained tier of one language: the intent classifier and the parameter tagger, with
/// how they were trained and tuned. Stored as one compact binary file,
/// `Grammar/Models/<language>.plm` (little-endian; strings as UTF-8 with a length):
///
///     "PLM1"  version:u32  language:str  report:str (JSON)
///     classifier: classes:[str] threshold:f64 temperature:f64 bias:[f32] features:u32 × (name:str pairs:u16 × (class:u16 weight:f32))
///     tagger:     present:u8 [labels:[str] capitals:u8 transitions:[f32] features:u32 × (name:str pairs:u16 × (label:u16 weight:f32))]
///
/// A file of another version or a damaged one is an error naming it, never half-read.
public struct FrameModel: Sendable {
    public var classifier: FallbackModel
    public var tagger: FrameTagger?
    /// Softmax temperature fitted on the aside data (1 = none).
    public var temperature: Double
    /// JSON: sources, example counts, aside figures.
    public var report: String

    static let magic: [UInt8] = Array("PLM1".utf8)
    static let version: UInt32 = 1

    public var language: String { classifier.language }

    /// `Grammar/Models/<language>.plm` in the bundle, or in `PARLANCE_MODEL_DIR` when set.
    static func url(for language: String) -> URL? {
        if let override = ProcessInfo.processInfo.environment["PARLANCE_MODEL_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("\(language).plm")
        }
        return Bundle.module.url(forResource: language, withExtension: "plm", subdirectory: "Grammar/Models")
    }

    public func encoded() -> Data {
        var w = BinaryWriter()
        w.bytes(Self.magic)
        w.u32(Self.version)
        w.string(classifier.language)
        w.string(report)
        w.strings(classifier.classes)
        w.f64(classifier.threshold)
        w.f64(temperature)
        w.floats(classifier.bias.map { Float($0) })
        let features = classifier.weights.sorted { $0.key < $1.key }
        w.u32(UInt32(features.count))
        for (name, pairs) in features {
            w.string(name)
            w.u16(UInt16(pairs.count))
            for pair in pairs { w.u16(UInt16(pair[0])); w.f32(Float(pair[1])) }
        }
        if let tagger {
            w.u8(1)
            w.strings(tagger.labels)
            w.u8(tagger.capitalsCarrySignal ? 1 : 0)
            w.floats(tagger.transitions)
            let rows = tagger.featureIndex.sorted { $0.key < $1.key }
            w.u32(UInt32(rows.count))
            for (name, row) in rows {
                w.string(name)
                let range = Int(tagger.offsets[Int(row)])..<Int(tagger.offsets[Int(row) + 1])
                w.u16(UInt16(range.count))
                for p in range { w.u16(tagger.pairLabels[p]); w.f32(tagger.pairWeights[p]) }
            }
        } else {
            w.u8(0)
        }
        return w.data
    }

    public init(classifier: FallbackModel, tagger: FrameTagger?, temperature: Double, report: String) {
        self.classifier = classifier
        self.tagger = tagger
        self.temperature = temperature
        self.report = report
    }

    public init(decoding data: Data, file: String) throws {
        var r = BinaryReader(data: data, file: file)
        guard try r.bytes(4) == Self.magic else { throw r.error("not a Parlance model file (no PLM1 header)") }
        let version = try r.u32()
        guard version == Self.version else { throw r.error("model format version \(version); this Parlance reads version \(Self.version): run `parlance train` again") }
        let language = try r.string()
        report = try r.string()
        let classes = try r.strings()
        let threshold = try r.f64()
        temperature = try r.f64()
        let bias = try r.floats().map { Double($0) }
        guard bias.count == classes.count else { throw r.error("\(bias.count) biases for \(classes.count) classes") }
        var weights: [String: [[Double]]] = [:]
        let featureCount = try r.u32()
        weights.reserveCapacity(Int(featureCount))
        for _ in 0..<featureCount {
            let name = try r.string()
            let n = try r.u16()
            var pairs: [[Double]] = []
            pairs.reserveCapacity(Int(n))
            for _ in 0..<n {
                let c = try r.u16()
                guard Int(c) < classes.count else { throw r.error("class \(c) out of range") }
                pairs.append([Double(c), Double(try r.f32())])
            }
            weights[name] = pairs
        }
        classifier = FallbackModel(language: language, classes: classes, threshold: threshold, bias: bias, weights: weights,
                                   training: .init(examples: 0, heldOut: 0, heldOutAccuracy: 0, heldOutRejection: 0, epochs: 0, seed: 0))
        if try r.u8() == 1 {
            let labels = try r.strings()
            let capitals = try r.u8() == 1
            let transitions = try r.floats()
            guard transitions.count == (labels.count + 1) * labels.count else { throw r.error("transition table of \(transitions.count) for \(labels.count) labels") }
            let rows = try r.u32()
            var index: [String: Int32] = [:]
            index.reserveCapacity(Int(rows))
            var offsets: [Int32] = [0], pairLabels: [UInt16] = [], pairWeights: [Float] = []
            for row in 0..<rows {
                index[try r.string()] = Int32(row)
                let n = try r.u16()
                for _ in 0..<n {
                    let label = try r.u16()
                    guard Int(label) < labels.count else { throw r.error("label \(label) out of range") }
                    pairLabels.append(label)
                    pairWeights.append(try r.f32())
                }
                offsets.append(Int32(pairLabels.count))
            }
            tagger = FrameTagger(labels: labels, featureIndex: index, offsets: offsets, pairLabels: pairLabels, pairWeights: pairWeights,
                                 transitions: transitions, capitalsCarrySignal: capitals)
        } else {
            tagger = nil
        }
        guard r.atEnd else { throw r.error("\(data.count - r.offset) bytes after the model") }
    }
}

struct BinaryWriter {
    var data = Data()
    mutating func bytes(_ b: [UInt8]) { data.append(contentsOf: b) }
    mutating func u8(_ v: UInt8) { data.append(v) }
    mutating func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
    mutating func f32(_ v: Float) { u32(v.bitPattern) }
    mutating func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
    mutating func string(_ s: String) { let b = Array(s.utf8); u32(UInt32(b.count)); bytes(b) }
    mutating func strings(_ list: [String]) { u32(UInt32(list.count)); for s in list { string(s) } }
    mutating func floats(_ list: [Float]) { u32(UInt32(list.count)); for v in list { f32(v) } }
}

struct BinaryReader {
    let data: [UInt8]
    let file: String
    var offset = 0

    init(data: Data, file: String) {
        self.data = [UInt8](data)
        self.file = file
    }

    var atEnd: Bool { offset == data.count }

    func error(_ message: String) -> GrammarError { .file(file, "damaged model file at byte \(offset): \(message)") }

    mutating func bytes(_ n: Int) throws -> [UInt8] {
        guard n >= 0, offset + n <= data.count else { throw error("ends early (wanted \(n) more bytes)") }
        defer { offset += n }
        return Array(data[offset..<(offset + n)])
    }
    mutating func u8() throws -> UInt8 { try bytes(1)[0] }
    mutating func u16() throws -> UInt16 { let b = try bytes(2); return UInt16(b[0]) | UInt16(b[1]) << 8 }
    mutating func u32() throws -> UInt32 {
        let b = try bytes(4)
        return UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
    }
    mutating func f32() throws -> Float { Float(bitPattern: try u32()) }
    mutating func f64() throws -> Double {
        let lo = UInt64(try u32()), hi = UInt64(try u32())
        return Double(bitPattern: lo | hi << 32)
    }
    mutating func string() throws -> String {
        let n = Int(try u32())
        guard n <= data.count - offset else { throw error("a string of \(n) bytes past the end") }
        guard let s = String(validating: try bytes(n), as: UTF8.self) else { throw error("a string that is not UTF-8") }
        return s
    }
    mutating func strings() throws -> [String] {
        let n = Int(try u32())
        guard n <= data.count - offset else { throw error("a list of \(n) strings past the end") }
        return try (0..<n).map { _ in try string() }
    }
    mutating func floats() throws -> [Float] {
        let n = Int(try u32())
        guard n * 4 <= data.count - offset else { throw error("a list of \(n) numbers past the end") }
        return try (0..<n).map { _ in try f32() }
    }
}
