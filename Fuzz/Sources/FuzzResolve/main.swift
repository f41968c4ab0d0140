// The resolver: a `parlance resolve` JSON line (first byte even) against the demo's vocabularies,
// or a parse whose names are resolved (first byte odd).
import FuzzSupport

runFuzzer(warmUp: warmUpInputs(prefix: [1])) { LLVMFuzzerTestOneInput($0, $1) }
