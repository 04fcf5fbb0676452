import ArgumentParser

/// A word where a command's name goes that names none (`clawnet nosuch`, `clawnet help nosuch`,
/// `clawnet zone nosuch`): a usage error that lists the commands there. ArgumentParser's own
/// `help nosuch` prints the top-level help and exits 0, as if all were well.
enum CommandNames {
    /// The unknown name, the command it was looked for under and the path to that command.
    struct Unknown {
        let word: String
        let parent: any ParsableCommand.Type
        let path: [String]

        /// "no command 'zone nosuch'; zone's commands: generate, push, check".
        var message: String {
            let names = parent.configuration.subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
            let whose = path.isEmpty ? "commands" : "\(path.joined(separator: " "))'s commands"
            return "no command '\((path + [word]).joined(separator: " "))'; \(whose): \(names.joined(separator: ", "))"
        }
    }

    /// The first word of `arguments` (after `help`, if that comes first) that should name a
    /// command under `root` and names none; nil when every such word names one, or an option
    /// or a command without subcommands ends the names.
    static func unknown(in arguments: [String], root: any ParsableCommand.Type) -> Unknown? {
        let words = arguments.first == "help" ? arguments.dropFirst() : arguments[...]
        var command = root
        var path: [String] = []
        for word in words {
            let subcommands = command.configuration.subcommands
            // `help` under a command is ArgumentParser's to read.
            guard !subcommands.isEmpty, !word.hasPrefix("-"), word != "help" else { return nil }
            guard let next = subcommands.first(where: { $0._commandName == word || $0.configuration.aliases.contains(word) }) else {
                return Unknown(word: word, parent: command, path: path)
            }
            command = next
            path.append(word)
        }
        return nil
    }
}
