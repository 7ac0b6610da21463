import ArgumentParser
import ConditionsCore

/// `conditions completion bash|zsh|fish`: the shell completion script, for the shell's
/// completion folder (README, Usage).
struct CompletionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "completion",
        abstract: "Print the shell completion script for bash, zsh or fish.",
        discussion: """
        Examples:
          conditions completion bash > ~/.local/share/bash-completion/completions/conditions
          conditions completion zsh > "${fpath[1]}/_conditions"
          conditions completion fish > ~/.config/fish/completions/conditions.fish
        """)

    @Argument(help: ArgumentHelp("bash, zsh or fish.", valueName: "shell"))
    var shell: String

    func validate() throws {
        guard CompletionShell(rawValue: shell) != nil else {
            throw ValidationError("unknown shell \"\(shell)\"; completion scripts exist for bash, zsh and fish")
        }
    }

    func run() throws {
        guard let kind = CompletionShell(rawValue: shell) else { return }
        write(ConditionsCommand.completionScript(for: kind), to: .standardOutput)
    }
}
