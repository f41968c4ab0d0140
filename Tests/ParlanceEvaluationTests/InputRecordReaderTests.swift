import Foundation
import ParlanceText
import Testing

@testable import ParlanceEvaluation

/// Batch lines are read in one pass (`InputRecordReader`) when they are plain; these tests hold
/// every record it gives against `JSONDecoder`'s, and check that it gives one for the lines
/// corpora are made of.
@Suite struct InputRecordReaderTests {
    static func decoded(_ line: String) -> InputRecord? { try? JSONDecoder().decode(InputRecord.self, from: Data(line.utf8)) }

    static func fields(_ r: InputRecord) -> [String?] { [r.id, r.text, r.locale, r.referenceTime, r.badField] }

    /// Whatever the reader answers, the decoder answers the same (the reader may decline).
    static func agrees(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let quick = InputRecordReader.read(Array(line.utf8)) else { return }
        let slow = decoded(line)
        #expect(slow != nil, "the reader read a line the decoder refuses: \(line)", sourceLocation: sourceLocation)
        if let slow { #expect(fields(quick) == fields(slow), "\(line)", sourceLocation: sourceLocation) }
    }

    static let plain = [
        #"{"id": "en-1", "text": "send Bobo more bananas", "locale": "en-US"}"#,
        #"{"id":"x","text":"Envoyer un message à Bobo sur MonkeyChat","locale":"fr-FR","expected":{"domain":"messaging","intent":"sendMessage","parameters":{"recipients":["Bobo"],"n":-1.5e3,"ok":true,"no":false,"z":null}}}"#,
        #"{"text": "quote \" backslash \\ slash \/ \b\f\n\r\t \u00e9\u20AC", "reference_time": "2026-11-29T10:00:00"}"#,
        #"  {"id": null, "text": "hi", "locale": null, "extra": [1, 0, -0, 0.5, 2E+10, 3e-2, [], {}, [[]], "s"]}  "#,
        #"{"text": "😀 emoji and ü"}"#,
        "{}",
        #"{"text":"a","id":"b","text2":"c","id2":3}"#
    ]

    @Test func plainLinesAreReadAsTheDecoderReadsThem() {
        for line in Self.plain {
            #expect(InputRecordReader.read(Array(line.utf8)) != nil, "declined a plain line: \(line)")
            Self.agrees(line)
        }
    }

    /// Lines the reader leaves to the decoder: other types, duplicates, surrogates, anything
    /// malformed.
    @Test func otherLinesAreLeftToTheDecoder() {
        let declined = [
            #"{"id": 42, "text": "hi"}"#, #"{"text": 5}"#, #"{"text": "a", "text": "b"}"#, #"{"text": "\ud83d\ude00"}"#,
            #"{"text": "a",}"#, #"{"text": "a"} x"#, #"["text"]"#, #"{"text": "a\x"}"#, "{\"text\": \"tab\traw\"}",
            #"{"n": 01}"#, #"{"n": 1.}"#, #"{"n": .5}"#, #"{"n": -}"#, #"{"n": 1e}"#, #"{"n": nul}"#, #"{"n": truex}"#,
            #"{"n": [1,]}"#, #"{"n": {"a"}}"#, #"{"text": "unterminated}"#, "", "{", #"{"text": "a" "locale": "b"}"#,
            String(repeating: "[", count: 200)
        ]
        for line in declined {
            #expect(InputRecordReader.read(Array(line.utf8)) == nil, "read a line it should leave: \(line)")
        }
        // Nested as deep as `JSONGuard` allows: read; one deeper: left to the decoder (too_deep).
        let deepest = JSONGuard.maximumDepth - 1
        let deep = #"{"text": "a", "x": "# + String(repeating: "[", count: deepest) + String(repeating: "]", count: deepest) + "}"
        #expect(InputRecordReader.read(Array(deep.utf8)) != nil)
        let tooDeep =
            #"{"text": "a", "x": "# + String(repeating: "[", count: deepest + 1) + String(repeating: "]", count: deepest + 1) + "}"
        #expect(InputRecordReader.read(Array(tooDeep.utf8)) == nil)
    }

    /// Lines with bytes changed, dropped and repeated at random (a fixed seed): whenever the
    /// reader reads one, the decoder reads the same record.
    @Test func mangledLinesNeverDisagree() {
        var seed: UInt64 = 2026
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        let alphabet = Array(#"{}[]",:\ 0123456789.-+eEtrufalsn"#.utf8) + [0x09, 0x0A, 0x75, 0x22, 0x5C]
        var read = 0
        for _ in 0..<20_000 {
            var bytes = Array(Self.plain[next(Self.plain.count)].utf8)
            for _ in 0...next(3) {
                guard !bytes.isEmpty else { break }
                let at = next(bytes.count)
                switch next(3) {
                case 0: bytes[at] = alphabet[next(alphabet.count)]
                case 1: bytes.remove(at: at)
                default: bytes.insert(alphabet[next(alphabet.count)], at: at)
                }
            }
            guard let line = String(validating: bytes, as: UTF8.self) else { continue }
            if InputRecordReader.read(bytes) != nil { read += 1 }
            Self.agrees(line)
        }
        // Some mangled lines are still JSON the reader reads: the comparison is not empty.
        #expect(read > 500)
    }
}
