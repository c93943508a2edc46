// A backup made with COPY over the shop's own connection, for a server no pg_dump of its major version is at
// hand for (the embedded PostgreSQL 18: its package ships no pg_dump, and Debian 12's is 15). See
// docs/decisions/030.
import { once } from "node:events";
import { createReadStream, createWriteStream } from "node:fs";
import { cp, mkdtemp, open, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { from as copyFrom, to as copyTo } from "pg-copy-streams";
import { migrationsFolder } from "../server/db/client.ts";
import { log, serializeError } from "../server/log.ts";

/** The first line of such a backup; the JSON after it says what it holds. */
const MAGIC = "-- shop-copy-backup 1 ";
/** The shop's tables, and the migration journal that says which migrations made them. */
const SCHEMAS = ["public", "drizzle"];

type Manifest = { migrations: number; server: string; at: string };

/**
 * A connection lost mid-restore ("terminating connection due to administrator command", a restart) fails
 * the query awaiting it, which ends the backup or restore with that error; pg also emits "error" on the
 * client (and the pool, for an idle one), and an "error" nobody listens to ends the whole process.
 */
export function logLostConnections<T extends pg.Client | pg.Pool>(connection: T): T {
  const warn = (error: Error) => log.warn({ err: serializeError(error) }, "database connection lost");
  if (connection instanceof pg.Pool) {
    connection.on("error", warn);
    // A pool's checked-out clients emit on their own.
    connection.on("connect", (client) => client.on("error", warn));
  } else {
    connection.on("error", warn);
  }
  return connection;
}

/** A client for these scripts, already listening for a lost connection. */
export const scriptClient = (url: string) => logLostConnections(new pg.Client({ connectionString: url }));

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Whether `file` is a backup of this kind (rather than a pg_dump archive). */
export async function isCopyBackup(file: string): Promise<boolean> {
  const head = Buffer.alloc(2);
  const handle = await open(file);
  try {
    await handle.read(head, 0, 2, 0);
  } finally {
    await handle.close();
  }
  return head[0] === 0x1f && head[1] === 0x8b;
}

/**
 * Every row of the shop's tables, as COPY text, gzipped, from one consistent snapshot (a REPEATABLE READ
 * transaction): orders placed while it runs are either wholly in it or not at all. Sequences follow.
 */
export async function copyBackup(url: string, file: string): Promise<{ tables: number; rows: number }> {
  const client = scriptClient(url);
  await client.connect();
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(file));
  const write = async (text: string | Buffer) => {
    if (!gzip.write(text)) await once(gzip, "drain");
  };
  let rows = 0;
  try {
    await client.query("begin transaction isolation level repeatable read read only");
    const server = (await client.query<{ v: string }>("show server_version")).rows[0]?.v ?? "";
    const migrations = Number(
      (await client.query<{ n: string }>("select count(*) as n from drizzle.__drizzle_migrations")).rows[0]
        ?.n,
    );
    const manifest: Manifest = { migrations, server, at: new Date().toISOString() };
    await write(`${MAGIC}${JSON.stringify(manifest)}\n`);

    const tables = (
      await client.query<{ schema: string; name: string; columns: string[] }>(
        `select c.table_schema as schema, c.table_name as name,
                array_agg(c.column_name::text order by c.ordinal_position) as columns
           from information_schema.columns c
           join information_schema.tables t using (table_schema, table_name)
          where t.table_type = 'BASE TABLE' and c.table_schema = any($1) and c.is_generated = 'NEVER'
          group by 1, 2 order by 1, 2`,
        [SCHEMAS],
      )
    ).rows;
    for (const table of tables) {
      const target = `${quote(table.schema)}.${quote(table.name)} (${table.columns.map(quote).join(", ")})`;
      await write(`COPY ${target} FROM stdin;\n`);
      const out = client.query(copyTo(`COPY ${target} TO STDOUT`));
      for await (const chunk of out) await write(chunk as Buffer);
      rows += out.rowCount ?? 0;
      await write("\\.\n");
    }

    const sequences = (
      await client.query<{ schema: string; name: string; value: string | null }>(
        `select schemaname as schema, sequencename as name, last_value::text as value
           from pg_sequences where schemaname = any($1) order by 1, 2`,
        [SCHEMAS],
      )
    ).rows;
    for (const sequence of sequences) {
      const name = `${quote(sequence.schema)}.${quote(sequence.name)}`;
      await write(
        `SELECT setval('${name.replaceAll("'", "''")}', ${sequence.value ?? 1}, ${sequence.value !== null});\n`,
      );
    }
    await client.query("commit");
    gzip.end();
    await written;
    return { tables: tables.length, rows };
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** Migrates `url` to the first `count` of the shop's migrations: the schema the backup's rows were taken from. */
async function migrateTo(url: string, count?: number) {
  // A client, not a pool: drizzle's transaction() (0.45) leaks a pool's client when its BEGIN fails (a
  // connection cut as it was handed out; server/db/client.ts's releaseClientOnFailedBegin), and pool.end()
  // then waits for that client forever: a restore that hung instead of failing.
  const client = scriptClient(url);
  let folder = migrationsFolder;
  try {
    await client.connect();
    if (count !== undefined) {
      folder = await mkdtemp(path.join(tmpdir(), "shop-migrations-"));
      await cp(migrationsFolder, folder, { recursive: true });
      const journalPath = path.join(folder, "meta", "_journal.json");
      const journal = JSON.parse(await readFile(journalPath, "utf8")) as { entries: unknown[] };
      if (count > journal.entries.length) {
        throw new Error(
          `The backup comes from a newer version of the shop (${count} migrations; this one has ${journal.entries.length}). Restore it with that version.`,
        );
      }
      journal.entries = journal.entries.slice(0, count);
      await writeFile(journalPath, JSON.stringify(journal));
    }
    await migrate(drizzle(client), { migrationsFolder: folder });
  } finally {
    await client.end();
    if (folder !== migrationsFolder) await rm(folder, { recursive: true, force: true });
  }
}

/** A table's rows from a backup, each with its newline, up to the `\\.` that ends them. */
async function* tableRows(lines: AsyncIterator<string>) {
  for (let row = await lines.next(); !row.done && row.value !== "\\."; row = await lines.next()) {
    yield `${row.value}\n`;
  }
}

/**
 * Replaces the database's contents with the backup's: the schema is dropped and built again by the
 * migrations the backup was taken at, its rows are copied in (as a replica: no triggers, no foreign-key
 * checks while tables fill in any order) in one transaction with the sequences, and the migrations since
 * are applied on top. Meant for a stopped shop; run again if it is interrupted.
 */
export async function copyRestore(url: string, file: string): Promise<{ rows: number }> {
  const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  const iterator = lines[Symbol.asyncIterator]();
  const first = (await iterator.next()).value as string | undefined;
  if (!first?.startsWith(MAGIC)) throw new Error(`${file} is not a backup made by npm run backup.`);
  const manifest = JSON.parse(first.slice(MAGIC.length)) as Manifest;

  const wipe = scriptClient(url);
  await wipe.connect();
  try {
    await wipe.query(
      "drop schema if exists drizzle cascade; drop schema public cascade; create schema public",
    );
  } finally {
    await wipe.end();
  }
  await migrateTo(url, manifest.migrations);

  const client = scriptClient(url);
  await client.connect();
  let rows = 0;
  try {
    await client.query("begin");
    await client.query("set local session_replication_role = replica");
    // The migrations seed rows of their own (the GST rates, the shop's details, the banner): the backup's
    // rows replace them, so every table starts empty, all in one statement for the foreign keys' sake.
    const tables = (
      await client.query<{ name: string }>(
        `select quote_ident(table_schema) || '.' || quote_ident(table_name) as name
           from information_schema.tables where table_type = 'BASE TABLE' and table_schema = any($1)`,
        [SCHEMAS],
      )
    ).rows.map((table) => table.name);
    await client.query(`truncate ${tables.join(", ")}`);
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const line = next.value;
      if (line.startsWith("COPY ")) {
        const target = line.slice("COPY ".length, line.length - " FROM stdin;".length);
        const input = client.query(copyFrom(`COPY ${target} FROM STDIN`));
        // pipeline, not writes awaiting "drain": a connection cut before the COPY starts errors the stream
        // while the next line is being read, and a wait for "drain" begun after that would never end.
        await pipeline(tableRows(iterator), input);
        rows += input.rowCount ?? 0;
      } else if (line.startsWith("SELECT setval(")) {
        await client.query(line);
      } else if (line !== "") {
        throw new Error(`Unexpected line in ${file}: ${line.slice(0, 80)}`);
      }
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
  await migrateTo(url);
  return { rows };
}
