import Foundation
import LiveGateDomain
import NIOCore

/// The dashboard's files — plain HTML, CSS and JavaScript in `Dashboard/Assets`, shipped as this
/// module's resources — read once, with the content type each is served with.
package struct DashboardAssets: Sendable {
    package struct File: Sendable {
        package let contentType: String
        package let body: ByteBuffer
    }

    /// The pages, by route name (`message-activity-log`), and the files they load, by file name.
    package let pages: [String: File]
    package let assets: [String: File]

    /// This module's bundled files, read on first use.
    package static let bundled = DashboardAssets(directory: Bundle.module.url(forResource: "Assets", withExtension: nil))

    static let contentTypes = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml",
    ]

    /// Reads every file of `directory` whose kind the dashboard serves: `.html` files become pages,
    /// the rest assets. A missing folder gives none (every dashboard URL is then a 404).
    package init(directory: URL?) {
        var pages: [String: File] = [:]
        var assets: [String: File] = [:]
        let files = directory.flatMap { try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil) } ?? []
        for file in files {
            guard let contentType = Self.contentTypes[file.pathExtension], let data = try? Data(contentsOf: file) else { continue }
            let served = File(contentType: contentType, body: ByteBuffer(bytes: data))
            if file.pathExtension == "html" {
                pages[file.deletingPathExtension().lastPathComponent] = served
            } else {
                assets[file.lastPathComponent] = served
            }
        }
        self.pages = pages
        self.assets = assets
    }
}
