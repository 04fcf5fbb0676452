import ArgumentParser
import Output

/// A clawnet command: ArgumentParser parses it; `Clawnet.main` runs it with the one
/// `CommandContext` of the process (a test, with a recorded one). It parses, makes one library
/// call and renders through Output; it returns the status its result means
/// (`Report.exitStatus`) or throws what stopped it (`Clawnet.status(after:)` maps that).
protocol ClawnetCommand: AsyncParsableCommand {
    var global: GlobalOptions { get }
    func run(_ context: CommandContext) async throws -> ExitStatus
}

extension ClawnetCommand {
    /// ArgumentParser's entry, for a command run without `Clawnet.main`: the same as there.
    mutating func run() async throws {
        let status = await Clawnet.execute(self, context: .live(global))
        if status != ExitStatus.success.rawValue { throw ExitCode(status) }
    }
}
