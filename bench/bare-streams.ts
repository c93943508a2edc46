/**
 * The baseline of bench/flash-sale.bench.ts's held tabs: bare node:http servers that answer every request with
 * the same first server-sent event and hold it open, as many processes sharing one port (node:cluster, each
 * accepting for itself, as the shop's workers do) as the shop has workers, since one process may hold only
 * so many open files. `node --import tsx bench/bare-streams.ts <port> <workers> <first event as JSON>`;
 * prints "ready" once every process listens, and ends on SIGTERM.
 */
import cluster from "node:cluster";
import { createServer } from "node:http";

const [port = "0", workers = "1", first = '""'] = process.argv.slice(2);

if (cluster.isPrimary) {
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  let listening = 0;
  cluster.on("listening", () => {
    listening++;
    if (listening === Number(workers)) process.stdout.write("ready\n");
  });
  for (let index = 0; index < Number(workers); index++) cluster.fork();
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
    process.exit(0);
  });
} else {
  const event = JSON.parse(first) as string;
  const server = createServer((_request, response) => {
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-store" });
    response.write(event);
  });
  server.listen(Number(port), "127.0.0.1");
}
