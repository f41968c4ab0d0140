import Foundation
import Parlance
import Support

// Parlance's half of the side-by-side comparison (Benchmarks/side-by-side.sh runs the other
// half in Python, on the same inputs, in the same run). Prints one JSON object.
//   SideBySide names --size N --queries Q --dump DIR
//       writes DIR/names-N.tsv (id, phrase) and DIR/queries-N.txt (GeneratedNames, fixed
//       seeds), then times Parlance's resolver on them, one core, index built beforehand.
//   SideBySide parse --locale L --texts FILE
//       times full parses (templates, fallback, resolution) of the utterances in FILE, one
//       per line, against Corpora/contexts/monkey.json, one core.

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
func emit(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

switch arguments.first {
case "names":
    let size = Int(option("--size") ?? "10000")!
    let count = Int(option("--queries") ?? "1000")!
    let folder = URL(fileURLWithPath: option("--dump") ?? ".")
    let items = GeneratedNames.items(size)
    let queries = GeneratedNames.queries(from: items, count: count)
    try items.map { "\($0.id)\t\($0.phrase)" }.joined(separator: "\n").appending("\n").write(
        to: folder.appendingPathComponent("names-\(size).tsv"), atomically: true, encoding: .utf8)
    try queries.joined(separator: "\n").appending("\n").write(
        to: folder.appendingPathComponent("queries-\(size).txt"), atomically: true, encoding: .utf8)
    let context = try ParserContext.decode(Data(#"{"apps": [{"name": "Contacts", "intents": ["startCall"]}]}"#.utf8), file: "side-by-side")
    let resolver = Resolver(context: context)
    try resolver.store.setUserVocabulary(items, app: "Contacts", type: "contactName")
    let locale = try ParlanceLocale("en-US")
    // Builds the index; and, on this thread, the first use of each of ICU's transforms (a
    // clone per thread, once): Latin, Cyrillic and Han names.
    for warmUp in ["warm up", "Дмитрий", "李娜"] {
        _ = try resolver.resolve(warmUp, app: "Contacts", type: "contactName", locale: locale)
    }
    var times: [Double] = []
    var answered = 0
    let clock = ContinuousClock()
    for query in queries {
        let start = clock.now
        let answer = try resolver.resolve(query, app: "Contacts", type: "contactName", locale: locale)
        times.append((clock.now - start).seconds * 1e6)
        if !answer.candidates.isEmpty { answered += 1 }
    }
    precondition(answered > count / 2, "the resolver found nothing for most queries")
    times.sort()
    emit([
        "size": size, "queries": count, "mean_us": times.reduce(0, +) / Double(times.count), "p50_us": times[times.count / 2],
        "p99_us": times[times.count * 99 / 100]
    ])
case "parse":
    let locale = try ParlanceLocale(option("--locale") ?? "en-US")
    let texts = try String(contentsOfFile: option("--texts")!, encoding: .utf8).split(separator: "\n").map(String.init)
    let context = try ParserContext.load(contentsOf: root.appendingPathComponent("Corpora/contexts/monkey.json"))
    let parser = try ResolvingParser(context: context)
    let reference = try ReferenceTime(iso8601: "2026-11-21T10:00:00+01:00")
    var found = 0
    // Warm up, and check.
    for text in texts where try parser.parse(text, locale: locale, referenceTime: reference).intent != nil { found += 1 }
    precondition(found > texts.count / 2, "the parser found no intent for most utterances")
    let clock = ContinuousClock()
    var parsed = 0
    let start = clock.now
    while (clock.now - start).seconds < 3 {
        for text in texts { _ = try parser.parse(text, locale: locale, referenceTime: reference) }
        parsed += texts.count
    }
    let elapsed = (clock.now - start).seconds
    emit([
        "locale": locale.identifier, "sentences": texts.count, "per_second": Double(parsed) / elapsed,
        "mean_chars": Double(texts.reduce(0) { $0 + $1.count }) / Double(texts.count), "with_intent": found
    ])
default:
    FileHandle.standardError.write(Data("usage: SideBySide names --size N --queries Q --dump DIR | parse --locale L --texts FILE\n".utf8))
    exit(2)
}
