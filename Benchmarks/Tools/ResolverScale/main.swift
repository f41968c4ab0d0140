import Foundation
import Parlance
import Support

// Resolver scale: index build time and memory, and query latency (p50, p99, one core), at
// 1k, 10k, 100k and 1,000,000 generated names (GeneratedNames, fixed seed).
//   swift run -c release ResolverScale [--sizes 1000,10000,100000,1000000] [--queries 2000] [--phases]
// `--phases` prints, instead, where one thread spends an index build (keys, Latin forms, sound-alike keys).
// Every query's answer is checked against the item it was made from (exact queries must find
// their item), so a broken index cannot look fast.

func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
}

var sizes = [1_000, 10_000, 100_000, 1_000_000]
var queryCount = 2_000
var showPhases = false
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--sizes": sizes = (arguments.next() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--queries": queryCount = Int(arguments.next() ?? "") ?? queryCount
    case "--phases": showPhases = true
    default: fatalError("unknown argument \(argument)")
    }
}

let locale = try ParlanceLocale("en-US")

/// Where an index build's time goes, one thread, through the text layer's public steps: the
/// folded key of every name, the Latin form of those not in ASCII (Latin letters with marks, and
/// other scripts apart), and the sound-alike key of every distinct word.
func phases(_ items: [VocabularyItem]) throws {
    let clock = ContinuousClock()
    var keys: [String] = []
    let keyTime = clock.measure { keys = items.map { TextNormalizer.key($0.phrase) } }
    var latinMarked = 0
    var otherScripts = 0
    var latin: [String] = []
    var markedTime = Duration.zero
    var otherTime = Duration.zero
    for (item, key) in zip(items, keys) {
        if key.utf8.allSatisfy({ $0 < 0x80 }) {
            latin.append(key)
        } else if TextNormalizer.isLatinScript(key) {
            latinMarked += 1
            let t0 = clock.now
            latin.append(TextNormalizer.latin(item.phrase, key: key))
            markedTime += clock.now - t0
        } else {
            otherScripts += 1
            let t0 = clock.now
            latin.append(TextNormalizer.latin(item.phrase, key: key))
            otherTime += clock.now - t0
        }
    }
    var words: Set<String> = []
    let splitTime = clock.measure { for text in latin { words.formUnion(NameWords.split(text)) } }
    let rules = try SoundAlike.forLanguage("en")
    let soundTime = clock.measure { for word in words { _ = rules.key(ofWord: word) } }
    func ms(_ d: Duration) -> String { String(format: "%.0f ms", d.seconds * 1000) }
    print(
        "phases, \(items.count) names, one thread: key \(ms(keyTime)); Latin with marks (\(latinMarked)) \(ms(markedTime)); other scripts (\(otherScripts)) \(ms(otherTime)); split \(ms(splitTime)); sound-alike keys of \(words.count) distinct words \(ms(soundTime))"
    )
}
print(
    "| items | build (s, 2 threads) | build (s, 1 thread) | index MB | index bytes/item | RSS growth MB (items + index) | query p50 (µs) | query p99 (µs) | queries/s (1 core) | kinds |"
)
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for size in sizes {
    let items = GeneratedNames.items(size)
    if showPhases {
        try phases(items)
        continue
    }
    let before = residentBytes()
    let clock = ContinuousClock()
    let start = clock.now
    let context = try ParserContext.decode(Data(#"{"apps": [{"name": "Contacts", "intents": ["startCall"]}]}"#.utf8), file: "bench")
    let resolver = Resolver(context: context)
    try resolver.store.setUserVocabulary(items, app: "Contacts", type: "contactName")
    _ = try resolver.resolve("warm up", app: "Contacts", type: "contactName", locale: locale)  // builds the index
    let build = clock.now - start
    let after = residentBytes()
    let single = try clock.measure { _ = try VocabularyIndex(items: items, language: "en", jobs: 1) }
    let indexBytes = try VocabularyIndex(items: items, language: "en").indexBytes
    var queries = GeneratedNames.queries(from: items, count: queryCount)
    if ProcessInfo.processInfo.environment["ONLY_NON_LATIN"] != nil { queries = queries.filter { !TextNormalizer.isLatinScript($0) } }
    let phrases = Set(items.map(\.phrase))
    var times: [Double] = []
    var kinds: [String: Int] = [:]
    var exactFound = 0
    var exactTotal = 0
    for query in queries {
        let t0 = clock.now
        let answer = try resolver.resolve(query, app: "Contacts", type: "contactName", locale: locale)
        let elapsed = clock.now - t0
        times.append(elapsed.seconds * 1e6)
        kinds[answer.resolution.kind.rawValue, default: 0] += 1
        if phrases.contains(query) {
            exactTotal += 1
            if answer.candidates.contains(where: { $0.display == query && $0.match.whole }) {
                exactFound += 1
            } else if exactTotal - exactFound < 4 {
                FileHandle.standardError.write(
                    Data("lost: \(query) → \(answer.resolution.kind) \(answer.candidates.prefix(3).map(\.display))\n".utf8))
            }
        }
    }
    if ProcessInfo.processInfo.environment["SHOW_SLOW"] != nil {
        for (t, q) in zip(times, queries).sorted(by: { $0.0 > $1.0 }).prefix(12) {
            FileHandle.standardError.write(Data("slow \(Int(t)) µs: \(q)\n".utf8))
        }
    }
    precondition(exactFound == exactTotal, "\(size): \(exactTotal - exactFound) exact queries lost their item")
    times.sort()
    let p50 = times[times.count / 2]
    let p99 = times[min(times.count - 1, times.count * 99 / 100)]
    let total = times.reduce(0, +)
    func seconds(_ d: Duration) -> String { String(format: "%.2f", d.seconds) }
    let kindText = kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    print(
        "| \(size) | \(seconds(build)) | \(seconds(single)) | \(String(format: "%.1f", Double(indexBytes) / 1e6)) | \(indexBytes / size) | \(String(format: "%.0f", Double(after - before) / 1e6)) | \(String(format: "%.1f", p50)) | \(String(format: "%.1f", p99)) | \(String(format: "%.0f", Double(queries.count) / (total / 1e6))) | \(kindText) |"
    )
}
