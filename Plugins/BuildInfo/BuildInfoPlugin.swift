import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` (the git commit the build comes from) before every build, so
/// `clawnet --version` can say what it was built from. The script rewrites the file only
/// when its content changes, so an unchanged commit costs no recompilation.
@main
struct BuildInfoPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo")
        let script = context.package.directoryURL.appending(path: "Plugins/BuildInfo/build-info.sh")
        // A prebuild command may run a system tool (not one built from source): /bin/sh is one.
        return [
            .prebuildCommand(
                displayName: "Recording the git commit for --version",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, context.package.directoryURL.path, output.path],
                outputFilesDirectory: output),
        ]
    }
}
