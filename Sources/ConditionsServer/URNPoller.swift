/// Asks the coordinator for one URN every so often, whether or not a client is connected: the
/// loop `serve`'s notifications (`NoticePollers`) and Home Assistant devices
/// (`HomeAssistantPublisher`) share. Each poll goes through the coordinator, so history, event
/// streams and HTTP clients see the same answers and an upstream is asked at most once per TTL
/// however many pollers and clients want the URN.
struct URNPoller {
    let coordinator: ResultCoordinator

    /// Resolves `urn` at once and then every `seconds`, giving each answer to `body`, until
    /// the task is cancelled.
    func poll(_ urn: String, every seconds: Double, _ body: (ResultCoordinator.Answer) async -> Void) async {
        while !Task.isCancelled {
            await body(await coordinator.resolve(urn))
            try? await Task.sleep(for: .seconds(seconds))
        }
    }
}
