import ArgumentParser
import Foundation
import Parlance

/// `parlance compile`: the compiled language images, made ahead of the first parse.
struct Compile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make each language's compiled image ahead of the first parse (or check it is up to date).",
        discussion: """
            A language's grammar (its automata, templates and lexicons) is compiled once into a binary image \
            in the cache folder: PARLANCE_CACHE_DIR, else $XDG_CACHE_HOME/parlance, else ~/.cache/parlance \
            (PARLANCE_CACHE_DIR=off turns the cache off). Later starts read the image instead of compiling the \
            sources. An image is keyed by a hash of its sources, ICU's version and this build of parlance: \
            one that does not match is never read, and a damaged one is built again. Every command makes \
            the images it needs on first use; this one makes them all at once (for an image baked into a \
            container, or a first answer without the compile). Prints one line per image: language, kind, \
            read/built/rebuilt, size, milliseconds, file.
            """
    )

    @Option(name: .customLong("language"), help: "A language code (repeatable; default: every language with a grammar).")
    var languages: [String] = []

    func run() throws {
        guard let directory = IntentParser.imageCacheDirectory else {
            throw InputError("the image cache is off (PARLANCE_CACHE_DIR=off): nothing to compile")
        }
        let known = IntentParser.supportedLanguages
        for language in languages where !known.contains(language) {
            throw ValidationError("no grammar for '\(language)': the languages are \(known.joined(separator: ", "))")
        }
        let images = try IntentParser.compileImages(languages: languages.isEmpty ? nil : languages)
        for image in images {
            let size = String(format: "%.1f MB", Double(image.bytes) / 1_048_576)
            let milliseconds = String(format: "%.0f ms", image.seconds * 1000)
            print("\(image.language)\t\(image.kind)\t\(image.origin)\t\(size)\t\(milliseconds)\t\(image.file?.path ?? "-")")
        }
        if images.contains(where: { $0.file == nil }) {
            FileHandle.standardError.write(Data("note: \(directory.path) could not be used; the images were built in memory only\n".utf8))
        }
    }
}
