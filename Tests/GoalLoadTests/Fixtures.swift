import GoalTransport

/// Endpoints used by several tests.
enum ServerEndpointFixture {
    static func loopback() throws -> ServerEndpoint { try ServerEndpoint(parsing: "wss://127.0.0.1:7443") }
    static func named() throws -> ServerEndpoint { try ServerEndpoint(parsing: "wss://localhost:7443") }
}
