import Foundation
import Parlance
import Support

// Resolver scale: index build time and memory, and query latency (p50, p99, one core), at
// 1k, 10k, 100k and 1,000,000 generated names (GeneratedNames, fixed seed).
//   swift run -c release ResolverScale [--sizes 1000,10000,100000,1000000] [--queries 2000]
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
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--sizes": sizes = (arguments.next() ?? "").split(separator: ",").compactMap { Int($0) }
    case "--queries": queryCount = Int(arguments.next() ?? "") ?? queryCount
    default: fatalError("unknown argument \(argument)")
    }
}

let locale = try ParlanceLocale("en-US")
print(
    "| items | build (s, 2 threads) | build (s, 1 thread) | index MB | index bytes/item | RSS growth MB (items + index) | query p50 (µs) | query p99 (µs) | queries/s (1 core) | kinds |"
)
print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for size in sizes {
    let items = GeneratedNames.items(size)
    let before = residentBytes()
    let clock = ContinuousClock()
    let start = clock.now
    let context = try ParserContext.decode(Data(#"{"apps": [{"name": "Contacts", "intents": ["startCall"]}]}"#.utf8), file: "bench")
    let resolver = Resolver(context: context)
    resolver.store.setUserVocabulary(items, app: "Contacts", type: "contactName")
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
