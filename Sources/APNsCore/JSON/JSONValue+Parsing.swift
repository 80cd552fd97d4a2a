extension JSONValue {
    /// Reads one JSON document (RFC 8259, strictly: no comments, trailing commas, leading zeros,
    /// NaN/Infinity, byte order mark, lone surrogates, raw control characters or invalid UTF-8).
    ///
    /// - Parameters:
    ///   - bytes: the UTF-8 document. Contiguous collections (`[UInt8]`, buffer pointers, `Data`) are
    ///     read in place; anything else is copied once.
    ///   - maxDepth: how deeply arrays and objects may nest. It also bounds the parser's recursion, so
    ///     keep it modest.
    /// - Throws: ``JSONParseError`` naming what was wrong and at which byte.
    public static func parse<Bytes: Collection>(
        _ bytes: Bytes, maxDepth: Int = 64
    ) throws(JSONParseError) -> JSONValue where Bytes.Element == UInt8 {
        let inPlace = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer, maxDepth: maxDepth) }
        }
        if let inPlace { return try inPlace.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try JSONParser.parse(buffer, maxDepth: maxDepth) }
        }.get()
    }

    /// Reads one JSON document from text, as the byte-based `parse` does.
    public static func parse(_ text: String, maxDepth: Int = 64) throws(JSONParseError) -> JSONValue {
        try parse(text.utf8, maxDepth: maxDepth)
    }
}
