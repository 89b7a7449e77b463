// A webhook receiver for the benches: HTTP/1.1 with keep-alive on loopback, answering 204 to every
// POST once its body is read, counting what it got. Prints its port, then runs until killed; on
// SIGTERM it prints how many requests it got. Node's HTTP server spends a fraction of what a Python
// one does a request, so the receiver takes little of the two cores the server under test shares.
// Usage: node bench/webhook_receiver.mjs
import http from 'node:http';

let received = 0;
const server = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    received += 1;
    response.writeHead(204);
    response.end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
process.on('SIGTERM', () => {
  console.error(`received ${received}`);
  process.exit(0);
});
