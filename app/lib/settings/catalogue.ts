import { aiLimitVariables, aiProviderVariables } from "./ai-variables";
import type { Variable } from "./define";
import { observabilityVariables } from "./observability-variables";
import { accountVariables, mediaVariables, serverVariables, storageVariables } from "./server-variables";

/**
 * Every variable the studio reads, by topic, in the order docs/configuration.md and .env.example list
 * them. app/lib/settings/env.server.ts makes its zod schema from these same records.
 */
export const SETTING_GROUPS = [
  { title: "Server", variables: serverVariables },
  { title: "Observability", variables: observabilityVariables },
  { title: "Storage", variables: storageVariables },
  { title: "Accounts and security", variables: accountVariables },
  { title: "Uploads and quotas", variables: mediaVariables },
  { title: "AI providers", variables: aiProviderVariables },
  { title: "Per-person AI limits", variables: aiLimitVariables },
] as const satisfies readonly { title: string; variables: Record<string, Variable<unknown>> }[];

/** Each variable's parser, keyed by its name: the shape of the settings schema. */
type Shape<V extends Record<string, Variable<unknown>>> = { [K in keyof V]: V[K]["schema"] };
function shapeOf<V extends Record<string, Variable<unknown>>>(variables: V): Shape<V> {
  return Object.fromEntries(Object.entries(variables).map(([name, variable]) => [name, variable.schema])) as Shape<V>;
}

export const settingsShape = {
  ...shapeOf(serverVariables),
  ...shapeOf(observabilityVariables),
  ...shapeOf(storageVariables),
  ...shapeOf(accountVariables),
  ...shapeOf(mediaVariables),
  ...shapeOf(aiProviderVariables),
  ...shapeOf(aiLimitVariables),
};
