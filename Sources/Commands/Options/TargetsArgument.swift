import ArgumentParser
import Doctor

/// `TARGET...` of doctor and preflight: URLs, HOST[:PORT] or instance names.
struct TargetsArgument: ParsableArguments {
    @Argument(
        help: ArgumentHelp("Gateways to check: URLs, HOST[:PORT] or instance names.", valueName: "TARGET"), transform: Arguments.target)
    var targets: [DoctorTarget] = []
}
