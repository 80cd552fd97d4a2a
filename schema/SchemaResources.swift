import Foundation

/// The numbered SQL migrations in `schema/migrations`, shipped as this module's resources.
public enum SchemaResources {
    /// Each migration's version (from its `NNN_` prefix), name and SQL, in version order.
    public static func migrations() throws -> [(version: Int, name: String, sql: String)] {
        guard let directory = Bundle.module.url(forResource: "migrations", withExtension: nil) else { return [] }
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        return try files
            .filter { $0.pathExtension == "sql" }
            .compactMap { file -> (Int, String, String)? in
                let name = file.deletingPathExtension().lastPathComponent
                guard let version = Int(name.prefix { $0.isNumber }) else { return nil }
                return (version, name, try String(contentsOf: file, encoding: .utf8))
            }
            .sorted { $0.0 < $1.0 }
    }
}
