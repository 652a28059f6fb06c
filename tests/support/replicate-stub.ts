import { sendJson, startStubServer, type StubHandler, type StubServer } from "./ai-stub-server";

/**
 * A local stand-in for Replicate's predictions API (the studio's remote video provider), on the AI
 * stub server (ai-stub-server.ts, which records every request). Each POST to
 * /v1/models/<model>/predictions makes a prediction (pred-1, pred-2, …, answered 201 "starting"), and
 * each GET of /v1/predictions/<id> is counted. By default a prediction answers "processing" forever,
 * so jobs stay busy as long as a test needs and a stopped render shows as polls that stop; with
 * `video`, it answers "processing" to its first `processingPolls` polls and then "succeeded", its
 * output a link to `bytes` served by the stub (/files/<id>.webm). Anything else goes to `otherwise`
 * (e.g. an OpenAI-compatible server played by the same stub), or is a 404.
 */
export interface ReplicateStubOptions {
  model?: string;
  video?: { bytes: Buffer; processingPolls: number };
  otherwise?: StubHandler;
}

export interface ReplicateStub extends StubServer {
  model: string;
  /** Polls of each prediction, by its id. */
  polls: Map<string, number>;
  /** The prompt each prediction was made for, by its id. */
  prompts: Map<string, string>;
  /** Polls of every prediction together. */
  totalPolls(): number;
  /** The settings that send a studio's video jobs to this stub. */
  env(token: string): Record<string, string>;
}

export async function startReplicateStub(options: ReplicateStubOptions = {}): Promise<ReplicateStub> {
  const model = options.model ?? "acme/text2video";
  const polls = new Map<string, number>();
  const prompts = new Map<string, string>();
  let predictions = 0;
  const stub: StubServer = await startStubServer((request, response) => {
    if (request.path === `/v1/models/${model}/predictions`) {
      const id = `pred-${++predictions}`;
      prompts.set(id, String((request.json as { input?: { prompt?: string } })?.input?.prompt ?? ""));
      return sendJson(response, 201, { id, status: "starting" });
    }
    const poll = /^\/v1\/predictions\/(pred-\d+)$/.exec(request.path);
    if (poll) {
      const id = poll[1];
      const seen = (polls.get(id) ?? 0) + 1;
      polls.set(id, seen);
      const succeeded = options.video !== undefined && seen > options.video.processingPolls;
      return sendJson(response, 200, {
        id,
        status: succeeded ? "succeeded" : "processing",
        output: succeeded ? [`${stub.url}/files/${id}.webm`] : null,
      });
    }
    const file = /^\/files\/(pred-\d+)\.webm$/.exec(request.path);
    if (file && options.video) {
      response.writeHead(200, { "Content-Type": "video/webm" });
      return response.end(options.video.bytes);
    }
    if (options.otherwise) return options.otherwise(request, response);
    sendJson(response, 404, { error: "not found" });
  });
  return {
    ...stub,
    model,
    polls,
    prompts,
    totalPolls: () => [...polls.values()].reduce((sum, count) => sum + count, 0),
    env: (token) => ({
      REPLICATE_API_TOKEN: token,
      REPLICATE_VIDEO_MODEL: model,
      REPLICATE_BASE_URL: `${stub.url}/v1`,
    }),
  };
}
