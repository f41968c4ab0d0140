import Foundation
import Testing

/// `parlance compile`: the compiled images made ahead, found up to date the next time, and
/// used by a parse.
@Suite struct CompileCommandTests {
    @Test func compileMakesTheImagesThenFindsThemUpToDate() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("parlance-compile-\(UUID().uuidString)")
        let first = try CommandRun(["compile", "--language", "en", "--language", "fr"], environment: ["PARLANCE_CACHE_DIR": cache.path])
        #expect(first.status == 0)
        let lines = first.stdout.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(lines.map { [$0[0], $0[1], $0[2]] } == [["en", "grammar", "built"], ["fr", "grammar", "built"]])
        for line in lines { #expect(FileManager.default.fileExists(atPath: line[5])) }
        let second = try CommandRun(["compile", "--language", "en"], environment: ["PARLANCE_CACHE_DIR": cache.path])
        #expect(second.stdout.hasPrefix("en\tgrammar\tread\t"))
        // A parse reads the images (and writes the others it needs: model, lexicons, names).
        let parse = try CommandRun(
            ["parse", "Envoie un message à Bobo sur MonkeyChat", "--locale", "fr-FR"], environment: ["PARLANCE_CACHE_DIR": cache.path])
        #expect(parse.status == 0)
        #expect(parse.stdout.contains("\"sendMessage\""))
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.path)
        #expect(files.contains { $0.hasPrefix("model-fr-") } && files.contains { $0.hasPrefix("names-all-") })
    }

    @Test func compileRefusesAnUnknownLanguageAndACacheTurnedOff() throws {
        let unknown = try CommandRun(["compile", "--language", "xx"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no grammar for 'xx'"))
        let off = try CommandRun(["compile"], environment: ["PARLANCE_CACHE_DIR": "off"])
        #expect(off.status != 0)
        #expect(off.stderr.contains("cache is off"))
    }
}
