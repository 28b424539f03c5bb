/** What a sealed `requestState` names: the call it resumes and the round it answers. */
export interface RequestStateClaim {
  /** The invoke id of the call. */
  readonly callId: string;
  /** Which `input_required` round of the call issued it (1 for the first). */
  readonly round: number;
}

/**
 * Seals the `requestState` of modern-era `input_required` results: the call's id, the
 * round and an HMAC-SHA256 over both and the tool's name, keyed by a random secret of
 * this server. A client can echo a state but not make one up, nor move one to another
 * call or tool; whether a genuine state was already used is the call's to know.
 */
export class RequestStateSeal {
  constructor(
    private readonly mac: (text: string) => string,
    /** Compares two MACs in time independent of where they differ. */
    private readonly same: (a: string, b: string) => boolean,
  ) {}

  /** The state to send with a call's round `claim.round`. */
  seal(claim: RequestStateClaim, tool: string): string {
    const body = `${claim.callId}.${claim.round}`;
    return `${body}.${this.mac(`${body}.${tool}`)}`;
  }

  /** What a state echoed for `tool` names; undefined when this server did not seal it so. */
  open(state: string, tool: string): RequestStateClaim | undefined {
    const match = /^([\w-]+)\.([1-9]\d{0,8})\.([\w-]+)$/.exec(state);
    if (!match) return undefined;
    const [, callId, round, mac] = match as unknown as [string, string, string, string];
    if (!this.same(mac, this.mac(`${callId}.${round}.${tool}`))) return undefined;
    return { callId, round: Number(round) };
  }
}

/**
 * A seal with a fresh 256-bit secret. node:crypto is loaded here, on the first modern
 * call, so that a plugin never serving one does not pay for it at start.
 */
export async function newRequestStateSeal(): Promise<RequestStateSeal> {
  const { createHmac, randomBytes, timingSafeEqual } = await import("node:crypto");
  const secret = randomBytes(32);
  return new RequestStateSeal(
    (text) => createHmac("sha256", secret).update(text).digest("base64url"),
    (a, b) => {
      const [x, y] = [Buffer.from(a), Buffer.from(b)];
      return x.length === y.length && timingSafeEqual(x, y);
    },
  );
}
