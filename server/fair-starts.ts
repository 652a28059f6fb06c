// Fair starts: requests begin in the order they arrived, one per turn of the event loop
// (docs/decisions/0082-fair-starts.md).
import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";

/**
 * Wraps the request listener so that at most one request starts per turn of the event loop, in
 * arrival order; the others wait in a queue for their turn.
 *
 * libuv accepts one new connection per turn (https://github.com/libuv/libuv/pull/3696). A turn in
 * which every kept-alive connection's request is begun whole lasts as long as all of them together,
 * so under load a newly opened connection waits in the kernel's queue for seconds while the
 * connections already open are served again and again (a p99 of 3 s against a p50 of 0.17 s for the
 * rendered dashboard in `npm run bench`). One start per turn keeps each turn about one request long:
 * the listening socket is polled between any two starts, and a new visitor waits behind the requests
 * that came before theirs, not behind every request that comes after.
 *
 * A request whose client has gone while it waited is not started. Only the start is queued: what a
 * request does after its first `await` (a stream, a download, an export) runs as it did.
 */
export function fairStarts(listener: RequestListener): RequestListener {
  const waiting: Array<() => void> = [];
  let turnTaken = false;

  const nextTurn = () => {
    const start = waiting.shift();
    if (start === undefined) {
      turnTaken = false;
      return;
    }
    setImmediate(nextTurn);
    start();
  };

  return (req: IncomingMessage, res: ServerResponse) => {
    const start = () => {
      if (!req.socket?.destroyed) listener(req, res);
    };
    if (turnTaken) {
      waiting.push(start);
      return;
    }
    turnTaken = true;
    setImmediate(nextTurn);
    start();
  };
}
