import ArgumentParser
import Foundation
import Parlance

/// `parlance resolve`: a said name against an app's vocabulary of one type.
struct Resolve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Resolve a said name against an app's vocabulary (contacts, workouts, albums…).",
        discussion: """
            With QUERY, prints {"resolution": {"kind", "items": [{"id", "display", "score"}], "reason"}}. \
            Without, reads JSON Lines {"id", "locale", "app", "type", "query"} from standard input (or --input) \
            and writes one {"id", "resolution"} line per input line, in order; --app, --type and --locale are \
            the defaults for lines without them. A line that cannot be resolved gets "resolution": null and an \
            "error"; exit status 1 when any did. Kinds: success, confirmationRequired, disambiguation, \
            needsMoreDetails, unsupported (needsValue and notRequired come from parsing a whole request).
            """
    )

    @OptionGroup var contextOptions: ContextOptions

    @Option(name: .long, help: "The app whose vocabulary to search (default: every app of the context).")
    var app: String?

    @Option(name: .long, help: "Vocabulary type, e.g. contactName, workoutActivityName, photoAlbumName.")
    var type: String?

    @Option(name: .long, help: "BCP 47 locale of the query (its sound-alike rules apply).")
    var locale: String = "en-US"

    @Flag(name: .long, help: "Add the scored candidates, component by component.")
    var explain = false

    @Option(name: .long, help: "Parallel workers for JSON Lines input (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: "Read JSON Lines from this file instead of standard input.")
    var input: String?

    @Argument(help: "The name as said.")
    var query: String?

    func validate() throws {
        do { _ = try ParlanceLocale(locale) } catch { throw ValidationError(error.description) }
        if query != nil, type == nil { throw ValidationError("--type is required with a QUERY (e.g. --type contactName)") }
        if query != nil, input != nil { throw ValidationError("give a QUERY or --input, not both") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
    }

    func run() throws {
        let context = try contextOptions.load()
        let resolver = Resolver(context: context)
        if let query, let type {
            let answer: Resolver.Answer
            do {
                answer = try resolver.resolve(query, app: app, type: type, locale: ParlanceLocale(locale))
            } catch let error as ResolverError {
                throw ValidationError(error.description)
            }
            let record = ResolveRecord(
                id: nil, resolution: answer.resolution, candidates: explain ? Array(answer.candidates.prefix(12)) : nil, error: nil)
            print(try ParlanceJSON.line(ResolveOutput(record: record)))
            return
        }
        let processor = ResolveLineProcessor(
            resolver: resolver, defaultLocale: locale, defaultApp: app, defaultType: type, explain: explain)
        let failures = try BatchRunner(processor: processor, jobs: jobs).run(input: openInput(input), output: .standardOutput)
        if failures > 0 { throw ExitCode(ExitStatus.failed) }
    }
}

/// A single query's output: `{"resolution"}` (and `candidates` when explaining).
struct ResolveOutput: Encodable {
    let record: ResolveRecord
    enum CodingKeys: String, CodingKey { case resolution, candidates }
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(record.resolution, forKey: .resolution)
        try c.encodeIfPresent(record.candidates, forKey: .candidates)
    }
}
