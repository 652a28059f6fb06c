// Options for the node that runs the server, wherever it starts: `npm start` (package.json's `start`
// passes them on its command line, as node takes V8's heap sizes only when it starts) and the test
// launcher (tests/harness/launch.mjs). tests/unit/server-node-options.test.ts fails when one is dropped.
//
// --max-semi-space-size=16: V8's young generation at most 2 x 16 MiB, as Node 20's default. Node 24's
// grows to 2 x 64 MiB under a sustained allocation rate (the account export), and keeps what it
// touched; the other requests measured no cost (docs/decisions/0084).
export const SERVER_NODE_OPTIONS = ["--max-semi-space-size=16"];
