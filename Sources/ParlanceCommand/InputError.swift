import ArgumentParser
import Foundation
import Parlance

#if canImport(Glibc)
    import Glibc
#endif

/// The command's exit statuses (README "Exit status"), in one place.
enum ExitStatus {
    /// Done, but something failed: a line's error record, a truncated input, a failed gate.
    static let failed: Int32 = 1
    /// A usage or input error (sysexits' EX_USAGE).
    static let input: Int32 = 64
    /// Output that could not be written (sysexits' EX_IOERR).
    static let output: Int32 = 74
}

/// A problem with what the command was given to read — a context, a vocabulary file, a
/// donation journal, a thresholds file — rather than with its flags: said on standard error
/// as "Error: …" without the usage text (which is about flags), with the usage and input
/// exit status, 64. Flag errors stay `ValidationError` (usage shown, 64). A corpus's
/// `CorpusError` (it names the file and line) ends the run the same way.
struct InputError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ParlanceCommand {
    /// Runs the command line; an `InputError` or a `CorpusError` ends it with its message and
    /// status 64, output that cannot be written with status 74.
    static func main() {
        #if canImport(Glibc)
            // Blocks of 32 KiB and more (a long line's buffers and tokens) come from mmap and go
            // back to the system when freed. glibc's default threshold rises as such blocks are
            // freed, after which they are carved from the heap and fragment it: a batch of a
            // million lines with 1 % long ones grew from 216 to 303 MB; with this, it stays flat.
            // (malloc.h is not in Swift's Glibc module: mallopt is looked up; M_MMAP_THRESHOLD is -3.)
            if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
                let mallopt = unsafeBitCast(symbol, to: (@convention(c) (Int32, Int32) -> Int32).self)
                _ = mallopt(-3, 32 * 1024)
            }
        #endif
        do {
            var command = try parseAsRoot()
            try command.run()
            // What print() left in the buffer: a full disk or a closed pipe fails the run.
            if fflush(nil) != 0 {
                throw BatchOutputError(reason: String(cString: strerror(errno)))
            }
        } catch let error as InputError {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            Foundation.exit(ExitStatus.input)
        } catch let error as CorpusError {
            FileHandle.standardError.write(Data("Error: \(error.description)\n".utf8))
            Foundation.exit(ExitStatus.input)
        } catch let error as BatchOutputError {
            FileHandle.standardError.write(Data("Error: cannot write to standard output: \(error.reason)\n".utf8))
            Foundation.exit(ExitStatus.output)
        } catch {
            exit(withError: error)
        }
    }
}
