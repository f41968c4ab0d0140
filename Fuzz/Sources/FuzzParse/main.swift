// The parser on the built-in demo context: readings, templates, the trained tier, refinement.
import FuzzSupport

runFuzzer { LLVMFuzzerTestOneInput($0, $1) }
