// A donation journal (JSON Lines of donate/delete events) replayed against the demo context.
import FuzzSupport

runFuzzer { LLVMFuzzerTestOneInput($0, $1) }
