import Foundation
import ParlanceContext
import ParlanceICU
import ParlanceText

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
    /// The intent classifier, with its rejection threshold tuned on the aside data.
    public var classifier: FallbackModel
    /// The parameter tagger. Read from a model file only when first asked for (most requests are
    /// read by templates and never need it); the file was checked whole when it was loaded.
    public var tagger: FrameTagger? { taggerSource.tagger }
    private let taggerSource: TaggerSource
    /// Softmax temperature fitted on the aside data (1 = none).
    public var temperature: Double
    /// JSON: sources, example counts, aside figures.
    public var report: String

    static let magic: [UInt8] = Array("PLM1".utf8)
    static let version: UInt32 = 1

    /// The language the model is for (the classifier's).
    public var language: String { classifier.language }

    /// `Grammar/Models/<language>.plm` in the bundle, or in `PARLANCE_MODEL_DIR` when set.
    static func url(for language: String) -> URL? {
        if let override = ProcessInfo.processInfo.environment["PARLANCE_MODEL_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("\(language).plm")
        }
        return Bundle.module.url(forResource: language, withExtension: "plm", subdirectory: "Grammar/Models")
    }

    /// The model in the `.plm` binary format (see `FrameModel`), with the tagger when there is one.
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
        let features = classifier.rows.names.enumerated().sorted { $0.element < $1.element }
        w.u32(UInt32(features.count))
        for (row, name) in features {
            w.string(name)
            let pairs = classifier.pairs(Int32(row))
            w.u16(UInt16(pairs.count))
            for (c, weight) in pairs {
                w.u16(UInt16(c))
                w.f32(weight)
            }
        }
        if let tagger {
            w.u8(1)
            w.strings(tagger.labels)
            w.u8(tagger.capitalsCarrySignal ? 1 : 0)
            w.floats(tagger.transitions)
            let rows = tagger.features.names.enumerated().map { ($1, Int32($0)) }.sorted { $0.0 < $1.0 }
            w.u32(UInt32(rows.count))
            for (name, row) in rows {
                w.string(name)
                let range = Int(tagger.offsets[Int(row)])..<Int(tagger.offsets[Int(row) + 1])
                w.u16(UInt16(range.count))
                for p in range {
                    w.u16(tagger.pairLabels[p])
                    w.f32(tagger.pairWeights[p])
                }
            }
        } else {
            w.u8(0)
        }
        return w.data
    }

    /// A model made in memory (by `FrameModelTrainer.train`), with its softmax temperature and its JSON
    /// report.
    public init(classifier: FallbackModel, tagger: FrameTagger?, temperature: Double, report: String) {
        self.classifier = classifier
        self.taggerSource = TaggerSource(tagger)
        self.temperature = temperature
        self.report = report
    }

    /// Reads the data of a `.plm` file; `file` names it in errors. The tagger's part is checked now and
    /// built when first asked for.
    ///
    /// Throws a `GrammarError` when the data is not a Parlance model file, is of another format
    /// version, or is damaged (the error gives the byte offset).
    public init(decoding data: Data, file: String) throws {
        var r = BinaryReader(data: data, file: file)
        guard try r.bytes(4) == Self.magic else { throw r.error("not a Parlance model file (no PLM1 header)") }
        let version = try r.u32()
        guard version == Self.version else {
            throw r.error("model format version \(version); this Parlance reads version \(Self.version): run `parlance train` again")
        }
        let language = try r.string()
        report = try r.string()
        let classes = try r.strings()
        let threshold = try r.f64()
        temperature = try r.f64()
        let bias = try r.floats().map { Double($0) }
        guard bias.count == classes.count else { throw r.error("\(bias.count) biases for \(classes.count) classes") }
        let featureCount = try r.u32()
        var names: [String] = []
        names.reserveCapacity(Int(featureCount))
        var offsets: [Int32] = [0]
        var pairClasses: [UInt16] = []
        var pairWeights: [Float] = []
        for _ in 0..<featureCount {
            names.append(try r.string())
            let n = try r.u16()
            for _ in 0..<n {
                let c = try r.u16()
                guard Int(c) < classes.count else { throw r.error("class \(c) out of range") }
                pairClasses.append(c)
                pairWeights.append(try r.f32())
            }
            offsets.append(Int32(pairClasses.count))
        }
        classifier = FallbackModel(
            language: language, classes: classes, threshold: threshold, bias: bias, rows: FeatureTable(names), offsets: offsets,
            pairClasses: pairClasses, pairWeights: pairWeights,
            training: .init(examples: 0, heldOut: 0, heldOutAccuracy: 0, heldOutRejection: 0, epochs: 0, seed: 0))
        if try r.u8() == 1 {
            var scan = r
            try Self.readTagger(&scan, build: false)
            taggerSource = TaggerSource(reader: r)
            r = scan
        } else {
            taggerSource = TaggerSource(nil)
        }
        guard r.atEnd else { throw r.error("\(data.count - r.offset) bytes after the model") }
    }
}

extension FrameModel {
    /// Reads the tagger's part of a model file: with `build`, the tagger; without, only checks
    /// it (every length, label and string) without building anything.
    @discardableResult
    static func readTagger(_ r: inout BinaryReader, build: Bool) throws -> FrameTagger? {
        let labels = try r.strings()
        let capitals = try r.u8() == 1
        let transitions = try r.floats()
        guard transitions.count == (labels.count + 1) * labels.count else {
            throw r.error("transition table of \(transitions.count) for \(labels.count) labels")
        }
        let rows = try r.u32()
        // The feature names' bytes end to end, checked and kept without making a string.
        var names: [UInt8] = []
        var ends: [Int32] = []
        var offsets: [Int32] = [0]
        var pairLabels: [UInt16] = []
        var pairWeights: [Float] = []
        for _ in 0..<rows {
            let name = try r.checkedString()
            if build {
                names.append(contentsOf: r.data[name])
                ends.append(Int32(names.count))
            }
            let n = try r.u16()
            for _ in 0..<n {
                let label = try r.u16()
                guard Int(label) < labels.count else { throw r.error("label \(label) out of range") }
                let weight = try r.f32()
                if build {
                    pairLabels.append(label)
                    pairWeights.append(weight)
                }
            }
            if build { offsets.append(Int32(pairLabels.count)) }
        }
        guard build else { return nil }
        return FrameTagger(
            labels: labels, features: FeatureTable(bytes: names, ends: ends), offsets: offsets, pairLabels: pairLabels,
            pairWeights: pairWeights,
            transitions: transitions, capitalsCarrySignal: capitals)
    }
}

/// Where a model's tagger comes from: built in memory (training), or a checked part of a
/// model file, read on first use.
final class TaggerSource: Sendable {
    private let reader: BinaryReader?
    /// The tagger as an image holds it (`FrameTagger`'s `ImageCodable` form), in the image's
    /// mapped bytes: its tables are copied out at once, with no parsing, when the tagger is
    /// first asked for.
    private let mapped: PlainStorage<UInt8>?
    private let slot: Locked<FrameTagger??>

    init(_ tagger: FrameTagger?) {
        reader = nil
        mapped = nil
        slot = Locked(.some(tagger))
    }

    init(reader: BinaryReader) {
        self.reader = reader
        mapped = nil
        slot = Locked(nil)
    }

    init(mapped: PlainStorage<UInt8>) {
        reader = nil
        self.mapped = mapped
        slot = Locked(nil)
    }

    /// The tagger in the form an image holds it (nil when there is none): the image's own bytes
    /// when it was read from one, else the tagger's tables written out.
    var imaged: [UInt8]? {
        if let mapped { return Array(mapped.buffer) }
        guard let tagger else { return nil }
        var image = ImageWriter()
        tagger.write(to: &image)
        return image.bytes
    }

    var tagger: FrameTagger? {
        slot.withLock { slot in
            if let known = slot { return known }
            // The part was checked when the file was loaded, and the image's bytes with the whole
            // image (its checksum): reading them again cannot fail but for a bug.
            let tagger: FrameTagger?
            if var r = reader {
                tagger = try? FrameModel.readTagger(&r, build: true)
            } else if let mapped {
                tagger = try? Self.read(mapped)
            } else {
                tagger = nil
            }
            slot = .some(tagger)
            return tagger
        }
    }

    /// The tagger in an image's bytes, which must hold it to their end.
    private static func read(_ mapped: PlainStorage<UInt8>) throws(ImageError) -> FrameTagger {
        var image = ImageReader(UnsafeRawBufferPointer(mapped.buffer))
        let tagger = try FrameTagger(from: &image)
        guard image.isAtEnd else { throw ImageError("a tagger has bytes past its end") }
        return tagger
    }
}

extension FrameTagger: ImageCodable {
    /// The tagger's tables as they are: labels, capitals, transitions, the feature table (with
    /// its slots) and the weights; read back with copies of whole arrays, no parsing.
    package func write(to image: inout ImageWriter) {
        image.write(labels)
        image.write(capitalsCarrySignal)
        image.writePlain(transitions)
        image.write(features)
        image.writePlain(offsets)
        image.writePlain(pairLabels)
        image.writePlain(pairWeights)
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        let labels = try image.read([String].self)
        let capitals = try image.read(Bool.self)
        let transitions: [Float] = try image.readPlain()
        let features = try image.read(FeatureTable.self)
        let offsets: [Int32] = try image.readPlain()
        let pairLabels: [UInt16] = try image.readPlain()
        let pairWeights: [Float] = try image.readPlain()
        guard transitions.count == (labels.count + 1) * labels.count,
            FrameTagger.inBounds(
                offsets: offsets, rows: features.count, pairLabels: pairLabels, pairWeights: pairWeights, labels: labels.count)
        else { throw ImageError("a tagger's tables do not hold") }
        self.init(
            labels: labels, features: features, offsets: offsets, pairLabels: pairLabels, pairWeights: pairWeights,
            transitions: transitions, capitalsCarrySignal: capitals)
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
    mutating func string(_ s: String) {
        let b = Array(s.utf8)
        u32(UInt32(b.count))
        bytes(b)
    }
    mutating func strings(_ list: [String]) {
        u32(UInt32(list.count))
        for s in list { string(s) }
    }
    mutating func floats(_ list: [Float]) {
        u32(UInt32(list.count))
        for v in list { f32(v) }
    }
}

struct BinaryReader: Sendable {
    let data: [UInt8]
    let file: String
    var offset = 0

    init(data: Data, file: String) {
        self.data = [UInt8](data)
        self.file = file
    }

    init(bytes: [UInt8], file: String) {
        self.data = bytes
        self.file = file
    }

    var atEnd: Bool { offset == data.count }

    func error(_ message: String) -> GrammarError { .file(file, "damaged model file at byte \(offset): \(message)") }

    /// Checks that `n` more bytes are there and returns where they start (no copy).
    private mutating func take(_ n: Int) throws -> Int {
        guard n >= 0, offset + n <= data.count else { throw error("ends early (wanted \(n) more bytes)") }
        defer { offset += n }
        return offset
    }
    mutating func bytes(_ n: Int) throws -> [UInt8] {
        let at = try take(n)
        return Array(data[at..<(at + n)])
    }
    mutating func u8() throws -> UInt8 { data[try take(1)] }
    mutating func u16() throws -> UInt16 {
        let at = try take(2)
        return UInt16(data[at]) | UInt16(data[at + 1]) << 8
    }
    mutating func u32() throws -> UInt32 {
        let at = try take(4)
        return UInt32(data[at]) | UInt32(data[at + 1]) << 8 | UInt32(data[at + 2]) << 16 | UInt32(data[at + 3]) << 24
    }
    mutating func f32() throws -> Float { Float(bitPattern: try u32()) }
    mutating func f64() throws -> Double {
        let lo = UInt64(try u32())
        let hi = UInt64(try u32())
        return Double(bitPattern: lo | hi << 32)
    }
    mutating func string() throws -> String { String(decoding: data[try checkedString()], as: UTF8.self) }
    mutating func skipString() throws { _ = try checkedString() }

    /// Where the next string's bytes are, checked to be well-formed UTF-8 without making the
    /// string (ASCII, nearly every feature, at a glance).
    mutating func checkedString() throws -> Range<Int> {
        let n = Int(try u32())
        guard n <= data.count - offset else { throw error("a string of \(n) bytes past the end") }
        let at = try take(n)
        let range = at..<(at + n)
        if data[range].allSatisfy({ $0 < 0x80 }) { return range }
        var parser = Unicode.UTF8.ForwardParser()
        var bytes = data[range].makeIterator()
        while true {
            switch parser.parseScalar(from: &bytes) {
            case .valid: continue
            case .emptyInput: return range
            case .error: throw error("a string that is not UTF-8")
            }
        }
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

extension UInt16: ImagePlain {}
extension Float: ImagePlain {}

extension FrameModel: ImageCodable {
    /// A model read from a model file, as an image: its classifier's tables as blocks, and its
    /// tagger's part of the file as it was (read on first use, as from the file).
    package func write(to image: inout ImageWriter) {
        let c = classifier
        image.write(c.language)
        image.write(c.classes)
        image.write(c.threshold)
        image.write(c.bias)
        image.write(c.rows)
        image.writePlain(c.offsets)
        image.writePlain(c.pairClasses)
        image.writePlain(c.pairWeights)
        image.write(temperature)
        image.write(report)
        let tagger = taggerSource.imaged
        image.write(tagger != nil)
        if let tagger { tagger.withUnsafeBufferPointer { image.writeAligned($0) } }
    }

    package init(from image: inout ImageReader) throws(ImageError) {
        let language = try image.read(String.self)
        let classes = try image.read([String].self)
        let threshold = try image.read(Double.self)
        let bias = try image.read([Double].self)
        let rows = try image.read(FeatureTable.self)
        let offsets: [Int32] = try image.readPlain()
        let pairClasses: [UInt16] = try image.readPlain()
        let pairWeights: [Float] = try image.readPlain()
        guard bias.count == classes.count, offsets.count == rows.count + 1, offsets.first == 0,
            offsets.last.map({ Int($0) == pairClasses.count }) ?? false, pairClasses.count == pairWeights.count,
            zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }), pairClasses.allSatisfy({ Int($0) < classes.count })
        else { throw ImageError("a model's tables do not hold") }
        classifier = FallbackModel(
            language: language, classes: classes, threshold: threshold, bias: bias, rows: rows, offsets: offsets, pairClasses: pairClasses,
            pairWeights: pairWeights, training: .init(examples: 0, heldOut: 0, heldOutAccuracy: 0, heldOutRejection: 0, epochs: 0, seed: 0))
        temperature = try image.read(Double.self)
        report = try image.read(String.self)
        if try image.read(Bool.self) {
            taggerSource = TaggerSource(mapped: try image.readAligned(UInt8.self))
        } else {
            taggerSource = TaggerSource(nil)
        }
    }

    /// The trained tier of `language` (`Grammar/Models/<language>.plm`, or `PARLANCE_MODEL_DIR`'s),
    /// read from its compiled image when one matches the file; nil when there is no model file.
    static func load(language: String) throws -> FrameModel? {
        guard let url = url(for: language), let data = try? Data(contentsOf: url, options: .alwaysMapped) else { return nil }
        return try ImageCache.load("model", language: language, sources: [url]) {
            try FrameModel(decoding: data, file: "Models/\(language).plm")
        }.value
    }
}
