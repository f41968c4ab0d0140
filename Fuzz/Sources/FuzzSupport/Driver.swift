import Foundation
import Parlance

/// libFuzzer's driver, for a program that has its own `main` (SwiftPM's executables do):
/// parses libFuzzer's options and calls back for every input. Linked from the toolchain's
/// libFuzzer by `-sanitize=fuzzer`.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer over a harness's `LLVMFuzzerTestOneInput`. Each harness defines that function
/// itself (with state in lazily initialized statics), so that it also works when the link picks
/// libFuzzer's own `main`, which calls it directly. A crash, a trap (a failed precondition, an
/// index out of range), a sanitizer report or a hang past `-timeout` stops the run with the
/// input saved.
///
/// `warmUp` inputs run first, before libFuzzer's clock for `-timeout` starts: a harness that
/// loads a language on its first input in that language (grammar compilation, models) passes
/// one input per language, so that no fuzzed input is charged with it.
public func runFuzzer(warmUp: [[UInt8]] = [], _ testOneInput: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
    for bytes in warmUp { _ = bytes.withUnsafeBufferPointer { testOneInput($0.baseAddress, $0.count) } }
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
}

/// An input's bytes.
public func input(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Data {
    data.map { Data(bytes: $0, count: size) } ?? Data()
}

/// The locales a harness spreads its inputs over: the six parsed languages, and two with a
/// text layer only.
public let fuzzLocales = ["en-US", "es-ES", "fr-FR", "de-DE", "it-IT", "pt-BR", "ja-JP", "zh-CN"].map { try! ParlanceLocale($0) }

/// One fixed reference time, so that a crash reproduces.
public let fuzzTime = ReferenceTime(year: 2026, month: 11, day: 20, hour: 18, minute: 30, utcOffsetSeconds: 3600)

/// The first byte picks a locale, the rest is the text (as UTF-8, invalid bytes repaired, as
/// the batch reader would hand it on).
public func localeAndText(_ data: Data) -> (ParlanceLocale, String) {
    guard let first = data.first else { return (fuzzLocales[0], "") }
    return (fuzzLocales[Int(first) % fuzzLocales.count], String(decoding: data.dropFirst(), as: UTF8.self))
}

/// The body of a text harness: the input as a locale and a text (see `localeAndText`).
public func withLocaleAndText(_ bytes: UnsafePointer<UInt8>?, _ size: Int, _ body: (ParlanceLocale, String) -> Void) -> CInt {
    let (locale, text) = localeAndText(input(bytes, size))
    body(locale, text)
    return 0
}

/// One text input per locale of `fuzzLocales` (see `localeAndText`), after `prefix`: the
/// warm-up of a harness that parses.
public func warmUpInputs(prefix: [UInt8] = []) -> [[UInt8]] {
    fuzzLocales.indices.map { prefix + [UInt8($0)] + Array("hello".utf8) }
}
