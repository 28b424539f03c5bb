import { isObject } from "../manifest/manifest-issues.js";
import type { McpCallToolResult } from "./call-result.js";

/** One request the server embeds in an `input_required` result, for the client to fulfil. */
export interface McpInputRequest {
  method: string;
  params: unknown;
}

/**
 * A `tools/call` answer of the modern era saying the tool waits for the client: the
 * requests to fulfil and the state to echo when the client calls again with their results.
 */
export interface McpInputRequiredResult {
  resultType: "input_required";
  inputRequests: Record<string, McpInputRequest>;
  requestState: string;
}

/** Where the current round of a call is answered. */
export interface Round {
  resolve(answer: McpCallToolResult | McpInputRequiredResult): void;
  reject(error: unknown): void;
}

interface Waiting {
  request: McpInputRequest;
  asked: boolean;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

/**
 * One modern-era `tools/call` whose tool asks the client for something (sampling): the
 * server has no request channel to the client in this era, so each ask ends the current
 * round with an `input_required` result, and the client's next `tools/call` carrying
 * `requestState` and `inputResponses` answers the asks and opens the next round. The tool
 * itself runs on, suspended in its `await`, across the rounds.
 */
export class InputRequiredFlow {
  private round: Round | undefined;
  private readonly waiting = new Map<string, Waiting>();
  private seq = 0;
  /** How many `input_required` rounds were sent. */
  private rounds = 0;
  /** The round whose `requestState` the client holds and has not used yet. */
  private outstanding: number | undefined;

  /** `stateOf(n)` is the `requestState` of round n, opaque to the client. */
  constructor(private readonly stateOf: (round: number) => string) {}

  /** Answers the next round (the first `tools/call`, or a later one resuming this flow). */
  open(round: Round): void {
    this.round = round;
  }

  /** The tool asks the client: answered by the `inputResponses` of a later round. */
  ask(method: string, params: unknown, signal?: AbortSignal): Promise<unknown> {
    const key = `${method.replace(/\W+/g, "-")}-${++this.seq}`;
    return new Promise((resolve, reject) => {
      this.waiting.set(key, { request: { method, params }, asked: false, resolve, reject });
      signal?.addEventListener(
        "abort",
        () => {
          this.waiting.delete(key);
          reject(signal.reason);
        },
        { once: true },
      );
      // Asks made in the same turn (Promise.all) go out in one round.
      queueMicrotask(() => this.flush());
    });
  }

  /**
   * A later `tools/call` of this flow, echoing the state of round `n`: its responses
   * settle the asks, and it answers the next round. False, and nothing done, when that
   * state was used already (each state resumes once).
   */
  resume(n: number, responses: unknown, round: Round): boolean {
    if (n !== this.outstanding) return false;
    this.outstanding = undefined;
    this.round = round;
    const given = isObject(responses) ? responses : {};
    for (const [key, entry] of this.waiting) {
      if (!(key in given)) {
        entry.asked = false;
        continue;
      }
      this.waiting.delete(key);
      entry.resolve(given[key]);
    }
    queueMicrotask(() => this.flush());
    return true;
  }

  /** The tool finished: its result answers the open round. */
  finish(result: McpCallToolResult): void {
    this.round?.resolve(result);
    this.round = undefined;
  }

  /** The call failed: the open round gets the error. */
  fail(error: unknown): void {
    this.round?.reject(error);
    this.round = undefined;
  }

  private flush(): void {
    const unasked = [...this.waiting].filter(([, entry]) => !entry.asked);
    if (this.round === undefined || unasked.length === 0) return;
    for (const [, entry] of unasked) entry.asked = true;
    this.outstanding = ++this.rounds;
    this.round.resolve({
      resultType: "input_required",
      inputRequests: Object.fromEntries(unasked.map(([key, entry]) => [key, entry.request])),
      requestState: this.stateOf(this.outstanding),
    });
    this.round = undefined;
  }
}
