/// The tables replicas share besides history. Each statement is idempotent, and all run under
/// one advisory lock, so replicas starting together create them once.
enum FleetSchema {
    /// `pg_advisory_xact_lock`'s key: "COND" and 2, apart from history's migrations.
    static let lockKey: Int64 = 0x434F_4E44_0000_0002

    static let statements = [
        """
        CREATE TABLE IF NOT EXISTS fleet_documents (
            key text PRIMARY KEY,            -- SHA-256 of the request, hex
            status integer NOT NULL,
            headers text NOT NULL,           -- the response's headers, a JSON object
            body bytea NOT NULL,
            url text NOT NULL,               -- the URL that answered, secrets masked
            fetched_at timestamptz NOT NULL,
            fresh_until timestamptz NOT NULL
        )
        """,
        """
        CREATE TABLE IF NOT EXISTS fleet_leases (
            key text PRIMARY KEY,
            holder text NOT NULL,            -- host:pid:random of the replica fetching it
            expires_at timestamptz NOT NULL  -- by the database's clock
        )
        """,
    ]
}
