// One line of `parlance batch` input: JSON decoding (depth, size, fields), then the parse.
import FuzzSupport

// Warm-up: one line in each parsed language.
let warmUp = ["en-US", "es-ES", "fr-FR", "de-DE", "it-IT", "pt-BR"].map { Array(#"{"locale": "\#($0)", "text": "hello"}"#.utf8) }
runFuzzer(warmUp: warmUp) { LLVMFuzzerTestOneInput($0, $1) }
