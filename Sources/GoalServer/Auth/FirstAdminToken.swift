import GoalModel
public import GoalStore
public import Logging

extension TokenAdministration {
    /// The first start's admin token (docs/RULES.md "Security"): when the store holds no token at all, creates
    /// `admin` (role admin) and writes its secret plus a newline to `path`, created exclusively with mode 0600.
    ///
    /// The file is never overwritten. If the store has no token but the file already exists (the database was
    /// removed), the file's secret is registered as `admin` again, so the file stays the way in; the file must then
    /// hold a well-formed secret and be readable by its owner only.
    /// - Parameters:
    ///   - storage: The open store.
    ///   - path: `ServerConfiguration.adminTokenPath`.
    ///   - logger: Where the creation is logged (never the secret).
    /// - Returns: The secret when a new one was made by this call (show it only on a TTY); nil otherwise.
    /// - Throws: `adminTokenFile` (unsafe or malformed file, cannot write), `nameTaken`, `storage`.
    public static func ensureFirstAdminToken(
        storage: any LeagueStorage,
        path: String,
        logger: Logger
    ) throws(TokenAdministrationError) -> TokenSecret? {
        let administration = TokenAdministration(storage: storage)
        guard try administration.list().isEmpty else { return nil }
        if OwnerOnlyFile.exists(path) {
            let secret = try existingSecret(at: path)
            _ = try administration.register(name: "admin", role: .admin, secret: secret)
            logger.info("goald.token.admin_reregistered", metadata: ["goal.token.file": "\(path)"])
            return nil
        }
        let secret = TokenSecret.generate()
        do {
            try OwnerOnlyFile.writeExclusively(Array((secret.text + "\n").utf8), to: path)
        } catch {
            throw .adminTokenFile(
                path: path,
                reason: error.exists ? "appeared while goald was writing it" : error.reason
            )
        }
        do {
            _ = try administration.register(name: "admin", role: .admin, secret: secret)
        } catch {
            OwnerOnlyFile.removeIfPresent(path)
            throw error
        }
        logger.info("goald.token.admin_created", metadata: ["goal.token.file": "\(path)"])
        return secret
    }

    private static func existingSecret(at path: String) throws(TokenAdministrationError) -> TokenSecret {
        if let mode = OwnerOnlyFile.permissions(of: path), mode & 0o077 != 0 {
            throw .adminTokenFile(
                path: path,
                reason: "its mode is \(String(mode, radix: 8)); other users may have read it. Delete it so goald makes "
                    + "a new one, or `chmod 600` it if it is safe"
            )
        }
        let bytes: [UInt8]
        do {
            bytes = try OwnerOnlyFile.read(path)
        } catch {
            throw .adminTokenFile(path: path, reason: error.reason)
        }
        guard let secret = TokenSecret(text: String(decoding: bytes, as: UTF8.self)) else {
            throw .adminTokenFile(
                path: path,
                reason: "it exists but does not hold a token secret (43 base64url characters); the store has no "
                    + "tokens, so delete the file and restart goald to make a new admin token"
            )
        }
        return secret
    }
}
