// The parser on the built-in demo context: readings, templates, the trained tier, refinement.
import FuzzSupport

runFuzzer(warmUp: warmUpInputs()) { LLVMFuzzerTestOneInput($0, $1) }
