import Foundation
import GoalModel
import GoalServer
import GoalStore
import GoalTestSlots
import Testing

@testable import goald

@Suite("StatePreparation and the first admin token", .slotted)
struct StatePreparationTests {
    @Test("first start: state dir 0700, store open and durable, TLS generated, admin token file 0600 created once")
    func firstStart() throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        let prepared = try StatePreparation.prepare(configuration, logger: silentLogger)
        #expect(try mode(of: configuration.stateDirectory) == 0o700)
        let sqlite = try #require(prepared.storage as? SQLiteLeagueStorage)
        #expect(try sqlite.durabilitySettings() == DurabilitySettings(synchronous: 2, journalMode: "wal"))
        #expect(prepared.tls.authorityCertificatePath != nil)
        let secret = try #require(prepared.firstAdminToken)
        #expect(try String(contentsOfFile: configuration.adminTokenPath, encoding: .utf8) == secret + "\n")
        #expect(try mode(of: configuration.adminTokenPath) == 0o600)
        let tokens = try prepared.storage.tokens()
        #expect(tokens.map(\.name) == ["admin"])
        #expect(tokens.first?.role == .admin)
        #expect(tokens.first?.secretHash == TokenSecret.hash(presented: secret))
        try prepared.close()

        let again = try StatePreparation.prepare(configuration, logger: silentLogger)
        #expect(again.firstAdminToken == nil)
        #expect(try String(contentsOfFile: configuration.adminTokenPath, encoding: .utf8) == secret + "\n")
        #expect(try again.storage.tokens().count == 1)
        try again.close()
    }

    @Test("a second daemon on the same state directory is refused while the first holds it")
    func lockRefusesSecond() throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        let first = try StatePreparation.prepare(configuration, logger: silentLogger)
        let error = #expect(throws: StatePreparationError.self) {
            try StatePreparation.prepare(configuration, logger: silentLogger)
        }
        #expect(
            error?.description.contains("in use by another goald (pid \(ProcessInfo.processInfo.processIdentifier))")
                == true
        )
        try first.close()
        try StatePreparation.prepare(configuration, logger: silentLogger).close()
    }

    @Test("the admin token file is never overwritten; its secret is registered again when the store lost it")
    func adminTokenFileSurvivesDatabase() throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        let first = try StatePreparation.prepare(configuration, logger: silentLogger)
        let secret = try #require(first.firstAdminToken)
        try first.close()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: configuration.databasePath + suffix)
        }

        let second = try StatePreparation.prepare(configuration, logger: silentLogger)
        #expect(second.firstAdminToken == nil)
        #expect(try String(contentsOfFile: configuration.adminTokenPath, encoding: .utf8) == secret + "\n")
        #expect(try second.storage.token(secretHash: TokenSecret.hash(presented: secret))?.name == "admin")
        try second.close()
    }

    @Test("an unsafe or malformed admin token file stops the start with the file named")
    func unsafeAdminTokenFile() throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        try FileManager.default.createDirectory(atPath: configuration.stateDirectory, withIntermediateDirectories: true)
        try "garbage\n".write(toFile: configuration.adminTokenPath, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: configuration.adminTokenPath)
        let malformed = #expect(throws: StatePreparationError.self) {
            try StatePreparation.prepare(configuration, logger: silentLogger)
        }
        #expect(
            malformed?.description.contains("\(configuration.adminTokenPath): it exists but does not hold a token")
                == true
        )
        #expect(try String(contentsOfFile: configuration.adminTokenPath, encoding: .utf8) == "garbage\n")

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: configuration.adminTokenPath)
        let unsafe = #expect(throws: StatePreparationError.self) {
            try StatePreparation.prepare(configuration, logger: silentLogger)
        }
        #expect(unsafe?.description.contains("its mode is 644") == true)
    }

    @Test("TokenSecret: 43 base64url characters, distinct, hashed with SHA-256, never described")
    func tokenSecretShape() {
        let secrets = (0..<64).map { _ in TokenSecret.generate() }
        #expect(Set(secrets.map(\.text)).count == 64)
        for secret in secrets {
            #expect(secret.text.count == 43)
            #expect(secret.text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            #expect(TokenSecret(text: secret.text + "\n") == secret)
            #expect(secret.hash.count == 32)
        }
        #expect("\(secrets[0])" == "TokenSecret(<redacted>)")
        #expect(TokenSecret(text: "short") == nil)
        #expect(TokenSecret(text: String(repeating: "=", count: 43)) == nil)
        // SHA-256("abc"), the FIPS 180-2 example.
        #expect(
            TokenSecret.hash(presented: "abc").map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
    }
}

@Suite("GoalDaemon built from prepared state", .slotted)
struct PreparedDaemonTests {
    @Test(
        "reloadTLS re-reads the material: a damaged development certificate is re-issued, broken operator files throw"
    )
    func reloadTLS() throws {
        let directory = try TemporaryDirectory()
        let configuration = testConfiguration(directory)
        let prepared = try StatePreparation.prepare(configuration, logger: silentLogger)
        defer { try? prepared.close() }
        let daemon = try GoalDaemon(configuration: configuration, prepared: prepared, logger: silentLogger)
        let serverPath = configuration.generatedTLSDirectory + "/server.pem"
        try "damaged\n".write(toFile: serverPath, atomically: true, encoding: .utf8)
        try daemon.reloadTLS()
        #expect(try String(contentsOfFile: serverPath, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(try TLSMaterial.load(for: configuration).fingerprint != prepared.tls.fingerprint)

        let copy = directory.file("operator.pem")
        try FileManager.default.copyItem(atPath: serverPath, toPath: copy)
        let operatorFiles = ServerConfiguration(
            stateDirectory: configuration.stateDirectory,
            tls: .files(certificate: copy, privateKey: configuration.generatedTLSDirectory + "/server-key.pem")
        )
        let operatorDaemon = try GoalDaemon(configuration: operatorFiles, prepared: prepared, logger: silentLogger)
        try operatorDaemon.reloadTLS()
        try "damaged\n".write(toFile: copy, atomically: true, encoding: .utf8)
        #expect(throws: TLSError.self) { try operatorDaemon.reloadTLS() }
    }
}
